// The arguments of one admin command (Sql.StmtExecute in namespace mysqlx or
// xplugin), by name, whichever form they came in, with the X Plugin's
// argument errors (5015 missing, 5016 wrong type). Private to xserverd.
#pragma once

#include "mysqlx_datatypes.pb.h"
#include "test/xserver/errors.h"

#include <initializer_list>
#include <map>
#include <optional>
#include <string>

namespace xserver {

class admin_args {
public:
  using Any = Mysqlx::Datatypes::Any;
  // positional: 5.7's xplugin form, args in the order of names; otherwise
  // one Object whose fields are the arguments.
  admin_args(const google::protobuf::RepeatedPtrField<Any>& args, bool positional,
             std::initializer_list<const char*> names);
  // An Object value's fields, as the arguments of a nested definition.
  explicit admin_args(const Any& object);

  // A string argument; an absent optional one leaves out unchanged.
  std::optional<x_error> string(const char* name, std::string& out, bool required = true) const;
  std::optional<x_error> boolean(const char* name, bool& out) const;       // optional
  std::optional<x_error> uint(const char* name, std::uint64_t& out) const; // optional
  const Any* get(const char* name) const;

private:
  std::map<std::string, const Any*> m_values;
};

// The field `key` of an Object value, or nullptr.
const Mysqlx::Datatypes::Any* field(const Mysqlx::Datatypes::Any* obj, const char* key);
std::string sha1_hex(const std::string& s); // 40 lower-case hex digits
class mariadb_conn;
// Is schema.name a collection: doc and _id, every other column generated?
bool is_collection(mariadb_conn& db, const std::string& schema, const std::string& name);

} // namespace xserver
