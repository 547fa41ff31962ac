// Whether an entry is a document the server will take: valid UTF-8 JSON
// whose top level is an object. Checked here, before batching, so that one
// bad line is reported with its own file and line number and can be skipped,
// instead of failing the whole add() of its batch.
#pragma once

#include <string>

namespace mysqlx_import {

struct check_result {
  bool ok = false;
  std::string reason;  // why not, when !ok, e.g. "not valid JSON: Missing a colon ... at offset 17"
  bool has_id = false; // the object has a top-level "_id" member
  bool id_is_string = false;
  std::string id; // its value when it is a string (unescaped)
  // The _id as the collection keys it (JSON_UNQUOTE of the value), where
  // the tool can tell: a string's value, an integer's digits ("5" for both
  // 5 and "5"); empty for other values. Orders batches that share an _id.
  std::string id_key;
};

check_result check_document(const std::string& text);

} // namespace mysqlx_import
