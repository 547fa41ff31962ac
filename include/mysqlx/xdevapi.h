// The X DevAPI for C++: include this one header.
//
//   #include <mysqlx/xdevapi.h>
//   using namespace mysqlx;
//
// Source-compatible with Connector/C++ 8's X DevAPI, with one difference:
// mysqlx::string is std::string (UTF-8), not a UTF-16 string class.
#pragma once

#include <mysqlx/collection.h>
#include <mysqlx/collection_options.h>
#include <mysqlx/docid.h>
#include <mysqlx/error.h>
#include <mysqlx/result.h>
#include <mysqlx/schema.h>
#include <mysqlx/session.h>
#include <mysqlx/settings.h>
#include <mysqlx/sql.h>
#include <mysqlx/statement.h>
#include <mysqlx/table.h>
#include <mysqlx/value.h>
