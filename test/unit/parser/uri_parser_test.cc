// The connection-string grammar: parse_uri_parts(). Each valid case is
// checked through a canonical rendering of the decoded pieces; each malformed
// case through its error code, position and message.
#include "cdk/parser/uri_parser.h"

#include <gtest/gtest.h>
#include <string>

namespace {

std::string render(const cdk::uri_parts& p) {
  std::string out;
  if (p.scheme == cdk::uri_scheme::mysqlx) out += "scheme=mysqlx ";
  if (p.scheme == cdk::uri_scheme::mysqlx_srv) out += "scheme=srv ";
  if (p.user) out += "user=" + *p.user + " ";
  if (p.password) out += "pw=" + *p.password + " ";
  out += p.host_list ? "hosts=[" : "host=";
  for (std::size_t i = 0; i < p.hosts.size(); ++i) {
    const cdk::uri_endpoint& e = p.hosts[i];
    if (i) out += ",";
    if (!e.socket.empty())
      out += "sock:" + e.socket;
    else
      out += e.host;
    if (e.port) out += ":" + std::to_string(*e.port);
    if (e.priority) out += "/p" + std::to_string(*e.priority);
  }
  if (p.host_list) out += "]";
  if (p.schema) out += " schema=" + *p.schema;
  for (const cdk::uri_option& o : p.options) {
    out += " " + o.name;
    if (!o.has_value) continue;
    out += o.is_list ? "=[" : "=";
    for (std::size_t i = 0; i < o.values.size(); ++i) out += (i ? "," : "") + o.values[i];
    if (o.is_list) out += "]";
  }
  return out;
}

struct good_case {
  const char* uri;
  const char* expected;
};

class uri_grammar_good : public testing::TestWithParam<good_case> {};

TEST_P(uri_grammar_good, parses) {
  auto r = cdk::parse_uri_parts(GetParam().uri);
  ASSERT_TRUE(r.ok()) << GetParam().uri << ": " << r.err().message;
  EXPECT_EQ(render(r.value()), GetParam().expected) << GetParam().uri;
}

const good_case k_good[] = {
    // schemes
    {"localhost", "host=localhost"},
    {"mysqlx://localhost", "scheme=mysqlx host=localhost"},
    {"MySQLX://localhost", "scheme=mysqlx host=localhost"},
    {"mysqlx+srv://_mysqlx._tcp.example.com", "scheme=srv host=_mysqlx._tcp.example.com"},
    // user info
    {"app@db", "user=app host=db"},
    {"app:secret@db", "user=app pw=secret host=db"},
    {"app:@db", "user=app pw= host=db"},
    {"app:a:b:c@db", "user=app pw=a:b:c host=db"},
    {"a%40b:p%40ss%2F%3F%23%25@db", "user=a@b pw=p@ss/?#% host=db"},
    {"mysqlx://app:s;e!c$r*e+t=(1),'x'&~@db",
     "scheme=mysqlx user=app pw=s;e!c$r*e+t=(1),'x'&~ host=db"},
    {"J\xc3\xbcrgen:p\xc3\xa4ss@db", "user=J\xc3\xbcrgen pw=p\xc3\xa4ss host=db"},
    {"%E2%82%AC:x@db", "user=\xe2\x82\xac pw=x host=db"},
    // host names, IPv4 and ports
    {"db.example.com", "host=db.example.com"},
    {"my_host-1.local", "host=my_host-1.local"},
    {"d%62", "host=db"},
    {"127.0.0.1", "host=127.0.0.1"},
    {"127.0.0.1:33061", "host=127.0.0.1:33061"},
    {"db:0", "host=db:0"},
    {"db:1", "host=db:1"},
    {"db:65535", "host=db:65535"},
    {"db:0033060", "host=db:33060"},
    // IPv6
    {"[::1]", "host=::1"},
    {"[::1]:33061", "host=::1:33061"},
    {"app@[2001:db8::7]:1/s", "user=app host=2001:db8::7:1 schema=s"},
    {"[::ffff:10.0.0.1]", "host=::ffff:10.0.0.1"},
    {"[fe80::1%25eth0]:5", "host=fe80::1%eth0:5"},
    {"[FE80::ABCD]", "host=FE80::ABCD"},
    // Unix sockets
    {"(/tmp/mysqlx.sock)", "host=sock:/tmp/mysqlx.sock"},
    {"%2Ftmp%2Fmysqlx.sock", "host=sock:/tmp/mysqlx.sock"},
    {"%2ftmp%2fmysqlx.sock", "host=sock:/tmp/mysqlx.sock"},
    {"(./rel.sock)", "host=sock:./rel.sock"},
    {"(../up/rel.sock)", "host=sock:../up/rel.sock"},
    {".%2Frel.sock", "host=sock:./rel.sock"},
    {"(/tmp/a(1).sock)", "host=sock:/tmp/a(1).sock"},
    {"(/tmp/a:b@c,d[e].sock)", "host=sock:/tmp/a:b@c,d[e].sock"},
    {"(/tmp/sp%20ace.sock)", "host=sock:/tmp/sp ace.sock"},
    {"app:pw@(/var/run/mysqld/mysqlx.sock)/shop",
     "user=app pw=pw host=sock:/var/run/mysqld/mysqlx.sock schema=shop"},
    {"mysqlx://app@%2Fvar%2Frun%2Fx.sock/shop?ssl-mode=disabled",
     "scheme=mysqlx user=app host=sock:/var/run/x.sock schema=shop ssl-mode=disabled"},
    // host lists
    {"[h1]", "hosts=[h1]"},
    {"[[fe80::1%25eth0]:1,[::2]]", "hosts=[fe80::1%eth0:1,::2]"},
    {"MYSQLX+SRV://u@[srv.example.com]", "scheme=srv user=u hosts=[srv.example.com]"},
    {"[h1,h2:2,h3]", "hosts=[h1,h2:2,h3]"},
    {"[[::1]:1,h2,127.0.0.1:3]", "hosts=[::1:1,h2,127.0.0.1:3]"},
    {"[(/tmp/a.sock),%2Ftmp%2Fb.sock,h]", "hosts=[sock:/tmp/a.sock,sock:/tmp/b.sock,h]"},
    {"[(address=h1:1,priority=100),(address=h2,priority=90)]", "hosts=[h1:1/p100,h2/p90]"},
    {"[(ADDRESS=h1,PRIORITY=0)]", "hosts=[h1/p0]"},
    {"[(Address=[::1]:7,Priority=5),(address=(/tmp/s),priority=6)]",
     "hosts=[::1:7/p5,sock:/tmp/s/p6]"},
    {"[(address=%2Ftmp%2Fs,priority=1)]", "hosts=[sock:/tmp/s/p1]"},
    {"[(address=h,priority=100000)]", "hosts=[h/p1000]"}, // saturated; parse_uri rejects it
    {"u:p@[h1,h2]/db?a=b", "user=u pw=p hosts=[h1,h2] schema=db a=b"},
    // schema
    {"db/shop", "host=db schema=shop"},
    {"db/", "host=db schema="},
    {"db/sh%2Fop", "host=db schema=sh/op"},
    {"db/s:h@o(p)[1],x", "host=db schema=s:h@o(p)[1],x"},
    {"db:1/shop?x=1", "host=db:1 schema=shop x=1"},
    // query: grammar only, names are lower-cased, values decoded
    {"db?A=1&b=2", "host=db a=1 b=2"},
    {"db?x", "host=db x"},
    {"db?x=", "host=db x="},
    {"db?x=a=b", "host=db x=a=b"},
    {"db?x=a%26b%3Dc", "host=db x=a&b=c"},
    {"db?x=/a/b?c:d@e", "host=db x=/a/b?c:d@e"},
    {"db?x=[a,b]", "host=db x=[a,b]"},
    {"db?x=[]", "host=db x=[]"},
    {"db?x=[,]", "host=db x=[,]"},
    {"db?x=[a%2Cb,c%5D]&y=z", "host=db x=[a,b,c]] y=z"},
    {"db?x=a]", "host=db x=a]"},
    {"db?x=1&x=2", "host=db x=1 x=2"},
    {"db?S%53L-Mode=x", "host=db ssl-mode=x"},
};
INSTANTIATE_TEST_SUITE_P(table, uri_grammar_good, testing::ValuesIn(k_good));

struct bad_case {
  const char* uri;
  std::uint32_t code;
  std::size_t pos; // SIZE_MAX: the message has no position
  const char* fragment;
};

constexpr std::uint32_t P = cdk::client_errc::parse;
constexpr std::uint32_t O = cdk::client_errc::bad_option;
constexpr std::size_t none = SIZE_MAX;

class uri_grammar_bad : public testing::TestWithParam<bad_case> {};

TEST_P(uri_grammar_bad, is_rejected) {
  const bad_case& c = GetParam();
  auto r = cdk::parse_uri_parts(c.uri);
  ASSERT_FALSE(r.ok()) << c.uri << " parsed as " << render(r.value());
  EXPECT_EQ(r.err().code, c.code) << c.uri << ": " << r.err().message;
  EXPECT_EQ(r.err().origin, cdk::error_origin::client);
  EXPECT_NE(r.err().message.find(c.fragment), std::string::npos)
      << c.uri << ": " << r.err().message;
  if (c.pos != none) {
    const std::string at = "at position " + std::to_string(c.pos);
    EXPECT_NE(r.err().message.find(at), std::string::npos) << c.uri << ": " << r.err().message;
  }
}

const bad_case k_bad[] = {
    {"", P, 0, "empty string"},
    {"mysql://db", P, 0, "unsupported scheme (expected mysqlx://"},
    {"http://db", P, 0, "unsupported scheme"},
    {"mysqlx://", P, 9, "missing host"},
    {"mysqlx:///db", P, 9, "missing host"},
    {"app@", P, 4, "missing host"},
    {"app:pw@?ssl-mode=disabled", P, 7, "missing host"},
    {"@db", P, 0, "empty user name"},
    {":pw@db", P, 0, "empty user name"},
    {"mysqlx://@db", P, 9, "empty user name"},
    // ports
    {"db:", P, 3, "expected a port number"},
    {"db:abc", P, 3, "expected a port number"},
    {"db:12ab", P, 3, "expected a port number"},
    {"db:-1", P, 3, "expected a port number"},
    {"db:+1", P, 3, "expected a port number"},
    {"db:%331", P, 3, "expected a port number"},
    {"db:65536", O, 3, "port out of range"},
    {"db:99999999999999999999999", O, 3, "port out of range"},
    {"db:1:2", P, 4, "unexpected character after the host"},
    {"[::1]:", P, 6, "expected a port number"},
    // host names
    {"db!x", P, 0, "invalid character in the host name"},
    {"d%2Fb", P, 0, "invalid character in the host name"},
    {"d%3Ab", P, 0, "invalid character in the host name"},
    {"h1,h2", P, 2, "list in brackets"},
    {"app@db@x", P, 6, "unexpected character after the host"},
    {"db)", P, 2, "unexpected character after the host"},
    // IPv6
    {"[::1", P, 0, "unclosed '['"},
    {"[1::2::3]", P, 1, "invalid IPv6 address"},
    {"[::1]x", P, 5, "unexpected character after the host"},
    {"[fe80::1%eth0]", P, 8, "invalid IPv6 zone"},
    {"[fe80::1%25]", P, 8, "invalid IPv6 zone"},
    // host lists
    {"[]", P, 1, "missing host"},
    {"[h1,]", P, 4, "missing host"},
    {"[,h1]", P, 1, "missing host"},
    {"[h1,h2", P, 0, "unclosed '['"},
    {"[h1;h2]", P, 1, "invalid character in the host name"},
    {"[h1:x]", P, 4, "expected a port number"},
    {"[h1]]", P, 4, "unexpected character after the host"},
    {"[(address=h1)]", P, 12, "expected ',priority='"},
    {"[(address=h1,priority=)]", P, 22, "expected a priority number"},
    {"[(address=h1,priority=-1)]", P, 22, "expected a priority number"},
    {"[(address=h1,priority=5]", P, 23, "expected ')' after the priority"},
    {"[(address=h1,priority=5,x=1)]", P, 23, "expected ')' after the priority"},
    {"[(address=,priority=5)]", P, 10, "missing host"},
    {"[(host=h1,priority=5)]", P, 2, "must start with '/' or '.'"},
    // sockets
    {"(/tmp/x.sock", P, 0, "unclosed '('"},
    {"(/tmp/(x.sock)", P, 0, "unclosed '('"},
    {"(tmp.sock)", P, 1, "must start with '/' or '.'"},
    {"()", P, 1, "must start with '/' or '.'"},
    {"(/tmp/x.sock):33060", P, 13, "takes no port"},
    {"%2Ftmp%2Fx.sock:33060", P, 15, "takes no port"},
    // percent-escapes
    {"db%", P, 2, "invalid percent-escape"},
    {"db%4", P, 2, "invalid percent-escape"},
    {"db%zz", P, 2, "invalid percent-escape"},
    {"d%00b", P, 1, "NUL"},
    {"u%0:p@db", P, 1, "invalid percent-escape"},
    {"u:p%G0@db", P, 3, "invalid percent-escape"},
    {"db/s%0", P, 4, "invalid percent-escape"},
    {"db?x%=1", P, 4, "invalid percent-escape"},
    {"db?x=1%", P, 6, "invalid percent-escape"},
    {"db?x=[a,%00]", P, 8, "NUL"},
    // characters that are never valid unencoded
    {"db#frag", P, 2, "not allowed"},
    {"d b", P, 1, "not allowed"},
    {"db\t", P, 2, "not allowed"},
    {"db\x7f", P, 2, "not allowed"},
    {"db?x=\"a\"", P, 5, "not allowed"},
    {"db?x=a b", P, 6, "not allowed"},
    {"db?x={a}", P, 5, "not allowed"},
    {"db?x=a|b", P, 6, "not allowed"},
    {"db?x=a\\b", P, 6, "not allowed"},
    {"u:p^w@db", P, 3, "not allowed"},
    // schema
    {"db/a/b", P, 4, "unexpected '/' in the schema"},
    // query
    {"db?", P, 3, "empty option name"},
    {"db?&a=1", P, 3, "empty option name"},
    {"db?a=1&", P, 7, "empty option name"},
    {"db?a=1&&b=2", P, 7, "empty option name"},
    {"db?=1", P, 3, "empty option name"},
    {"db?x=[a,b", P, 5, "unclosed '[' in the value of option 'x'"},
    {"db?x=[a,b&y=1", P, 5, "unclosed '['"},
    {"db?x=[a[b]]", P, 5, "unclosed '['"},
    {"db?x=[a]b", P, 8, "unexpected text after ']'"},
};
INSTANTIATE_TEST_SUITE_P(table, uri_grammar_bad, testing::ValuesIn(k_bad));

TEST(uri_grammar, length_is_bounded) {
  std::string uri(cdk::max_uri_length, 'a');
  EXPECT_TRUE(cdk::parse_uri_parts(uri).ok() == false); // a 64 KiB name is too long a host
  EXPECT_EQ(cdk::parse_uri_parts(uri).err().code, cdk::client_errc::bad_option);
  uri.push_back('a');
  auto r = cdk::parse_uri_parts(uri);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, cdk::client_errc::parse);
  EXPECT_NE(r.err().message.find("longer than 65536 bytes"), std::string::npos);
}

TEST(uri_grammar, host_name_and_socket_lengths) {
  EXPECT_TRUE(cdk::parse_uri_parts(std::string(255, 'h')).ok());
  auto r = cdk::parse_uri_parts(std::string(256, 'h'));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.err().code, cdk::client_errc::bad_option);
  EXPECT_NE(r.err().message.find("host name longer than 255"), std::string::npos);

  EXPECT_TRUE(cdk::parse_uri_parts("(/" + std::string(106, 's') + ")").ok());
  r = cdk::parse_uri_parts("(/" + std::string(107, 's') + ")");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("socket path longer than 107"), std::string::npos);
  // The limit applies to the decoded path: 3 input bytes per byte here.
  std::string encoded = "%2F";
  for (int i = 0; i < 107; ++i) encoded += "%73";
  r = cdk::parse_uri_parts(encoded);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("socket path longer than 107"), std::string::npos);
}

TEST(uri_grammar, positions_of_entries_are_kept) {
  auto r = cdk::parse_uri_parts("u@[h1,(/s),[::1]]?a=1&bb=2");
  ASSERT_TRUE(r.ok()) << r.err().message;
  ASSERT_EQ(r.value().hosts.size(), 3u);
  EXPECT_EQ(r.value().hosts[0].pos, 3u);
  EXPECT_EQ(r.value().hosts[1].pos, 6u);
  EXPECT_EQ(r.value().hosts[2].pos, 11u);
  ASSERT_EQ(r.value().options.size(), 2u);
  EXPECT_EQ(r.value().options[0].pos, 18u);
  EXPECT_EQ(r.value().options[1].pos, 22u);
}

TEST(uri_grammar, many_hosts_and_options_parse_in_linear_time) {
  std::string uri = "[";
  for (int i = 0; i < 5000; ++i) uri += (i ? ",h" : "h") + std::to_string(i) + ":1";
  uri += "]?";
  for (int i = 0; i < 1000; ++i) uri += (i ? "&o" : "o") + std::to_string(i) + "=v";
  auto r = cdk::parse_uri_parts(uri);
  ASSERT_TRUE(r.ok()) << r.err().message;
  EXPECT_EQ(r.value().hosts.size(), 5000u);
  EXPECT_EQ(r.value().hosts.back().host, "h4999");
  EXPECT_EQ(r.value().options.size(), 1000u);
}

} // namespace
