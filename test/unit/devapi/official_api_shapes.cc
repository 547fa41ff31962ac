// Compile-only: every public declaration of Connector/C++ 8.3's X DevAPI
// headers (xdevapi.h and devapi/*.h), used the way a program uses it, must
// compile against ours (issue 24). Grouped by the official header that
// declares it; each function takes the objects it needs, so nothing here
// connects or runs. What behaves differently is tested in the unit tests;
// what is deliberately not offered is listed in include/mysqlx/README.md.
#include <array>
#include <cstdint>
#include <iostream>
#include <list>
#include <map>
#include <mysqlx/xdevapi.h>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

// Programs copy loop variables and pass strings by value: that is the point.
// NOLINTBEGIN(performance-for-range-copy,performance-unnecessary-value-param)

using namespace mysqlx;

namespace {

template <typename... T> void use(const T&... /*unused*/) {}

// ---- devapi/common.h: Error, throw_error, string, bytes, count types ----

void common_h(std::ostream& out) {
  try {
    throw_error("message");
  } catch (const Error& e) {
    const std::runtime_error& base = e;
    out << e << e.what() << base.what();
  } catch (const out_of_range& e) { // mysqlx::out_of_range is std::out_of_range
    out << e.what();
  }
  Error made("text");
  use(made);

  string s1;
  string s2(u"utf16");
  string s3("utf8");
  string s4(L"wide");
  string s5(U"utf32");
  string s6(std::u16string(u"x"));
  string s7(std::string("x"));
  string s8(std::wstring(L"x"));
  string s9(std::u32string(U"x"));
  string s10 = s2;
  s10 = s3;
  s10 = std::move(s4);
  std::string back8 = s1;
  std::u16string back16 = s1;
  std::wstring backw = s1;
  std::u32string back32 = s1;
  bool eq = s1 == s2 || s1 != s2 || s1 == u"x" || u"x" == s1 || s1 != u"x" || u"x" != s1;
  out << s1 << eq;
  use(s5, s6, s7, s8, s9, back8, back16, backw, back32);

  col_count_t cols = 1;
  row_count_t rows = 1;
  const byte raw[] = {1, 2, 3};
  bytes b1(raw, raw + 3);
  bytes b2(raw, sizeof raw);
  bytes b3("text");
  bytes b4(std::pair<const byte*, size_t>(raw, 3));
  bytes b5;
  bytes b6(b1);
  for (byte x : b1) out << int(x);
  out << (b2.begin() != b2.end()) << b3.length() << b4.size() << b6.first << b6.second;
  use(cols, rows, b5);
}

// ---- devapi/error.h: Warning ----

void error_h(std::ostream& out, Result& res) {
  Warning w = res.getWarning(0);
  Warning::Level level = w.getLevel();
  switch (level) {
  case Warning::LEVEL_ERROR:
  case Warning::LEVEL_WARNING:
  case Warning::LEVEL_INFO:
    break;
  }
  std::uint16_t code = w.getCode();
  const string& msg = w.getMessage();
  out << w << code << msg;
}

// ---- devapi/document.h: Field, DbDoc, Value, nullvalue, expr ----

void document_h_dbdoc(std::ostream& out) {
  Field f = "name";
  DbDoc d0;
  DbDoc d1(std::string(R"({"a": 1})"));
  DbDoc d2{std::string(R"({"a": [1, 2]})")};
  bool null = d0.isNull();
  if (d1) out << "set";
  bool has = d1.hasField(f);
  int type = d1.fieldType("a");
  const Value& v1 = d1[f];
  const Value& v2 = d1["a"];
  const Value& v3 = d1[string("a")];
  d1.print(out);
  out << d1;
  for (DbDoc::Iterator it = d1.begin(); it != d1.end(); ++it) out << *it;
  for (Field name : d2) out << name;
  DbDoc copy = d1;
  copy = d2;
  use(null, has, type, v1, v2, v3);
}

void document_h_value_make() {
  Value v0;
  Value v1(nullptr);
  Value v2(string("s"));
  Value v3(std::string("s"));
  Value v4("s");
  Value v5(std::u16string(u"s"));
  Value v6(std::wstring(L"s"));
  Value v7(u"s");
  Value v8(L"s");
  Value v9(U"s");
  const byte raw[] = {1};
  Value v10(bytes(raw, 1));
  Value v11(std::int64_t(-1));
  Value v12(std::uint64_t(1));
  Value v13(1.5f);
  Value v14(1.5);
  Value v15(true);
  Value v16(DbDoc("{}"));
  Value v17{1, "two", 3.0};
  std::vector<int> ints{1, 2};
  Value v18(ints.begin(), ints.end());
  Value v19(short(1));
  Value v20(static_cast<unsigned char>(1));
  Value v21(1L);
  Value v22(1UL);
  Value v23(v1);
  Value v24(std::move(v23));
  v0 = v1;
  v0 = std::move(v2);
  v0 = 7;
  v0 = "text";
  v0 = 2.5;
  v0 = DbDoc("{}");
  Value::Type t = v0.getType();
  switch (t) {
  case Value::VNULL:
  case Value::UINT64:
  case Value::INT64:
  case Value::FLOAT:
  case Value::DOUBLE:
  case Value::BOOL:
  case Value::STRING:
  case Value::DOCUMENT:
  case Value::RAW:
  case Value::ARRAY:
    break;
  }
  use(v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22,
      v24, nullvalue);
}

void document_h_value_read(std::ostream& out, Value& v, const Value& cv) {
  int i = v;
  unsigned u = v;
  std::int64_t i64 = v;
  std::uint64_t u64 = v;
  float f = v;
  double d = v;
  bool b = bool(v);
  string s = v;
  std::string ss = std::string(v);
  std::u16string s16 = std::u16string(v);
  std::wstring sw = std::wstring(v);
  bytes raw = bytes(v);
  DbDoc doc = v;
  use(i, u, i64, u64, f, d, b, s, ss, s16, sw, raw, doc);
  use(v.get<int>(), v.get<unsigned>(), v.get<std::int64_t>(), v.get<std::uint64_t>(),
      v.get<float>(), v.get<double>(), v.get<bool>(), v.get<std::string>(), v.get<string>(),
      v.get<std::wstring>(), v.get<bytes>(), v.get<DbDoc>());
  bytes rb = cv.getRawBytes();
  bool null = cv.isNull();
  bool has = cv.hasField("a");
  const Value& f1 = cv["a"];
  const Value& f2 = cv[Field("a")];
  const Value& f3 = cv[string("a")];
  const Value& e1 = cv[0];
  const Value& e2 = cv[0U];
  size_t n = cv.elementCount();
  for (Value::const_iterator it = cv.begin(); it != cv.end(); ++it) out << *it;
  for (Value::iterator it = v.begin(); it != v.end(); ++it) out << *it;
  for (const Value& el : v) out << el;
  for (auto el : cv) out << el;
  cv.print(out);
  out << cv;
  using S = Value::string;
  S named = v;
  use(rb, null, has, f1, f2, f3, e1, e2, n, named);
}

void document_h_expr(Collection& coll) {
  std::string text = "n + 1";
  coll.modify("true").set("n", expr(text)).set("m", expr(std::string("m * 2"))).execute();
  coll.find().fields(expr("{'a': a}")).execute();
}

// ---- devapi/row.h: Row ----

void row_h(std::ostream& out) {
  Row r0;
  Row r1(1, "two", 3.0);
  Row r2(Value(1));
  col_count_t n = r1.colCount();
  bytes b = r1.getBytes(1);
  Value& v = r1.get(0);
  Value& set = r1.set(2, Value("x"));
  const Row& cr = r1;
  const Value& cv = cr[0];
  Value& grown = r0[3];
  r0[0] = 7;
  bool null = r0.isNull();
  if (r1) out << "has values";
  if (r0 == 0 || 0 != r1) out << "compares with 0";
  r0.clear();
  Row copy = r1;
  copy = r2;
  use(n, b, v, set, cv, grown, null);
}

// ---- devapi/result.h: Result, Type, Column, Columns, RowResult, SqlResult, DocResult ----

void result_h_result(std::ostream& out, Result& res) {
  Result empty;
  Result moved = std::move(res);
  empty = std::move(moved);
  unsigned count = empty.getWarningsCount();
  for (Warning w : empty.getWarnings()) out << w;
  std::vector<Warning> wv = empty.getWarnings();
  std::list<Warning> wl = empty.getWarnings();
  Warning w0 = empty.getWarning(0);
  std::uint64_t affected = empty.getAffectedItemsCount();
  std::uint64_t auto_inc = empty.getAutoIncrementValue();
  for (std::string id : empty.getGeneratedIds()) out << id;
  std::vector<std::string> ids = empty.getGeneratedIds();
  std::list<std::string> idl = empty.getGeneratedIds();
  std::set<std::string> ids_set = empty.getGeneratedIds();
  use(count, wv, wl, w0, affected, auto_inc, ids, idl, ids_set);
}

void result_h_type(std::ostream& out, Type t) {
  switch (t) {
  case Type::BIT:
  case Type::TINYINT:
  case Type::SMALLINT:
  case Type::MEDIUMINT:
  case Type::INT:
  case Type::BIGINT:
  case Type::FLOAT:
  case Type::DECIMAL:
  case Type::DOUBLE:
  case Type::JSON:
  case Type::STRING:
  case Type::BYTES:
  case Type::TIME:
  case Type::DATE:
  case Type::DATETIME:
  case Type::TIMESTAMP:
  case Type::SET:
  case Type::ENUM:
  case Type::GEOMETRY:
    break;
  }
  const char* name = typeName(t);
  out << t << name;
}

void result_h_columns(std::ostream& out, RowResult& res) {
  const Column& c = res.getColumn(0);
  string schema = c.getSchemaName();
  string table = c.getTableName();
  string table_label = c.getTableLabel();
  string column = c.getColumnName();
  string label = c.getColumnLabel();
  Type type = c.getType();
  unsigned long length = c.getLength();
  unsigned short digits = c.getFractionalDigits();
  bool is_signed = c.isNumberSigned();
  CharacterSet cs = c.getCharacterSet();
  std::string cs_name = c.getCharacterSetName();
  const CollationInfo& coll = c.getCollation();
  std::string coll_name = c.getCollationName();
  bool padded = c.isPadded();
  out << c;
  const Columns& cols = res.getColumns();
  const RowResult::Columns& same = res.getColumns();
  for (const Column& col : cols) out << col.getColumnLabel();
  const Column& first = cols[0];
  col_count_t n = res.getColumnCount();
  use(schema, table, table_label, column, label, type, length, digits, is_signed, cs, cs_name, coll,
      coll_name, padded, same, first, n);
}

void result_h_rows(std::ostream& out, RowResult& res, SqlResult& sql, DocResult& docs) {
  RowResult empty;
  Row row = res.fetchOne();
  std::vector<Row> rv = res.fetchAll();
  std::list<Row> rl = res.fetchAll();
  row_count_t left = res.count();
  for (RowResult::iterator it = res.begin(); it != res.end(); ++it) out << (*it)[0];
  for (Row r : res) out << r.colCount();
  bool data = sql.hasData();
  bool next = sql.nextResult();
  std::uint64_t auto_inc = sql.getAutoIncrementValue();
  std::uint64_t affected = sql.getAffectedItemsCount();
  SqlResult sql_empty;
  RowResult as_rows = std::move(sql);
  DocResult doc_empty;
  DbDoc doc = docs.fetchOne();
  std::vector<DbDoc> dv = docs.fetchAll();
  std::list<DbDoc> dl = docs.fetchAll();
  std::uint64_t n = docs.count();
  for (DocResult::iterator it = docs.begin(); it != docs.end(); ++it) out << *it;
  for (DbDoc d : docs) out << d;
  use(empty, row, rv, rl, left, data, next, auto_inc, affected, sql_empty, as_rows, doc_empty, doc,
      dv, dl, n);
}

// ---- devapi/collations.h: CharacterSet, characterSetName, CollationInfo, Collation<> ----

void collations_h(std::ostream& out) {
  CharacterSet cs = CharacterSet::utf8mb4;
  out << characterSetName(cs) << characterSetName(CharacterSet::latin1)
      << characterSetName(CharacterSet::binary);
  const CollationInfo& ci = Collation<CharacterSet::utf8mb4>::uca0900_ai_ci;
  const CollationInfo& bin = Collation<CharacterSet::utf8mb4>::bin;
  const CollationInfo& dflt = Collation<CharacterSet::utf8mb4>::utf8mb4;
  const CollationInfo& latin = Collation<CharacterSet::latin1>::swedish_ci;
  unsigned id = ci.id();
  const char* name = ci.getName();
  CharacterSet of = ci.getCharacterSet();
  bool cased = ci.isCaseSensitive();
  bool binary = bin.isBinary();
  bool same = ci == dflt || ci != latin;
  use(id, name, of, cased, binary, same);
#define SHAPES_CS_NAME(CS) out << #CS;
  CDK_CS_LIST(SHAPES_CS_NAME)
#undef SHAPES_CS_NAME
#define SHAPES_COLL(CS, ID, COLL, CASE)                                                            \
  out << Collation<CharacterSet::CS>::COLL_CONST_NAME(COLL, CASE).getName();
  COLLATIONS_latin1(SHAPES_COLL)
#undef SHAPES_COLL
}

// ---- devapi/crud.h and executable.h: LockContention, copies of statements, execute() ----

void crud_h(Collection& coll, Table& tbl) {
  LockContention modes[] = {LockContention::DEFAULT, LockContention::NOWAIT,
                            LockContention::SKIP_LOCKED};
  CollectionFind f = coll.find();
  f.lockShared().lockShared(modes[1]).lockExclusive().lockExclusive(modes[2]);
  TableSelect s = tbl.select();
  s.lockShared().lockShared(modes[1]).lockExclusive().lockExclusive(modes[2]);
  CollectionFind copy(f);
  CollectionFind moved(std::move(copy));
  copy = f;
  copy = std::move(moved);
  DocResult r = copy.execute();
  use(r);
}

// ---- devapi/collection_crud.h: CollectionAdd, CollectionRemove, CollectionFind, CollectionModify
// ----

void collection_crud_h_add(Collection& coll) {
  DbDoc doc(std::string("{}"));
  std::string json = "{}";
  std::vector<DbDoc> docs{doc};
  std::list<std::string> texts{json};
  std::array<DbDoc, 1> fixed{doc};
  CollectionAdd add(coll);
  add.add(doc).add(json).add("{}", doc, json).add(docs).add(texts).add(fixed);
  add.add(docs.begin(), docs.end()).add(texts.cbegin(), texts.cend());
  add.add(u"{}").add(string(u"{}"));
  CollectionAdd copy = add;
  copy = coll.add(doc);
  Result r = add.execute();
  use(r);
}

void collection_crud_h_remove(Collection& coll) {
  std::map<std::string, Value> args{{"a", 1}};
  std::vector<std::string> order{"a", "b DESC"};
  CollectionRemove rm(coll, "a = :a");
  rm.sort("a").sort("a", "b DESC").sort(order).sort(order.begin(), order.end());
  rm.limit(1).bind("a", 1).bind(args);
  rm.bind(string("a"), Value(2));
  CollectionRemove copy = coll.remove("true");
  copy = rm;
  Result r = rm.execute();
  use(r);
}

void collection_crud_h_find(Collection& coll) {
  std::map<std::string, Value> args{{"a", 1}};
  std::vector<std::string> fields{"a", "b"};
  CollectionFind all(coll);
  CollectionFind some(coll, "a > :a");
  some.fields("a").fields("a", "b").fields(fields).fields(fields.begin(), fields.end());
  some.fields(expr("{'x': a}"));
  some.groupBy("a").groupBy("a", "b").groupBy(fields).groupBy(fields.begin(), fields.end());
  some.having("count(*) > 1");
  some.sort("a").sort("a", "b").sort(fields).sort(fields.begin(), fields.end());
  some.limit(10).offset(5).bind("a", 1).bind(args);
  CollectionFind copy = some;
  copy = all;
  DocResult r = some.execute();
  use(r);
}

void collection_crud_h_modify(Collection& coll) {
  std::map<std::string, Value> args{{"a", 1}};
  CollectionModify mod(coll, "a = :a");
  mod.set("a", 1).set(Field("b"), Value("x")).set("c", expr("a + 1")).set("d", DbDoc("{}"));
  mod.unset("a").unset(Field("b"));
  mod.arrayInsert("t[0]", 1).arrayAppend("t", "x").patch(R"({"a": null})");
  mod.sort("a").sort("a", "b").limit(1).bind("a", 1).bind(args);
  CollectionModify copy = coll.modify("true");
  copy = mod;
  Result r = mod.execute();
  use(r);
}

// ---- devapi/table_crud.h: TableInsert, TableSelect, TableUpdate, TableRemove ----

void table_crud_h_insert(Table& tbl) {
  Row row(1, "a");
  std::vector<Row> rows{row, row};
  std::list<Row> row_list{row};
  TableInsert ins(tbl);
  ins.values(1, "a").values(row).values(Value(1), Value("a"));
  ins.rows(rows).rows(row_list).rows(rows.begin(), rows.end()).rows(row).rows(row, row);
  TableInsert cols = tbl.insert("id", "name");
  TableInsert listed = tbl.insert(std::vector<std::string>{"id", "name"});
  cols = ins;
  Result r = ins.execute();
  use(listed, r);
}

void table_crud_h_select(Table& tbl) {
  std::map<std::string, Value> args{{"a", 1}};
  std::vector<std::string> proj{"a", "b"};
  TableSelect all(tbl);
  TableSelect some(tbl, "a", "b AS c");
  TableSelect listed = tbl.select(proj);
  some.where("a > :a").groupBy("a").groupBy(proj).having("count(*) > 0");
  some.orderBy("a").orderBy("a", "b DESC").orderBy(proj).orderBy(proj.begin(), proj.end());
  some.limit(1).offset(2).bind("a", 1).bind(args);
  TableSelect copy = some;
  copy = all;
  RowResult r = some.execute();
  use(listed, r);
}

void table_crud_h_update_remove(Table& tbl) {
  std::map<std::string, Value> args{{"a", 1}};
  TableUpdate upd(tbl, "a = :a");
  upd.set("a", 1).set("b", expr("b + 1")).where("a = :a").orderBy("a").orderBy("a", "b");
  upd.limit(1).bind("a", 1).bind(args);
  TableUpdate upd2 = tbl.update();
  upd2 = upd;
  Result r1 = upd.execute();
  TableRemove rm(tbl, "a = :a");
  rm.where("a = :a").orderBy("a").orderBy("a", "b").limit(1).bind("a", 1).bind(args);
  TableRemove rm2 = tbl.remove();
  rm2 = rm;
  Result r2 = rm.execute();
  use(r1, r2);
}

// ---- devapi/settings.h: SessionOption, ClientOption, modes, SessionSettings, ClientSettings ----

void settings_h_options(std::ostream& out) {
  SessionOption::Enum all[] = {SessionOption::URI,
                               SessionOption::HOST,
                               SessionOption::PORT,
                               SessionOption::PRIORITY,
                               SessionOption::USER,
                               SessionOption::PWD,
                               SessionOption::DB,
                               SessionOption::SSL_MODE,
                               SessionOption::SSL_CA,
                               SessionOption::AUTH,
                               SessionOption::SOCKET,
                               SessionOption::CONNECT_TIMEOUT,
                               SessionOption::CONNECTION_ATTRIBUTES,
                               SessionOption::TLS_VERSIONS,
                               SessionOption::TLS_CIPHERSUITES,
                               SessionOption::DNS_SRV,
                               SessionOption::COMPRESSION,
                               SessionOption::COMPRESSION_ALGORITHMS,
                               SessionOption::SSL_CAPATH,
                               SessionOption::SSL_CRL,
                               SessionOption::SSL_CRLPATH,
                               SessionOption::LAST};
  SessionOption so(all[0]);
  SessionOption so_default;
  bool eq = so == SessionOption::HOST || so != SessionOption::PORT || so == so_default;
  int so_num = so;
  ClientOption::Enum client[] = {ClientOption::POOLING, ClientOption::POOL_MAX_SIZE,
                                 ClientOption::POOL_QUEUE_TIMEOUT,
                                 ClientOption::POOL_MAX_IDLE_TIME};
  ClientOption co(client[0]);
  ClientOption co_default;
  ClientOption from_session(so);
  ClientOption from_enum(SessionOption::HOST);
  ClientOption::SessionEnum session_enum = SessionOption::USER;
  eq = eq || co == ClientOption::POOLING || co == SessionOption::HOST ||
       co != ClientOption::POOL_MAX_SIZE || co != SessionOption::PORT;
  int co_num = co;
  out << OptionName(co) << ClientOptionName(co) << SessionOptionName(so)
      << ClientOptionName(from_session) << OptionName(from_enum);
  SSLMode ssl[] = {SSLMode::DISABLED, SSLMode::REQUIRED, SSLMode::VERIFY_CA,
                   SSLMode::VERIFY_IDENTITY};
  AuthMethod auth[] = {AuthMethod::PLAIN, AuthMethod::MYSQL41, AuthMethod::EXTERNAL,
                       AuthMethod::SHA256_MEMORY};
  CompressionMode comp[] = {CompressionMode::DISABLED, CompressionMode::PREFERRED,
                            CompressionMode::REQUIRED};
  std::string names = SSLModeName(ssl[0]) + AuthMethodName(auth[0]) + CompressionModeName(comp[0]);
  use(eq, so_num, co_default, session_enum, co_num, names);
}

void settings_h_session(std::ostream& out) {
  std::string pwd = "secret";
  SessionSettings uri("mysqlx://root@localhost");
  SessionSettings uri16(string(u"mysqlx://root@localhost"));
  SessionSettings hp("localhost", 33060, "root");
  SessionSettings hpp("localhost", 33060, "root", "pwd");
  SessionSettings hppd("localhost", 33060, "root", "pwd", "db");
  SessionSettings hps("localhost", 33060, "root", pwd, "db");
  SessionSettings hpn("localhost", 33060, "root", NULL, "db");
  SessionSettings h("localhost", "root");
  SessionSettings hu("localhost", "root", "pwd", "db");
  SessionSettings hus("localhost", "root", pwd);
  SessionSettings hun("localhost", "root", NULL);
  SessionSettings p(33060, "root");
  SessionSettings pu(33060, "root", "pwd", "db");
  SessionSettings pus(33060, "root", pwd);
  SessionSettings pun(33060, "root", NULL, "db");
  SessionSettings opts(SessionOption::HOST, "localhost", SessionOption::PORT, 33060,
                       SessionOption::SSL_MODE, SSLMode::DISABLED, SessionOption::AUTH,
                       AuthMethod::PLAIN, SessionOption::COMPRESSION, CompressionMode::REQUIRED);
  SessionOption which = SessionOption::USER;
  opts.set(SessionOption::USER, "root", SessionOption::PWD, "x");
  opts.set(which, "root");
  Value found = opts.find(SessionOption::USER);
  Value found2 = opts.find(which);
  bool has = opts.has_option(SessionOption::DB) || opts.has_option(which);
  opts.erase(SessionOption::DB);
  opts.erase(which);
  for (SessionSettings::iterator it = opts.begin(); it != opts.end(); ++it)
    out << SessionOptionName(it->first) << it->second;
  for (auto& opt_val : opts) out << SessionOptionName(opt_val.first) << opt_val.second;
  for (std::pair<SessionOption, Value> opt_val : opts) {
    SessionOption o = opt_val.first;
    out << int(o);
  }
  opts.clear();
  use(uri16, hp, hpp, hppd, hps, hpn, h, hu, hus, hun, p, pu, pus, pun, found, found2, has);
}

void settings_h_client(std::ostream& out, SessionSettings& session) {
  ClientSettings uri("mysqlx://root@localhost");
  ClientSettings json("mysqlx://root@localhost", R"({"pooling": {"enabled": true}})");
  ClientSettings doc("mysqlx://root@localhost", DbDoc(R"({"pooling": {"maxSize": 3}})"));
  ClientSettings nested("mysqlx://root@localhost", json);
  ClientSettings pairs("mysqlx://root@localhost", ClientOption::POOL_MAX_SIZE, 3);
  ClientSettings opts(ClientOption::POOLING, true, SessionOption::HOST, "localhost",
                      ClientOption::POOL_MAX_IDLE_TIME, 100);
  ClientSettings from_session(session);
  opts.set(ClientOption::POOL_MAX_SIZE, 5, SessionOption::USER, "root");
  opts.set(SessionOption::PORT, 33060);
  ClientOption which = ClientOption::POOL_MAX_SIZE;
  Value v1 = opts.find(ClientOption::POOL_MAX_SIZE);
  Value v2 = opts.find(which);
  Value v3 = opts.find(SessionOption::USER);
  bool has = opts.has_option(ClientOption::POOLING) || opts.has_option(SessionOption::HOST);
  opts.erase(ClientOption::POOLING);
  opts.erase(which);
  opts.erase(SessionOption::HOST);
  for (ClientSettings::iterator it = opts.begin(); it != opts.end(); ++it)
    out << ClientOptionName(it->first) << it->second;
  for (auto& opt_val : opts) {
    switch (opt_val.first) {
    case ClientOption::POOLING:
    case SessionOption::HOST:
      break;
    default:
      out << OptionName(opt_val.first);
    }
  }
  opts.clear();
  use(uri, doc, pairs, from_session, v1, v2, v3, has);
}

// ---- xdevapi.h: CollectionValidation, CollectionOptions ----

void xdevapi_h_collection_options() {
  CollectionValidation::Level levels[] = {CollectionValidation::OFF, CollectionValidation::STRICT};
  CollectionValidation::Option vopts[] = {CollectionValidation::SCHEMA, CollectionValidation::LEVEL,
                                          CollectionValidation::LAST};
  CollectionValidation v0;
  CollectionValidation v1(R"({"level": "strict"})");
  CollectionValidation v2(DbDoc(R"({"schema": {}})"));
  CollectionValidation v3(CollectionValidation::LEVEL, levels[0], CollectionValidation::SCHEMA,
                          "{}");
  CollectionValidation v4(CollectionValidation::LEVEL, std::string("off"));
  v0.set(CollectionValidation::SCHEMA, DbDoc("{}"));
  v0.set(CollectionValidation::SCHEMA, std::string("{}"), CollectionValidation::LEVEL, levels[1]);
  CollectionOptions::Option copts[] = {CollectionOptions::REUSE, CollectionOptions::VALIDATION,
                                       CollectionOptions::LAST};
  CollectionOptions o0;
  CollectionOptions o1(R"({"reuseExisting": true})");
  CollectionOptions o2(std::string(R"({"reuseExisting": true})"));
  CollectionOptions o3(DbDoc(R"({"reuseExisting": true})"));
  CollectionOptions o4(v1);
  CollectionOptions o5(CollectionOptions::REUSE, true, CollectionOptions::VALIDATION, v3);
  CollectionOptions o6(CollectionValidation::LEVEL, levels[1], CollectionOptions::REUSE, false);
  o0.set(CollectionOptions::REUSE, true, CollectionValidation::SCHEMA, "{}");
  use(vopts, v2, v4, copts, o2, o3, o4, o5, o6);
}

// ---- xdevapi.h: Schema ----

void xdevapi_h_schema(std::ostream& out, Session& sess) {
  Schema named(sess, "test");
  Schema dflt(sess);
  const Schema& cs = named;
  const string& name = cs.getName();
  Session& s1 = named.getSession();
  const Session& s2 = cs.getSession();
  bool exists = cs.existsInDatabase();
  Collection c1 = named.createCollection("c");
  Collection c2 = named.createCollection("c", true);
  Collection c3 = named.createCollection("c", CollectionOptions::REUSE, true);
  Collection c4 = named.createCollection("c", R"({"reuseExisting": true})");
  Collection c5 = named.createCollection("c", CollectionOptions(CollectionOptions::REUSE, true));
  Collection c6 = named.createCollection(
      "c", CollectionValidation(CollectionValidation::LEVEL, CollectionValidation::OFF));
  Collection c7 = named.createCollection("c", std::string(R"({"reuseExisting": true})"));
  named.modifyCollection("c", CollectionValidation::LEVEL, CollectionValidation::OFF);
  named.modifyCollection("c", R"({"validation": {"level": "off"}})");
  named.modifyCollection("c", CollectionOptions(CollectionValidation::LEVEL, "off"));
  Collection g1 = named.getCollection("c");
  Collection g2 = named.getCollection("c", true);
  Table t1 = named.getTable("t");
  Table t2 = named.getTable("t", true);
  for (Collection c : named.getCollections()) out << c.getName();
  std::vector<Collection> cv = named.getCollections();
  std::list<Collection> cl = named.getCollections();
  for (string n : named.getCollectionNames()) out << n;
  std::vector<string> names = named.getCollectionNames();
  std::list<std::string> name_list = named.getCollectionNames();
  for (Table t : named.getTables()) out << t.getName();
  std::vector<Table> tv = named.getTables();
  for (string n : named.getTableNames()) out << n;
  std::list<string> tnames = named.getTableNames();
  Table as_table = named.getCollectionAsTable("c");
  Table as_table2 = named.getCollectionAsTable("c", false);
  named.dropCollection("c");
  named.dropCollection(string(u"c"));
  Schema copy = named;
  copy = dflt;
  use(name, s1, s2, exists, c1, c2, c3, c4, c5, c6, c7, g1, g2, t1, t2, cv, cl, names, name_list,
      tv, tnames, as_table, as_table2);
}

// ---- xdevapi.h: Collection ----

void xdevapi_h_collection(std::ostream& out, Schema& sch) {
  Collection coll(sch, "c");
  const Collection& cc = coll;
  const string& name = cc.getName();
  Session& sess = coll.getSession();
  const Schema& owner = cc.getSchema();
  bool exists = cc.existsInDatabase();
  std::uint64_t n = coll.count();
  CollectionFind f1 = coll.find();
  CollectionFind f2 = coll.find("a > 1");
  CollectionAdd a0 = coll.add();
  CollectionAdd a1 = coll.add("{}", DbDoc("{}"));
  CollectionRemove rm = coll.remove("true");
  CollectionModify mod = coll.modify("true");
  DbDoc one = coll.getOne("id");
  Result r1 = coll.removeOne("id");
  Result r2 = coll.replaceOne("id", DbDoc("{}"));
  Result r3 = coll.replaceOne("id", R"({"a": 1})");
  Result r4 = coll.addOrReplaceOne("id", DbDoc("{}"));
  Result r5 = coll.addOrReplaceOne("id", expr(R"({"a": 1})"));
  coll.createIndex("idx", R"({"fields": [{"field": "$.a", "type": "INT"}]})");
  coll.dropIndex("idx");
  Collection copy = coll;
  copy = sch.getCollection("d");
  out << name;
  use(sess, owner, exists, n, f1, f2, a0, a1, rm, mod, one, r1, r2, r3, r4, r5);
}

// ---- xdevapi.h: Table ----

void xdevapi_h_table(std::ostream& out, Schema& sch) {
  Table tbl(sch, "t");
  Table view(sch, "v", true);
  const Table& ct = tbl;
  const string& name = ct.getName();
  Session& sess = tbl.getSession();
  const Schema& owner = ct.getSchema();
  bool exists = ct.existsInDatabase();
  bool is_view = view.isView();
  std::uint64_t n = tbl.count();
  TableInsert i0 = tbl.insert();
  TableInsert i1 = tbl.insert("a", "b");
  TableSelect s0 = tbl.select();
  TableSelect s1 = tbl.select("a", "b");
  TableRemove rm = tbl.remove();
  TableUpdate upd = tbl.update();
  Table copy = tbl;
  copy = sch.getTable("u");
  out << name;
  use(sess, owner, exists, is_view, n, i0, i1, s0, s1, rm, upd);
}

// ---- xdevapi.h: SqlStatement, Session ----

void xdevapi_h_session(std::ostream& out, Client& client) {
  SessionSettings settings("mysqlx://root@localhost");
  Session from_settings(settings);
  Session from_uri("mysqlx://root@localhost");
  Session from_parts("localhost", 33060, "root", "pwd", "db");
  Session from_options(SessionOption::HOST, "localhost", SessionOption::USER, "root");
  Session from_client(client);
  Session converted = client;
  Session moved(std::move(from_uri));
  Schema created = from_settings.createSchema("s");
  Schema reused = from_settings.createSchema("s", true);
  Schema got = from_settings.getSchema("s");
  Schema checked = from_settings.getSchema("s", true);
  Schema dflt = from_settings.getDefaultSchema();
  string dflt_name = from_settings.getDefaultSchemaName();
  for (Schema s : from_settings.getSchemas()) out << s.getName();
  std::vector<Schema> schemas = from_settings.getSchemas();
  std::list<Schema> schema_list = from_settings.getSchemas();
  from_settings.dropSchema("s");
  std::vector<int> params{1, 2};
  SqlStatement stmt = from_settings.sql("SELECT ?, ?, ?");
  stmt.bind(1).bind(2, "x").bind(params).bind(params.begin(), params.end());
  SqlStatement copy = stmt;
  copy = from_settings.sql("SELECT 1");
  SqlResult res = stmt.execute();
  from_settings.startTransaction();
  string sp1 = from_settings.setSavepoint();
  string sp2 = from_settings.setSavepoint("named");
  from_settings.rollbackTo(sp1);
  from_settings.releaseSavepoint(sp2);
  from_settings.commit();
  from_settings.rollback();
  from_settings.close();
  use(from_parts, from_options, from_client, converted, moved, created, reused, got, checked, dflt,
      dflt_name, schemas, schema_list, res);
}

// ---- xdevapi.h: Client, getSession(), getClient() ----

void xdevapi_h_client(SessionSettings& settings) {
  ClientSettings client_settings("mysqlx://root@localhost");
  Client c1(client_settings);
  Client c2(settings);
  Client c3("mysqlx://root@localhost");
  Client c4("mysqlx://root@localhost", R"({"pooling": {"maxSize": 2}})");
  Client c5("mysqlx://root@localhost", ClientOption::POOL_MAX_SIZE, 2);
  Client c6(SessionOption::HOST, "localhost", ClientOption::POOLING, false);
  Session s1 = c1.getSession();
  c1.close();
  Session s2 = getSession("mysqlx://root@localhost");
  Session s3 = getSession("localhost", 33060, "root", "pwd");
  Session s4 = getSession(settings);
  Session s5 = getSession(SessionOption::HOST, "localhost", SessionOption::PORT, 33060);
  Client g1 = getClient("mysqlx://root@localhost");
  Client g2 = getClient("mysqlx://root@localhost", R"({"pooling": {"enabled": false}})");
  Client g3 = getClient("mysqlx://root@localhost", ClientOption::POOL_MAX_SIZE, 2);
  Client g4 = getClient(client_settings);
  Client g5 = getClient(settings);
  use(c3, c4, c5, c6, s1, s2, s3, s4, s5, g1, g2, g3, g4, g5);
}

// ---- Strings as mysqlx::string (UTF-16 and wide text), where official parameters are `const
// string&` ----

void utf16_arguments(Session& sess, Schema& sch, Collection& coll, Table& tbl) {
  Schema s = sess.getSchema(u"test");
  sess.createSchema(L"test", true);
  sess.dropSchema(u"test");
  sess.sql(u"SELECT 1").execute();
  Collection c = sch.getCollection(u"c");
  Table t = sch.getTable(L"t");
  sch.createCollection(u"c", true);
  coll.find(u"a = 1").execute();
  coll.modify(u"true").set(u"a", 1).execute();
  coll.remove(L"true").execute();
  coll.getOne(u"id");
  coll.find().fields(u"a", L"b").sort(u"a DESC").groupBy(L"a").having(u"true").execute();
  coll.modify(u"true").unset(u"a").arrayAppend(L"t", 1).patch(u"{}").bind(u"x", 1).execute();
  std::map<std::u16string, Value> args{{u"x", 1}};
  coll.remove(u"a = :x").sort(L"a").bind(args).execute();
  tbl.insert(u"a", L"b").values(u"x", L"y").execute();
  tbl.select(u"a").where(u"a > 1").orderBy(u"a").groupBy(L"a").having(u"true").execute();
  tbl.update().set(u"a", 1).where(u"true").execute();
  tbl.remove().where(L"true").execute();
  use(s, c, t);
}

// ---- version_info.h (included by the official common_constants.h) ----

static_assert(MYSQL_CONCPP_VERSION_MAJOR == 8 && MYSQL_CONCPP_VERSION_MINOR >= 0 &&
                  MYSQL_CONCPP_VERSION_MICRO >= 0 && MYSQL_CONCPP_VERSION_NUMBER >= 8000000,
              "Connector/C++ 8 version macros");

} // namespace

// Referenced so that -Wunused-function keeps quiet; never called.
void official_api_shapes_referenced() {
  use(&common_h, &error_h, &document_h_dbdoc, &document_h_value_make, &document_h_value_read,
      &document_h_expr, &row_h, &result_h_result, &result_h_type, &result_h_columns, &result_h_rows,
      &collations_h, &crud_h, &collection_crud_h_add, &collection_crud_h_remove,
      &collection_crud_h_find, &collection_crud_h_modify, &table_crud_h_insert,
      &table_crud_h_select, &table_crud_h_update_remove, &settings_h_options, &settings_h_session,
      &settings_h_client, &xdevapi_h_collection_options, &xdevapi_h_schema, &xdevapi_h_collection,
      &xdevapi_h_table, &xdevapi_h_session, &xdevapi_h_client, &utf16_arguments);
}

// NOLINTEND(performance-for-range-copy,performance-unnecessary-value-param)
