// Runs each expression of a list (expressions.txt) through the X DevAPI and
// prints what came back, one line per expression:
//
//   <line number> TAB OK TAB <type> <value>     or
//   <line number> TAB ERR TAB <message>
//
// The same source is built against our libmysqlx (test/conformance/cpp,
// main build) and against the official Connector/C++ 8.3 (peer_programs/),
// both through Connector/C++ 8's public X DevAPI only, and run against one
// xserverd; expr_compare.py then holds the two outputs to the list.
//
// usage: expr_probe <expressions.txt> <schema>; the server from
// MYSQLX_TEST_URI_80 and MYSQLX_TEST_CA_80 (TLS, VERIFY_CA).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <sstream>
#include <string>

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) {
    std::cerr << name << " is not set\n";
    std::exit(2);
  }
  return v;
}

// One line per result: control characters escaped, so a value with a
// newline cannot look like two results.
std::string escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// The value with its X DevAPI type, so that 4 and "4" differ.
std::string show(const mysqlx::Value& v) {
  std::ostringstream o;
  switch (v.getType()) {
  case mysqlx::Value::VNULL:
    return "null";
  case mysqlx::Value::INT64:
    o << "int " << v.get<std::int64_t>();
    break;
  case mysqlx::Value::UINT64:
    o << "uint " << v.get<std::uint64_t>();
    break;
  case mysqlx::Value::FLOAT:
    o << "float " << std::setprecision(9) << v.get<float>();
    break;
  case mysqlx::Value::DOUBLE:
    o << "double " << std::setprecision(17) << v.get<double>();
    break;
  case mysqlx::Value::BOOL:
    o << "bool " << (v.get<bool>() ? "true" : "false");
    break;
  case mysqlx::Value::STRING:
    o << "string " << v.get<std::string>();
    break;
  case mysqlx::Value::RAW: {
    o << "raw";
    const mysqlx::bytes b = v.getRawBytes();
    for (const auto c : b) {
      char buf[4];
      std::snprintf(buf, sizeof buf, " %02x", static_cast<unsigned>(c));
      o << buf;
    }
    break;
  }
  default: // DOCUMENT, ARRAY
    o << "json " << v;
    break;
  }
  return o.str();
}

void setup(mysqlx::Session& s, const std::string& schema) {
  s.sql("DROP DATABASE IF EXISTS " + schema).execute();
  s.sql("CREATE DATABASE " + schema).execute();
  s.sql("CREATE TABLE " + schema +
        ".t (n INT, u BIGINT UNSIGNED, s VARCHAR(32), b VARCHAR(32), d DATE, dt DATETIME, "
        "j JSON, x DOUBLE)")
      .execute();
  s.sql("INSERT INTO " + schema +
        ".t VALUES (5, 7, 'foobarbar', 'foobarbar', '2024-02-28', '2024-02-28 10:00:00', "
        "'{\"a\": 1, \"b\": [1, 2, 3], \"c\": {\"d\": \"x\"}}', 2.5)")
      .execute();
  s.getSchema(schema)
      .createCollection("c")
      .add(R"({"_id": "1", "a": 1, "b": [1, 2, 3], "c": {"d": "x"}, "s": "foobarbar", "n": 5,
               "dt": "2024-02-28"})")
      .execute();
}

// What one list line gives: the first column of the first row (select,
// fields), or the number of rows that match (where, find).
std::string run(mysqlx::Schema& sch, const std::string& mode, const std::string& expr) {
  mysqlx::Table t = sch.getTable("t");
  mysqlx::Collection c = sch.getCollection("c");
  if (mode == "select") {
    mysqlx::Row r = t.select(expr).execute().fetchOne();
    return show(r[0]);
  }
  if (mode == "where") return "rows " + std::to_string(t.select("n").where(expr).execute().count());
  if (mode == "fields") {
    mysqlx::DbDoc d = c.find().fields(expr + " AS v").execute().fetchOne();
    return d.hasField("v") ? show(d["v"]) : "missing";
  }
  if (mode == "find") return "rows " + std::to_string(c.find(expr).execute().count());
  return "bad mode " + mode;
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: expr_probe <expressions.txt> <schema>\n";
    return 2;
  }
  std::ifstream list(argv[1]);
  if (!list) {
    std::cerr << "cannot read " << argv[1] << '\n';
    return 2;
  }
  const std::string schema = argv[2];
  try {
    mysqlx::SessionSettings settings(env("MYSQLX_TEST_URI_80"));
    settings.set(mysqlx::SessionOption::SSL_MODE, mysqlx::SSLMode::VERIFY_CA,
                 mysqlx::SessionOption::SSL_CA, env("MYSQLX_TEST_CA_80"));
    mysqlx::Session s(settings);
    setup(s, schema);
    mysqlx::Schema sch = s.getSchema(schema);
    std::string line;
    for (int n = 1; std::getline(list, line); ++n) {
      if (line.empty() || line[0] == '#') continue;
      // mode TAB expression [TAB expected]
      const auto tab = line.find('\t');
      const auto tab2 = line.find('\t', tab + 1);
      const std::string mode = line.substr(0, tab);
      const std::string expr =
          line.substr(tab + 1, tab2 == std::string::npos ? std::string::npos : tab2 - tab - 1);
      std::string status = "OK";
      std::string out;
      try {
        out = run(sch, mode, expr);
      } catch (const std::exception& e) {
        status = "ERR";
        out = e.what();
      }
      std::cout << n << '\t' << status << '\t' << escaped(out) << '\n';
    }
    s.sql("DROP DATABASE " + schema).execute();
  } catch (const std::exception& e) {
    std::cerr << "expr_probe: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
