// The official MySQL Connector/C++ 8.3 against xserverd, with X Protocol
// compression. Compiled only against the peer's installed headers and library
// (build_peer.sh, peer_programs/), written by us with the public X DevAPI.
//
// The expectations are MySQL's behaviour (shared/reference/
// xprotocol-compression-facts.md), not what xserverd does today:
// - MySQL 8.0 offers deflate_stream, lz4_message and zstd_stream, so a
//   session with compression REQUIRED and any one of them connects, and the
//   default (PREFERRED) connects compressed;
// - MySQL 5.7 offers no compression: PREFERRED connects uncompressed,
//   REQUIRED fails with the connector's own error.
// Each test is run by ctest on its own, under `timeout`: the connector spins
// forever on compressed replies it misreads, and a hang must fail fast.
//
// Environment (set by the ctest fixtures, as for the Node.js suite):
// MYSQLX_TEST_URI_80 / MYSQLX_TEST_URI_57, MYSQLX_TEST_CA_80 / MYSQLX_TEST_CA_57.
//
// Which algorithm a session negotiated is read from MySQL's status variable
// `Mysqlx_compression_algorithm` (NegotiatedAlgorithm).
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <gtest/gtest.h>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <set>
#include <string>
#include <vector>

namespace {

const char* const k_schema = "conformance_cpp";

std::string env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (!v || !*v) throw std::runtime_error(name + " is not set (run the test through ctest)");
  return v;
}

// What a test is doing, printed as it goes: when `timeout` kills a hung test,
// the last step shows where it hung.
void step(const std::string& what) {
  std::cout << "[ step     ] " << what << std::endl;
}

// config: "disabled" (compression off: the control, checking the cases
// themselves), "preferred" (the connector's default, nothing set), "required"
// (REQUIRED with the default algorithm list), or one algorithm name (REQUIRED
// with only that algorithm).
mysqlx::SessionSettings settings(const std::string& server, const std::string& config) {
  step("connect, compression " + config);
  mysqlx::SessionSettings s(env("MYSQLX_TEST_URI_" + server));
  s.set(mysqlx::SessionOption::SSL_MODE, mysqlx::SSLMode::VERIFY_CA, mysqlx::SessionOption::SSL_CA,
        env("MYSQLX_TEST_CA_" + server), mysqlx::SessionOption::CONNECT_TIMEOUT,
        std::chrono::seconds(10));
  if (config == "disabled")
    s.set(mysqlx::SessionOption::COMPRESSION, mysqlx::CompressionMode::DISABLED);
  else if (config != "preferred")
    s.set(mysqlx::SessionOption::COMPRESSION, mysqlx::CompressionMode::REQUIRED);
  if (config != "disabled" && config != "preferred" && config != "required")
    s.set(mysqlx::SessionOption::COMPRESSION_ALGORITHMS, config);
  return s;
}

// A fresh collection per test and configuration: ctest runs tests in parallel.
mysqlx::Collection fresh_collection(mysqlx::Session& s, const std::string& name) {
  step("CREATE SCHEMA IF NOT EXISTS, drop and create collection " + name);
  s.sql(std::string("CREATE SCHEMA IF NOT EXISTS ") + k_schema).execute();
  mysqlx::Schema schema = s.getSchema(k_schema);
  schema.dropCollection(name);
  return schema.createCollection(name);
}

std::string letters(unsigned n, std::size_t len) {
  return std::string(len, static_cast<char>('a' + n % 26));
}

// A document of about 2 KB, so every add() message is over the 1000 bytes
// above which the connector compresses what it sends.
std::string wide_doc(unsigned n, bool with_id = false) {
  std::string doc = "{";
  if (with_id) doc += R"("_id":"doc)" + std::to_string(n) + R"(",)";
  return doc + R"("n":)" + std::to_string(n) + R"(,"text":")" + letters(n, 2000) + R"("})";
}

std::vector<std::string> wide_docs(unsigned count, bool with_ids = false) {
  std::vector<std::string> docs;
  for (unsigned i = 0; i < count; ++i) docs.push_back(wide_doc(i, with_ids));
  return docs;
}

// 10,000 rows of ~210 bytes (about 2 MB, so about a hundred of MySQL's ~24 KB
// compressed blocks), from a cross join that MySQL and MariaDB both run.
void check_large_sql_result(mysqlx::Session& s) {
  const char* digits = "(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 "
                       "UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL "
                       "SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
  const std::string query =
      std::string("SELECT n, CONCAT(n, ':', REPEAT(SUBSTRING('abcdefghijklmnopqrstuvwxyz', "
                  "n % 26 + 1, 1), 200)) AS t, IF(n % 3 = 0, NULL, n * 2) AS maybe FROM "
                  "(SELECT a.d * 1000 + b.d * 100 + c.d * 10 + e.d AS n FROM ") +
      digits + " a CROSS JOIN " + digits + " b CROSS JOIN " + digits + " c CROSS JOIN " + digits +
      " e) nums ORDER BY n";
  for (int round = 0; round < 2; ++round) { // the second reuses the connection's streams
    step("SELECT of 10,000 rows, round " + std::to_string(round + 1));
    mysqlx::SqlResult res = s.sql(query).execute();
    ASSERT_EQ(res.getColumnCount(), 3u);
    unsigned expected = 0;
    for (mysqlx::Row row : res) {
      ASSERT_EQ(row[0].get<int>(), static_cast<int>(expected));
      ASSERT_EQ(row[1].get<std::string>(), std::to_string(expected) + ":" + letters(expected, 200));
      if (expected % 3 == 0)
        ASSERT_TRUE(row[2].isNull()) << expected;
      else
        ASSERT_EQ(row[2].get<int>(), static_cast<int>(expected * 2));
      ++expected;
    }
    ASSERT_EQ(expected, 10000u);
  }
  step("a small SELECT after them");
  mysqlx::Row one = s.sql("SELECT 42, 'after'").execute().fetchOne();
  EXPECT_EQ(one[0].get<int>(), 42);
  EXPECT_EQ(one[1].get<std::string>(), "after");
}

bool is_server_id(const std::string& id) {
  if (id.size() != 28) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// 8.0: compression PREFERRED (the default) or REQUIRED with each algorithm.
class Mysql80 : public ::testing::TestWithParam<std::string> {
protected:
  mysqlx::Session session() { return mysqlx::Session(settings("80", GetParam())); }
  std::string name(const std::string& what) const { return what + "_" + GetParam(); }
};

TEST_P(Mysql80, SqlLargeResult) {
  mysqlx::Session s = session();
  check_large_sql_result(s);
}

TEST_P(Mysql80, CollectionCrud) {
  mysqlx::Session s = session();
  mysqlx::Collection c = fresh_collection(s, name("crud"));
  step("add() of 200 documents of 2 KB, then 5 small ones");
  EXPECT_EQ(c.add(wide_docs(200)).execute().getAffectedItemsCount(), 200u);
  for (unsigned n = 200; n < 205; ++n)
    EXPECT_EQ(c.add(R"({"n":)" + std::to_string(n) + "}").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(c.count(), 205u);

  step("find() of the 200 large documents (~400 KB of replies)");
  mysqlx::DocResult all = c.find("n < 200").sort("n ASC").execute();
  unsigned expected = 0;
  for (mysqlx::DbDoc doc : all) {
    ASSERT_EQ(doc["n"].get<int>(), static_cast<int>(expected));
    ASSERT_EQ(doc["text"].get<std::string>(), letters(expected, 2000));
    ++expected;
  }
  EXPECT_EQ(expected, 200u);

  step("find() with fields() and sort()");
  std::vector<mysqlx::DbDoc> few =
      c.find("n >= 198").fields("n AS n").sort("n DESC").execute().fetchAll();
  ASSERT_EQ(few.size(), 7u);
  EXPECT_EQ(few[0]["n"].get<int>(), 204);
  EXPECT_EQ(few[6]["n"].get<int>(), 198);

  step("modify()");
  EXPECT_EQ(c.modify("n % 2 = 0").set("even", true).execute().getAffectedItemsCount(), 103u);
  EXPECT_EQ(c.find("even = true").execute().count(), 103u);
  EXPECT_EQ(c.modify("n = 1").set("text", "short").execute().getAffectedItemsCount(), 1u);
  EXPECT_EQ(c.find("n = 1").execute().fetchOne()["text"].get<std::string>(), "short");

  step("remove()");
  EXPECT_EQ(c.remove("n >= 100").execute().getAffectedItemsCount(), 105u);
  EXPECT_EQ(c.count(), 100u);
}

TEST_P(Mysql80, GeneratedIds) {
  mysqlx::Session s = session();
  mysqlx::Collection c = fresh_collection(s, name("ids"));
  step("add() of 3 documents without _id (one large) and 1 with");
  mysqlx::Result r =
      c.add(R"({"k":1})", wide_doc(2), R"({"_id":"mine","k":3})", R"({"k":4})").execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 4u);
  std::vector<std::string> ids = r.getGeneratedIds();
  ASSERT_EQ(ids.size(), 3u);
  for (const std::string& id : ids) EXPECT_TRUE(is_server_id(id)) << id;
  EXPECT_LT(ids[0], ids[1]);
  EXPECT_LT(ids[1], ids[2]);
  step("getOne() of each");
  EXPECT_EQ(c.getOne(ids[0])["k"].get<int>(), 1);
  EXPECT_EQ(c.getOne(ids[1])["n"].get<int>(), 2);
  EXPECT_EQ(c.getOne(ids[2])["k"].get<int>(), 4);
  EXPECT_EQ(c.getOne("mine")["k"].get<int>(), 3);

  step("add() of 100 documents of 2 KB without _id");
  std::vector<std::string> more = c.add(wide_docs(100)).execute().getGeneratedIds();
  ASSERT_EQ(more.size(), 100u);
  std::set<std::string> unique(more.begin(), more.end());
  EXPECT_EQ(unique.size(), 100u);
  for (const std::string& id : more) {
    EXPECT_TRUE(is_server_id(id)) << id;
    EXPECT_GT(id, ids[2]);
  }
  EXPECT_EQ(c.count(), 104u);
}

// The connector prepares a statement on its second execution with new bound
// values (Prepare + Execute), and executes the prepared one after that.
TEST_P(Mysql80, PreparedStatements) {
  mysqlx::Session s = session();
  mysqlx::Collection c = fresh_collection(s, name("prepared"));
  step("add() of 100 documents of 2 KB");
  ASSERT_EQ(c.add(wide_docs(100)).execute().getAffectedItemsCount(), 100u);

  step("find(\"n = :n\") with bind(), 6 times");
  mysqlx::CollectionFind one = c.find("n = :n");
  for (int n = 0; n < 6; ++n) {
    std::vector<mysqlx::DbDoc> docs = one.bind("n", n).execute().fetchAll();
    ASSERT_EQ(docs.size(), 1u) << "n=" << n;
    EXPECT_EQ(docs[0]["n"].get<int>(), n);
    EXPECT_EQ(docs[0]["text"].get<std::string>(), letters(n, 2000));
  }

  step("find(\"n >= :lo\") with bind(), 4 times (large results)");
  mysqlx::CollectionFind range = c.find("n >= :lo").sort("n ASC");
  for (int lo = 0; lo < 4; ++lo) {
    int expected = lo;
    for (mysqlx::DbDoc doc : range.bind("lo", lo).execute()) {
      ASSERT_EQ(doc["n"].get<int>(), expected);
      ASSERT_EQ(doc["text"].get<std::string>(), letters(expected, 2000));
      ++expected;
    }
    EXPECT_EQ(expected, 100) << "lo=" << lo;
  }

  step("modify(\"n = :n\") with bind(), 6 times");
  mysqlx::CollectionModify mark = c.modify("n = :n").set("seen", true);
  for (int n = 10; n < 16; ++n)
    EXPECT_EQ(mark.bind("n", n).execute().getAffectedItemsCount(), 1u) << "n=" << n;
  EXPECT_EQ(c.find("seen = true").execute().count(), 6u);

  step("remove(\"n = :n\") with bind(), 4 times");
  mysqlx::CollectionRemove drop = c.remove("n = :n");
  for (int n = 20; n < 24; ++n)
    EXPECT_EQ(drop.bind("n", n).execute().getAffectedItemsCount(), 1u) << "n=" << n;
  EXPECT_EQ(c.count(), 96u);
}

// The connector sends one CapabilitiesSet per algorithm (deflate, lz4, zstd
// for its default list) and uses the last the server accepts: against MySQL
// 8.0 that is zstd_stream. The session's status variables say what the server
// uses, in upper case, and an empty value without compression.
TEST_P(Mysql80, NegotiatedAlgorithm) {
  mysqlx::Session s = session();
  step("SHOW STATUS LIKE 'Mysqlx_compression%'");
  std::string algorithm = "(no row)", level = "(no row)";
  for (mysqlx::Row row : s.sql("SHOW STATUS LIKE 'Mysqlx_compression%'").execute()) {
    const std::string name = row[0].get<std::string>();
    if (name == "Mysqlx_compression_algorithm") algorithm = row[1].get<std::string>();
    if (name == "Mysqlx_compression_level") level = row[1].get<std::string>();
  }
  std::string want = GetParam() == "disabled"    ? ""
                     : GetParam() == "preferred" ? "zstd_stream"
                                                 : GetParam();
  for (char& c : want) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(algorithm, want);
  // The X Plugin's default levels: deflate 3, lz4 2, zstd 3.
  const char* want_level = want.empty() ? "" : want == "LZ4_MESSAGE" ? "2" : "3";
  EXPECT_EQ(level, want_level);
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Compression, Mysql80,
                         ::testing::Values("disabled", "preferred", "zstd_stream", "lz4_message",
                                           "deflate_stream"),
                         param_name);

// 5.7 (xserverd --emulate 5.7): no compression capability.
TEST(Mysql57, PreferredSqlLargeResult) {
  mysqlx::Session s(settings("57", "preferred"));
  check_large_sql_result(s);
}

TEST(Mysql57, PreferredCollectionCrud) {
  mysqlx::Session s(settings("57", "preferred"));
  mysqlx::Collection c = fresh_collection(s, "crud_57");
  // 5.7 makes no ids: the documents carry their own.
  mysqlx::Result r = c.add(wide_docs(200, true)).execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 200u);
  EXPECT_EQ(c.count(), 200u);
  unsigned expected = 0;
  for (mysqlx::DbDoc doc : c.find().sort("n ASC").execute()) {
    ASSERT_EQ(doc["_id"].get<std::string>(), "doc" + std::to_string(expected));
    ASSERT_EQ(doc["text"].get<std::string>(), letters(expected, 2000));
    ++expected;
  }
  EXPECT_EQ(expected, 200u);
  mysqlx::CollectionFind one = c.find("n = :n");
  for (int n = 0; n < 4; ++n) EXPECT_EQ(one.bind("n", n).execute().count(), 1u);
  EXPECT_EQ(c.modify("n < 50").set("low", true).execute().getAffectedItemsCount(), 50u);
  EXPECT_EQ(c.remove("n >= 150").execute().getAffectedItemsCount(), 50u);
  EXPECT_EQ(c.count(), 150u);
}

class Mysql57Required : public ::testing::TestWithParam<std::string> {};

TEST_P(Mysql57Required, Fails) {
  try {
    mysqlx::Session s(settings("57", GetParam()));
    ADD_FAILURE() << "a session with compression REQUIRED connected to 5.7";
  } catch (const mysqlx::Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("Compression requested but the server does not support it"),
        std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Compression, Mysql57Required,
                         ::testing::Values("required", "zstd_stream", "lz4_message",
                                           "deflate_stream"),
                         param_name);

// Result metadata and values as MySQL 8.0's X Plugin sends them
// (plugin/x/src/streaming_command_delegate.cc, encoders/encoding_xrow.h),
// read through the official client. Compression off: these are about the
// messages, not their transport.
mysqlx::Session plain_session() {
  return mysqlx::Session(settings("80", "disabled"));
}

// Text columns read as strings: SHOW, information_schema, expressions, and
// the rows xserverd adds for the X Plugin's own variables.
TEST(Metadata, TextColumnsAreStrings) {
  mysqlx::Session s = plain_session();
  const char* queries[] = {
      "SHOW VARIABLES LIKE 'version'",
      "SHOW GLOBAL VARIABLES LIKE 'max_allowed_packet'",
      "SHOW VARIABLES LIKE 'mysqlx_%'",
      "SHOW STATUS LIKE 'Uptime'",
      "SHOW STATUS LIKE 'Mysqlx_ssl%'",
      "SHOW SESSION STATUS WHERE Variable_name = 'Mysqlx_ssl_active'",
      "SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME FROM information_schema.SCHEMATA",
      "SELECT CONCAT('a', 1), 'literal'",
  };
  for (const char* q : queries) {
    step(q);
    mysqlx::SqlResult res = s.sql(q).execute();
    const auto& cols = res.getColumns();
    for (const mysqlx::Column& c : cols)
      EXPECT_EQ(c.getType(), mysqlx::Type::STRING) << q << ": " << c.getColumnLabel();
    std::size_t rows = 0;
    for (mysqlx::Row row : res) {
      ++rows;
      for (unsigned i = 0; i < row.colCount(); ++i) {
        try {
          (void)row[i].get<std::string>();
        } catch (const mysqlx::Error& e) {
          ADD_FAILURE() << q << ", column " << i << ": " << e.what();
        }
      }
    }
    EXPECT_GT(rows, 0u) << q;
  }
}

std::string hex(const mysqlx::bytes& b) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (auto c : b) {
    out += d[static_cast<unsigned char>(c) >> 4];
    out += d[c & 0xf];
  }
  return out;
}

// Temporal values byte for byte: MySQL's row encoder writes year (a 2-byte
// varint for DATETIME), month, day, then hour, minute, second and
// microseconds only up to the last non-zero part; TIME the same after a sign
// byte; DATE year month day.
TEST(Metadata, TemporalValueBytes) {
  mysqlx::Session s = plain_session();
  struct expectation {
    const char* expr;
    const char* bytes;
  } cases[] = {
      {"CAST('2024-01-02 00:00:00' AS DATETIME)", "e80f0102"},
      {"CAST('2024-01-02 10:00:00' AS DATETIME)", "e80f01020a"},
      {"CAST('2024-01-02 10:20:00' AS DATETIME)", "e80f01020a14"},
      {"CAST('2024-01-02 10:20:30' AS DATETIME)", "e80f01020a141e"},
      {"CAST('2024-01-02 00:00:00.5' AS DATETIME(6))", "e80f0102000000a0c21e"},
      {"CAST('0099-01-02 00:00:00' AS DATETIME)", "e3000102"},
      {"CAST('2024-01-02' AS DATE)", "e80f0102"},
      {"CAST('0099-01-02' AS DATE)", "630102"},
      {"TIMESTAMP('2024-01-02 03:04:05.000006')", "e80f0102030405"
                                                  "06"},
      {"CAST('00:00:00' AS TIME)", "00"},
      {"CAST('10:00:00' AS TIME)", "000a"},
      {"CAST('-838:59:59' AS TIME)", "01c6063b3b"},
      {"CAST('00:00:00.25' AS TIME(2))", "00000000"
                                         "90a10f"},
  };
  for (const auto& c : cases) {
    step(std::string("SELECT ") + c.expr);
    mysqlx::Row row = s.sql(std::string("SELECT ") + c.expr).execute().fetchOne();
    EXPECT_EQ(hex(row[0].getRawBytes()), c.bytes) << c.expr;
  }
}

// A table of each column type: its metadata as the official client reports it.
TEST(Metadata, ColumnTypes) {
  mysqlx::Session s = plain_session();
  s.sql(std::string("CREATE SCHEMA IF NOT EXISTS ") + k_schema).execute();
  s.sql(std::string("DROP TABLE IF EXISTS ") + k_schema + ".types").execute();
  s.sql(std::string("CREATE TABLE ") + k_schema +
        ".types (i INT, u INT UNSIGNED, d DECIMAL(10,2), f FLOAT, db DOUBLE, "
        "c CHAR(5) CHARACTER SET utf8mb4, v VARCHAR(10) CHARACTER SET utf8mb4, "
        "b VARBINARY(8), dt DATETIME, ts TIMESTAMP(6) NULL, t TIME, dd DATE, y YEAR, "
        "bt BIT(8), e ENUM('x','y'), st SET('p','q'), j JSON)")
      .execute();
  s.sql(std::string("INSERT INTO ") + k_schema +
        ".types VALUES (-5, 5, -12.50, 1.5, 2.25, 'ab', 'héllo', 'xy', '2024-01-02 00:00:00', "
        "'2024-01-02 03:04:05.123456', '-01:02:03', '2024-01-02', 2024, b'101', 'y', 'p,q', "
        "'{\"a\": 1}')")
      .execute();
  mysqlx::RowResult res = s.getSchema(k_schema).getTable("types").select().execute();
  const auto& cols = res.getColumns();
  auto col = [&](unsigned i) -> const mysqlx::Column& { return cols[i]; };
  EXPECT_EQ(col(0).getType(), mysqlx::Type::INT);
  EXPECT_TRUE(col(0).isNumberSigned());
  EXPECT_FALSE(col(1).isNumberSigned());
  EXPECT_EQ(col(2).getType(), mysqlx::Type::DECIMAL);
  EXPECT_EQ(col(2).getFractionalDigits(), 2);
  EXPECT_EQ(col(2).getLength(), 12u); // precision + sign + point
  EXPECT_EQ(col(3).getType(), mysqlx::Type::FLOAT);
  EXPECT_EQ(col(4).getType(), mysqlx::Type::DOUBLE);
  EXPECT_EQ(col(4).getFractionalDigits(), 31); // MySQL's NOT_FIXED_DEC
  EXPECT_EQ(col(5).getType(), mysqlx::Type::STRING);
  EXPECT_EQ(col(5).getLength(), 20u); // bytes: 5 characters of up to 4
  EXPECT_EQ(col(6).getLength(), 40u);
  EXPECT_FALSE(col(6).isPadded());
  EXPECT_EQ(col(7).getType(), mysqlx::Type::BYTES);
  EXPECT_EQ(col(8).getType(), mysqlx::Type::DATETIME);
  EXPECT_EQ(col(8).getLength(), 19u);
  EXPECT_EQ(col(9).getType(), mysqlx::Type::TIMESTAMP);
  EXPECT_EQ(col(9).getLength(), 26u);
  EXPECT_EQ(col(10).getType(), mysqlx::Type::TIME);
  EXPECT_EQ(col(11).getType(), mysqlx::Type::DATE);
  EXPECT_EQ(col(11).getLength(), 10u);
  EXPECT_EQ(col(12).getLength(), 4u);
  EXPECT_FALSE(col(12).isPadded()); // YEAR: no UINT_ZEROFILL flag in X
  EXPECT_EQ(col(13).getType(), mysqlx::Type::BIT);
  EXPECT_EQ(col(14).getType(), mysqlx::Type::ENUM);
  EXPECT_EQ(col(15).getType(), mysqlx::Type::SET);
  EXPECT_EQ(col(16).getType(), mysqlx::Type::JSON);
  mysqlx::Row row = res.fetchOne();
  EXPECT_EQ(row[0].get<int>(), -5);
  EXPECT_EQ(row[1].get<unsigned>(), 5u);
  EXPECT_DOUBLE_EQ(row[2].get<double>(), -12.5);
  EXPECT_FLOAT_EQ(row[3].get<float>(), 1.5f);
  EXPECT_DOUBLE_EQ(row[4].get<double>(), 2.25);
  EXPECT_EQ(row[5].get<std::string>(), "ab");
  EXPECT_EQ(row[6].get<std::string>(), "h\xc3\xa9llo");
  EXPECT_EQ(hex(row[8].getRawBytes()), "e80f0102");
  EXPECT_EQ(hex(row[9].getRawBytes()), "e80f0102030405c0c407");
  EXPECT_EQ(hex(row[10].getRawBytes()), "01010203");
  EXPECT_EQ(hex(row[11].getRawBytes()), "e80f0102");
  EXPECT_EQ(row[12].get<int>(), 2024);
  EXPECT_EQ(row[13].get<int>(), 5);
  EXPECT_EQ(row[14].get<std::string>(), "y");
  EXPECT_EQ(row[16]["a"].get<int>(), 1);
}

// TLS as MySQL 8.0 configures it (include/tls_ciphers.h,
// vio/viosslfactories.cc): TLSv1.2 and TLSv1.3, the TLSv1.2 ciphers
// default_tls12_ciphers, the TLSv1.3 suites default_tls13_ciphers. A client
// restricted to TLSv1.2 and one of them connects, and the session status
// names what was negotiated.
struct tls_case {
  const char* versions;
  const char* ciphersuites; // as the client asks (IANA or OpenSSL names)
  const char* want_version;
  const char* want_cipher; // Mysqlx_ssl_cipher, OpenSSL's name
};

class Tls : public ::testing::TestWithParam<tls_case> {};

TEST_P(Tls, Connects) {
  const tls_case& c = GetParam();
  mysqlx::SessionSettings settings_(env("MYSQLX_TEST_URI_80"));
  settings_.set(mysqlx::SessionOption::SSL_MODE, mysqlx::SSLMode::VERIFY_CA,
                mysqlx::SessionOption::SSL_CA, env("MYSQLX_TEST_CA_80"),
                mysqlx::SessionOption::COMPRESSION, mysqlx::CompressionMode::DISABLED,
                mysqlx::SessionOption::TLS_VERSIONS, c.versions);
  if (*c.ciphersuites) settings_.set(mysqlx::SessionOption::TLS_CIPHERSUITES, c.ciphersuites);
  step(std::string("connect with ") + c.versions + " " + c.ciphersuites);
  mysqlx::Session s(settings_);
  std::string version, cipher;
  for (mysqlx::Row row : s.sql("SHOW STATUS LIKE 'Mysqlx_ssl_%'").execute()) {
    const std::string name = row[0].get<std::string>();
    if (name == "Mysqlx_ssl_version") version = row[1].get<std::string>();
    if (name == "Mysqlx_ssl_cipher") cipher = row[1].get<std::string>();
  }
  EXPECT_EQ(version, c.want_version);
  if (*c.want_cipher) {
    EXPECT_EQ(cipher, c.want_cipher);
  }
}

std::string tls_name(const ::testing::TestParamInfo<tls_case>& info) {
  std::string n = std::to_string(info.index) + "_" + info.param.want_version;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(
    Versions, Tls,
    ::testing::Values(
        tls_case{"TLSv1.2", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLSv1.2",
                 "ECDHE-RSA-AES128-GCM-SHA256"},
        tls_case{"TLSv1.2", "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "TLSv1.2",
                 "DHE-RSA-AES256-GCM-SHA384"},
        tls_case{
            "TLSv1.2",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLSv1.2", "ECDHE-RSA-CHACHA20-POLY1305"},
        tls_case{"TLSv1.2", "", "TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256"},
        tls_case{"TLSv1.3", "", "TLSv1.3", "TLS_AES_128_GCM_SHA256"},
        tls_case{"TLSv1.3", "TLS_AES_256_GCM_SHA384", "TLSv1.3", "TLS_AES_256_GCM_SHA384"},
        tls_case{"TLSv1.2,TLSv1.3", "", "TLSv1.3", "TLS_AES_128_GCM_SHA256"}),
    tls_name);

// Issue 38: a procedure that returns two result sets and then fails. On
// MySQL the X Plugin streams the result sets, then the FetchDoneMoreResultsets
// it held back and the error (streaming_command_delegate.cc handle_error):
// execute() succeeds and the nextResult() to the failed statement throws.
TEST(Procedure, ErrorComesWithTheResultThatFailed) {
  mysqlx::Session s = plain_session();
  step("create the procedure");
  s.sql("CREATE DATABASE IF NOT EXISTS conf_cpp_proc").execute();
  s.sql("DROP PROCEDURE IF EXISTS conf_cpp_proc.p").execute();
  s.sql("CREATE PROCEDURE conf_cpp_proc.p() BEGIN SELECT 1; SELECT 2 UNION SELECT 3; "
        "SELECT * FROM conf_cpp_proc.unknowntable; END")
      .execute();
  {
    step("CALL");
    mysqlx::SqlResult r = s.sql("CALL conf_cpp_proc.p()").execute();
    EXPECT_EQ(r.count(), 1u);
    ASSERT_TRUE(r.nextResult());
    EXPECT_EQ(r.count(), 2u);
    step("nextResult() to the failed statement");
    EXPECT_THROW(r.nextResult(), mysqlx::Error);
  }
  // Once the result is gone (while it lives, the official library throws
  // its error again from the next statement, which drains it).
  step("the session goes on");
  EXPECT_EQ(s.sql("SELECT 7").execute().fetchOne()[0].get<int>(), 7);
}

// IPv6: xserverd listens on ::1 too. VERIFY_CA only: Connector/C++ 8.3
// checks the host with X509_VERIFY_PARAM_set1_host(), which matches DNS
// names and never an IP SAN, so it cannot verify the identity of [::1] (of
// MySQL's either); our connector's test does (test/integration/session).
TEST(Ipv6, VerifyCa) {
  std::string uri = env("MYSQLX_TEST_URI_80");
  const auto at = uri.rfind('@');
  const auto colon = uri.rfind(':');
  uri = uri.substr(0, at + 1) + "[::1]" + uri.substr(colon);
  mysqlx::SessionSettings settings_(uri);
  settings_.set(mysqlx::SessionOption::SSL_MODE, mysqlx::SSLMode::VERIFY_CA,
                mysqlx::SessionOption::SSL_CA, env("MYSQLX_TEST_CA_80"),
                mysqlx::SessionOption::COMPRESSION, mysqlx::CompressionMode::DISABLED);
  step("connect to " + uri);
  mysqlx::Session s(settings_);
  EXPECT_EQ(s.sql("SELECT 6").execute().fetchOne()[0].get<int>(), 6);
}

} // namespace
