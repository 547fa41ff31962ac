// The plain data of results (Row, Column, Warning, type names), the list and
// argument helpers of the headers, and describeDocId().
#include "devapi/access.h"
#include "devapi/result_data.h"

#include <deque>
#include <gtest/gtest.h>
#include <list>
#include <mysqlx/detail/args.h>
#include <mysqlx/docid.h>
#include <mysqlx/error.h>
#include <mysqlx/result.h>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace mysqlx;

TEST(Row, ValuesAndAccess) {
  Row r(1, "two", 3.5, nullptr);
  EXPECT_EQ(r.colCount(), 4u);
  EXPECT_EQ(static_cast<int>(r[0]), 1);
  EXPECT_EQ(r.get(1).get<std::string>(), "two");
  EXPECT_TRUE(r[3].isNull());
  EXPECT_FALSE(r.isNull());
  r.set(5, "five");
  EXPECT_EQ(r.colCount(), 6u);
  EXPECT_TRUE(r[4].isNull());
  EXPECT_EQ(r.getBytes(5).size(), 4u);
  Row copy(r); // the copy constructor, not the value constructor
  EXPECT_EQ(copy.colCount(), 6u);
  EXPECT_THROW((void)r.get(6), Error);
  EXPECT_THROW((void)static_cast<const Row&>(r)[6], Error);
  EXPECT_THROW(r.set(1u << 20, 1), Error);
  r.clear();
  EXPECT_TRUE(r.isNull());
  EXPECT_FALSE(static_cast<bool>(Row()));
}

// As Connector/C++ 8 code writes it: `row == 0` for the end of a result.
TEST(Row, ComparesWithNullAndPrints) {
  Row null_row;
  EXPECT_TRUE(null_row == 0);
  EXPECT_TRUE(nullptr == null_row);
  EXPECT_FALSE(null_row != nullptr);
  Row r(1, "two", nullptr);
  EXPECT_TRUE(r != 0);
  EXPECT_FALSE(0 == r);
  std::ostringstream out;
  out << r << ' ' << null_row;
  EXPECT_EQ(out.str(), "[1, two, null] []");
}

// As Connector/C++ 8 code fills a row to insert: operator[] grows it.
TEST(Row, IndexingGrowsTheRow) {
  Row r;
  r[0] = 1;
  r[2] = "three";
  EXPECT_EQ(r.colCount(), 3u);
  EXPECT_TRUE(r[1].isNull());
  EXPECT_EQ(r[2].get<std::string>(), "three");
  EXPECT_THROW(r[1u << 20] = 1, Error); // bounded, as set()
}

TEST(Row, OutOfRangeMessage) {
  Row r(1);
  try {
    (void)r.get(3);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "Row: column 3 is out of range for a row of 1 columns");
  }
}

TEST(Column, CarriesItsMetadata) {
  auto data = std::make_unique<detail::column_data>();
  data->schema = "shop";
  data->table = "items";
  data->name = "price";
  data->label = "p";
  data->type = Type::DECIMAL;
  data->length = 10;
  data->fractional_digits = 2;
  data->is_signed = true;
  Column c = detail::access::make_column(std::move(data));
  Column copy = c; // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  EXPECT_EQ(copy.getSchemaName(), "shop");
  EXPECT_EQ(copy.getTableName(), "items");
  EXPECT_EQ(copy.getColumnName(), "price");
  EXPECT_EQ(copy.getColumnLabel(), "p");
  EXPECT_EQ(copy.getType(), Type::DECIMAL);
  EXPECT_EQ(copy.getLength(), 10ul);
  EXPECT_EQ(copy.getFractionalDigits(), 2);
  EXPECT_TRUE(copy.isNumberSigned());
  std::ostringstream out;
  out << c << ' ' << c.getType();
  EXPECT_EQ(out.str(), "p DECIMAL");
}

TEST(TypeName, EveryTypeHasAName) {
  EXPECT_STREQ(typeName(Type::BIT), "BIT");
  EXPECT_STREQ(typeName(Type::JSON), "JSON");
  EXPECT_STREQ(typeName(Type::GEOMETRY), "GEOMETRY");
  EXPECT_STREQ(typeName(static_cast<Type>(99)), "UNKNOWN");
  std::set<std::string> names;
  for (unsigned t = 1; t <= 19; ++t) names.insert(typeName(static_cast<Type>(t)));
  EXPECT_EQ(names.size(), 19u);
}

TEST(Warning, Printing) {
  Warning w(Warning::LEVEL_WARNING, 1265, "Data truncated for column 'a' at row 1");
  std::ostringstream out;
  out << w;
  EXPECT_EQ(out.str(), "Warning 1265: Data truncated for column 'a' at row 1");
  EXPECT_EQ(w.getCode(), 1265);
  EXPECT_EQ(w.getLevel(), Warning::LEVEL_WARNING);
}

TEST(ItemList, ConvertsToOtherContainers) {
  RowList rows(std::vector<Row>{Row(1), Row(2)});
  std::list<Row> as_list = rows;
  std::deque<Row> as_deque = rows;
  std::vector<Row> as_vector = rows; // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(as_list.size(), 2u);
  EXPECT_EQ(static_cast<int>(as_deque.back()[0]), 2);
  EXPECT_EQ(as_vector.size(), 2u);
}

TEST(CollectArgs, ItemsContainersAndRanges) {
  std::vector<std::string> v{"b", "c"};
  auto items = detail::collect<Value>("a", v, 1);
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[2].get<std::string>(), "c");
  EXPECT_EQ(static_cast<int>(items[3]), 1);
  auto range = detail::collect<Value>(v.begin(), v.end());
  ASSERT_EQ(range.size(), 2u);
  EXPECT_EQ(range[0].get<std::string>(), "b");
  auto two_strings = detail::collect<Value>("x", "y"); // two char pointers are not a range
  EXPECT_EQ(two_strings.size(), 2u);
  auto two_ints = detail::collect<Value>(3, 4);
  EXPECT_EQ(two_ints.size(), 2u);
  std::vector<DbDoc> docs{DbDoc("{}"), DbDoc("{}")};
  EXPECT_EQ(detail::collect<Value>(docs.begin(), docs.end()).size(), 2u);
  EXPECT_EQ(detail::collect<Row>(Row(1), std::vector<Row>{Row(2), Row(3)}).size(), 3u);
  EXPECT_TRUE(detail::collect<std::string>().empty());
}

// A hand-written iterator without std::iterator_traits, as Connector/C++ 8
// accepts: non-const operator* and !=, and an operator++ returning void.
struct countdown {
  unsigned left = 0;
  DbDoc operator*() { return DbDoc(R"({"n": )" + std::to_string(left) + "}"); }
  void operator++() { --left; }
  bool operator!=(const countdown& other) { return left != other.left; }
};

TEST(CollectArgs, HandWrittenIteratorsAreRanges) {
  auto docs = detail::collect<Value>(countdown{3}, countdown{0});
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(DbDoc(docs[0])["n"].get<int>(), 3);
  EXPECT_EQ(DbDoc(docs[2])["n"].get<int>(), 1);
}

TEST(DescribeDocId, ServerClientAndOpaqueIds) {
  const DocIdInfo server = describeDocId("00005e1b0e3a0000000000000001");
  EXPECT_EQ(server.format, DocIdFormat::SERVER);
  EXPECT_EQ(server.serial, 1u);
  EXPECT_EQ(server.serverStartTime, 0x5e1b0e3au);
  const DocIdInfo opaque = describeDocId("my-id");
  EXPECT_EQ(opaque.format, DocIdFormat::OPAQUE);
  EXPECT_FALSE(opaque.whyOpaque.empty());
  const DocIdInfo local = describeDocId("0190f1d2a3b47c01a2b3c4d5e6f7a8b9");
  EXPECT_EQ(local.format, DocIdFormat::CLIENT);
  EXPECT_EQ(local.unixMillis, 0x0190f1d2a3b4u);
}

} // namespace

TEST(Column, AMovedFromColumnReadsAsEmpty) {
  auto data = std::make_unique<detail::column_data>();
  data->name = "n";
  Column c = detail::access::make_column(std::move(data));
  Column taken(std::move(c));
  EXPECT_EQ(taken.getColumnName(), "n");
  // NOLINTBEGIN(bugprone-use-after-move): a moved-from Column is the test
  EXPECT_EQ(c.getColumnName(), "");
  Column copy(c);
  EXPECT_EQ(copy.getColumnLabel(), "");
  // NOLINTEND(bugprone-use-after-move)
}
