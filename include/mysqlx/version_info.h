// Version macros: this library's own, and the Connector/C++ 8 version whose
// X DevAPI it implements, under Connector/C++'s names, for programs that
// test them (`#if MYSQL_CONCPP_VERSION_NUMBER >= 8000016`).
#pragma once

/// This library's version (the CMake project's).
#define MYSQLX_VERSION_MAJOR 0
#define MYSQLX_VERSION_MINOR 1
#define MYSQLX_VERSION_PATCH 0

/// The Connector/C++ release whose X DevAPI this library implements (8.3.0):
/// code written for it compiles unchanged. MYSQL_CONCPP_VERSION_NUMBER is
/// MAJOR, then MINOR in two digits and MICRO in four (8030000), as there.
#define MYSQL_CONCPP_VERSION "8.3.0"
#define MYSQL_CONCPP_VERSION_MAJOR 8
#define MYSQL_CONCPP_VERSION_MINOR 3
#define MYSQL_CONCPP_VERSION_MICRO 0
#define MYSQL_CONCPP_VERSION_NUMBER 8030000
