// Shared by the X Plugin variable tests (xvars_test.cc, xvars_io_test.cc):
// typed rows of a reply, SQL with expected outcomes, status counters, and a
// GLOBAL setting that is put back when the test ends.
#pragma once

#include "mysqlx_resultset.pb.h"
#include "test/xserver/tests/xclient.h"

#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <vector>

namespace xtest {

using rows_t = std::vector<std::vector<std::string>>;

inline std::uint16_t port80() {
  return env_port("XS_PORT_80");
}

// Every row of a reply; BYTES fields as text, SINT/UINT fields (per the
// column metadata) as numbers.
inline rows_t rows_of(const std::vector<frame>& frames) {
  std::vector<Mysqlx::Resultset::ColumnMetaData::FieldType> types;
  rows_t out;
  for (const auto& f : frames) {
    if (is(f, server_msg::resultset_column_meta_data)) {
      Mysqlx::Resultset::ColumnMetaData m;
      m.ParseFromString(f.payload);
      types.push_back(m.type());
    }
    if (!is(f, server_msg::resultset_row)) continue;
    Mysqlx::Resultset::Row row;
    row.ParseFromString(f.payload);
    std::vector<std::string> r;
    for (int i = 0; i < row.field_size(); ++i) {
      const std::string& v = row.field(i);
      if (types.at(i) != Mysqlx::Resultset::ColumnMetaData::SINT &&
          types.at(i) != Mysqlx::Resultset::ColumnMetaData::UINT) {
        r.push_back(v.empty() ? "<NULL>" : v.substr(0, v.size() - 1));
        continue;
      }
      std::uint64_t n = 0;
      for (std::size_t b = 0; b < v.size(); ++b)
        n |= std::uint64_t(static_cast<unsigned char>(v[b]) & 0x7f) << (7 * b);
      const bool sint = types.at(i) == Mysqlx::Resultset::ColumnMetaData::SINT;
      r.push_back(sint ? std::to_string(static_cast<std::int64_t>(n >> 1) ^ -std::int64_t(n & 1))
                       : std::to_string(n));
    }
    out.push_back(r);
  }
  return out;
}

inline std::vector<std::string> column_names(const std::vector<frame>& frames) {
  std::vector<std::string> names;
  for (const auto& f : frames) {
    if (!is(f, server_msg::resultset_column_meta_data)) continue;
    Mysqlx::Resultset::ColumnMetaData m;
    m.ParseFromString(f.payload);
    names.push_back(m.name());
  }
  return names;
}

inline Mysqlx::Error sql_error(xclient& c, const std::string& stmt) {
  auto r = c.sql(stmt);
  EXPECT_TRUE(is(r.back(), server_msg::error)) << stmt << ": " << describe(r);
  return error_of(r.back());
}

inline void expect_error(xclient& c, const std::string& stmt, std::uint32_t code,
                         const std::string& sql_state, const std::string& msg) {
  const auto e = sql_error(c, stmt);
  EXPECT_EQ(e.code(), code) << stmt;
  EXPECT_EQ(e.sql_state(), sql_state) << stmt;
  EXPECT_EQ(e.msg(), msg) << stmt;
}

inline void expect_ok(xclient& c, const std::string& stmt) {
  auto r = c.sql(stmt);
  EXPECT_TRUE(is(r.back(), server_msg::sql_stmt_execute_ok)) << stmt << ": " << describe(r);
}

// A Mysqlx_* status counter as SHOW GLOBAL STATUS gives it.
inline std::uint64_t status_of(xclient& c, const std::string& name) {
  const rows_t rows = rows_of(c.sql("SHOW GLOBAL STATUS LIKE '" + name + "'"));
  if (rows.size() != 1) throw std::runtime_error("no status variable " + name);
  return std::stoull(rows[0][1]);
}

// SET GLOBAL name = value for the test's duration. It is set from a
// connection of its own (SET GLOBAL of a timeout also applies to the
// connection that sets it) and put back to DEFAULT through one opened
// before, so that a small timeout or connection limit cannot lock it out.
class global_setting {
public:
  global_setting(std::string name, const std::string& value)
      : m_name(std::move(name)), m_keeper(authed(port80())) {
    xclient setter = authed(port80());
    expect_ok(setter, "SET GLOBAL " + m_name + " = " + value);
  }
  ~global_setting() { expect_ok(m_keeper, "SET GLOBAL " + m_name + " = DEFAULT"); }
  global_setting(const global_setting&) = delete;
  global_setting& operator=(const global_setting&) = delete;

private:
  std::string m_name;
  xclient m_keeper;
};

} // namespace xtest
