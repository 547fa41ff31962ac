// The X DevAPI for C++: include this one header.
//
//   #include <mysqlx/xdevapi.h>
//   using namespace mysqlx;
//
// Source-compatible with Connector/C++ 8's X DevAPI. mysqlx::string holds
// UTF-8 (it is a std::string) and converts from and to UTF-16 and wide text.
#pragma once

#include <mysqlx/collations.h>
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
#include <mysqlx/string.h>
#include <mysqlx/table.h>
#include <mysqlx/value.h>
#include <mysqlx/version_info.h>

// Programs written for Connector/C++ 8 include only <iostream> and this
// header, and use std::stringstream, std::list, std::map, std::sort and the
// like: its umbrella header brings these standard headers in, so ours does
// too (measured with g++ -H against Connector/C++ 8.3). The per-concept
// headers above stay lean. They cost most of this header's parse time (the
// standard headers alone: 0.43 s of CPU of 0.47 s here, test/bench/devapi/
// compile_time.cc); a program that includes what it uses may define
// MYSQLX_LEAN_HEADERS to leave them out.
#ifndef MYSQLX_LEAN_HEADERS
#include <algorithm>
#include <array>
#include <bitset>
#include <cassert>
#include <cwctype>
#include <deque>
#include <forward_list>
#include <functional>
#include <ios>
#include <istream>
#include <list>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <unordered_map>
#if __cplusplus >= 202002L
#include <compare>
#endif
#endif // MYSQLX_LEAN_HEADERS
