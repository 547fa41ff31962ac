// cdk::json::parse: the events, their offsets, number kinds, depth limit and
// error reports.
#include "cdk/json/json_parser.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using cdk::json::parse;
using cdk::json::parse_status;

// Records every event as text: "i:1 s:a {0 k:b ]7".
class recorder : public cdk::json::sax_handler {
public:
  std::string log;
  int stop_after = -1; // stop at this event number (0-based)

  bool null() override { return add("n"); }
  bool boolean(bool b) override { return add(b ? "t" : "f"); }
  bool int64(std::int64_t i) override { return add("i:" + std::to_string(i)); }
  bool uint64(std::uint64_t u) override { return add("u:" + std::to_string(u)); }
  bool dbl(double d) override { return add("d:" + std::to_string(d)); }
  bool string(std::string_view s) override { return add("s:" + std::string(s)); }
  bool key(std::string_view k) override { return add("k:" + std::string(k)); }
  bool start_object(std::size_t o) override { return add("{" + std::to_string(o)); }
  bool end_object(std::size_t e) override { return add("}" + std::to_string(e)); }
  bool start_array(std::size_t o) override { return add("[" + std::to_string(o)); }
  bool end_array(std::size_t e) override { return add("]" + std::to_string(e)); }

private:
  bool add(const std::string& e) {
    if (!log.empty()) log += ' ';
    log += e;
    return m_count++ != stop_after;
  }
  int m_count = 0;
};

std::string events(std::string_view text) {
  recorder r;
  const auto res = parse(text, r);
  EXPECT_TRUE(res.ok()) << text << ": " << res.describe();
  return r.log;
}

TEST(JsonParser, ScalarsAtTheRoot) {
  EXPECT_EQ(events("1"), "i:1");
  EXPECT_EQ(events(" -5 "), "i:-5");
  EXPECT_EQ(events("true"), "t");
  EXPECT_EQ(events("false"), "f");
  EXPECT_EQ(events("null"), "n");
  EXPECT_EQ(events(R"("a\nb\u00e9")"), "s:a\nb\xc3\xa9");
  EXPECT_EQ(events("2.5"), "d:2.500000");
  EXPECT_EQ(events("1e2"), "d:100.000000");
}

TEST(JsonParser, IntegerKinds) {
  EXPECT_EQ(events("9223372036854775807"), "i:9223372036854775807");
  EXPECT_EQ(events("-9223372036854775808"), "i:-9223372036854775808");
  EXPECT_EQ(events("9223372036854775808"), "u:9223372036854775808");
  EXPECT_EQ(events("18446744073709551615"), "u:18446744073709551615");
  EXPECT_EQ(events("18446744073709551616").substr(0, 2), "d:");
  EXPECT_EQ(events("4294967295"), "i:4294967295");
}

TEST(JsonParser, OffsetsOfObjectsAndArrays) {
  //                0123456789012345678
  const char* t = R"( {"a":[1,{"b":2}]} )";
  EXPECT_EQ(events(t), "{1 k:a [6 i:1 {9 k:b i:2 }16 ]17 }18");
  EXPECT_EQ(std::string(t).substr(9, 16 - 9), R"({"b":2})");
}

TEST(JsonParser, DepthLimitIsMySqls) {
  std::string ok(100, '[');
  ok += std::string(100, ']');
  recorder r1;
  EXPECT_TRUE(parse(ok, r1).ok());

  std::string deep(101, '[');
  deep += std::string(101, ']');
  recorder r2;
  const auto res = parse(deep, r2);
  EXPECT_EQ(res.status, parse_status::too_deep);
  EXPECT_EQ(res.describe(), "nested deeper than 100 levels at offset 100");
  // Refused before the 101st start event reached the handler.
  EXPECT_EQ(r2.log.find("[100"), std::string::npos);
  // A caller's own limit: 101 levels pass under 101, not under 100.
  recorder own_limit;
  EXPECT_TRUE(parse(deep, own_limit, 101).ok());
  recorder past_own_limit;
  EXPECT_EQ(parse(std::string(102, '[') + std::string(102, ']'), past_own_limit, 101).describe(),
            "nested deeper than 101 levels at offset 101");

  // Objects count the same; a million levels is refused as quickly.
  std::string mixed;
  for (int i = 0; i < 1000000; ++i) mixed += R"({"a":)";
  recorder r3;
  EXPECT_EQ(parse(mixed, r3).status, parse_status::too_deep);
}

TEST(JsonParser, ErrorsNameWhatAndWhere) {
  recorder r;
  auto res = parse(R"({"a" 1})", r);
  EXPECT_EQ(res.status, parse_status::invalid_json);
  EXPECT_EQ(res.offset, 5u);
  EXPECT_NE(res.describe().find("colon"), std::string::npos) << res.describe();
  EXPECT_NE(res.describe().find("at offset 5"), std::string::npos);

  recorder r2;
  EXPECT_EQ(parse("", r2).status, parse_status::invalid_json);
  recorder r3;
  EXPECT_EQ(parse("1 2", r3).status, parse_status::invalid_json);
  recorder r4;
  EXPECT_EQ(parse("[1,]", r4).status, parse_status::invalid_json);
  recorder r5;
  EXPECT_EQ(parse("\"\xff\"", r5).status, parse_status::invalid_json);
  recorder r6;
  EXPECT_EQ(parse("{'a':1}", r6).status, parse_status::invalid_json);
}

TEST(JsonParser, NulIsNotTheEnd) {
  recorder r;
  const std::string t("{}\0{}", 5);
  const auto res = parse(t, r);
  EXPECT_EQ(res.status, parse_status::invalid_json);
  EXPECT_EQ(res.offset, 2u);
  EXPECT_NE(res.describe().find("NUL"), std::string::npos);
}

TEST(JsonParser, HandlerCanStop) {
  recorder r;
  r.stop_after = 2;
  const auto res = parse("[1,2,3,4]", r);
  EXPECT_EQ(res.status, parse_status::stopped);
  EXPECT_EQ(r.log, "[0 i:1 i:2");
}

} // namespace

namespace {

struct last_double : cdk::json::sax_handler {
  double value = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool int64(std::int64_t) override { return true; }
  bool uint64(std::uint64_t) override { return true; }
  bool dbl(double d) override {
    value = d;
    return true;
  }
  bool string(std::string_view) override { return true; }
  bool key(std::string_view) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool end_object(std::size_t) override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array(std::size_t) override { return true; }
};

double double_of(std::string_view text) {
  last_double h;
  EXPECT_TRUE(cdk::json::parse(text, h).ok()) << text;
  return h.value;
}

} // namespace

TEST(JsonParser, DoublesAreTheNearestValueEvenForLongInputs) {
  // strtod is exact; these are the classic hard cases for fast paths.
  EXPECT_EQ(double_of("0.1"), 0.1);
  EXPECT_EQ(double_of("2.2250738585072011e-308"), 2.2250738585072011e-308);
  EXPECT_EQ(double_of("1e23"), 1e23);
  EXPECT_EQ(double_of("0." + std::string(300, '0') + "1e300"), 1e-1);
  EXPECT_EQ(double_of("1e-400"), 0.0); // underflow: zero, as RapidJSON gives
  const std::string long_fraction = "0." + std::string(700, '0') + "13";
  EXPECT_EQ(double_of(long_fraction), 0.0);
}

TEST(JsonParser, NumbersTooBigAndLoneSurrogatesAreErrors) {
  recorder r;
  auto big = parse("[1e400]", r);
  EXPECT_EQ(big.status, cdk::json::parse_status::invalid_json);
  EXPECT_NE(big.describe().find("Number too big"), std::string::npos) << big.describe();
  for (std::string_view text : {R"(["\uDC00"])", R"({"\uDfcd": 1})", R"("a\uDFFFb")"}) {
    recorder lone;
    auto res = parse(text, lone);
    EXPECT_EQ(res.status, cdk::json::parse_status::invalid_json) << text;
    EXPECT_NE(res.describe().find("lone surrogate"), std::string::npos) << res.describe();
  }
  // A proper pair is one character.
  EXPECT_EQ(events(R"("\uD83D\uDE00")"), "s:\xf0\x9f\x98\x80");
}
