// Option rules: parse_uri() end to end, and connect_options_builder on its own
// (the path the DevAPI's SessionSettings takes). Valid cases compare the
// fields that differ from connect_options' defaults.
#include "cdk/parser/uri_options.h"
#include "cdk/parser/uri_parser.h"

#include <gtest/gtest.h>
#include <string>

namespace {

const char* const k_modes[] = {"disabled", "required", "verify_ca", "verify_identity"};
const char* const k_auths[] = {"auto", "plain", "mysql41", "sha256_memory", "external"};
const char* const k_compression[] = {"disabled", "preferred", "required"};
const char* const k_docids[] = {"auto", "server", "client"};

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

// Only fields that differ from a default connect_options, in a fixed order.
std::string render(const cdk::connect_options& o) {
  const cdk::connect_options d;
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : " ") + s; };
  std::string hosts;
  for (const auto& h : o.hosts) {
    hosts += (hosts.empty() ? "" : ",") + (h.socket.empty() ? h.host : "sock:" + h.socket);
    if (h.socket.empty()) hosts += ":" + std::to_string(h.port);
    if (h.priority) hosts += "/p" + std::to_string(*h.priority);
  }
  add("hosts=" + hosts);
  if (o.dns_srv) add("srv");
  if (!o.user.empty()) add("user=" + o.user);
  if (!o.password.empty()) add("pw=" + o.password);
  if (!o.schema.empty()) add("schema=" + o.schema);
  if (o.tls.mode != d.tls.mode) add(std::string("ssl-mode=") + k_modes[int(o.tls.mode)]);
  if (!o.tls.ca.empty()) add("ca=" + o.tls.ca);
  if (!o.tls.capath.empty()) add("capath=" + o.tls.capath);
  if (!o.tls.crl.empty()) add("crl=" + o.tls.crl);
  if (!o.tls.crlpath.empty()) add("crlpath=" + o.tls.crlpath);
  if (!o.tls.versions.empty()) add("tls=" + join(o.tls.versions));
  if (o.tls.versions.empty() && o.tls.versions_given) add("tls=none");
  if (!o.tls.ciphersuites.empty()) add("ciphers=" + join(o.tls.ciphersuites));
  if (o.tls.ciphersuites.empty() && o.tls.ciphersuites_given) add("ciphers=none");
  if (o.auth != d.auth) add(std::string("auth=") + k_auths[int(o.auth)]);
  if (o.connect_timeout != d.connect_timeout)
    add("timeout=" + std::to_string(o.connect_timeout.count()));
  if (o.read_timeout != d.read_timeout) add("read=" + std::to_string(o.read_timeout.count()));
  if (o.write_timeout != d.write_timeout) add("write=" + std::to_string(o.write_timeout.count()));
  if (o.send_connection_attributes != d.send_connection_attributes) add("attrs=off");
  std::string attrs;
  for (const auto& kv : o.connection_attributes)
    attrs += (attrs.empty() ? "" : ",") + kv.first + "=" + kv.second;
  if (!attrs.empty()) add("attrs=[" + attrs + "]");
  if (o.compression != d.compression)
    add(std::string("compression=") + k_compression[int(o.compression)]);
  if (!o.compression_algorithms.empty()) add("algos=" + join(o.compression_algorithms));
  if (o.unknown_compression_algorithms) add("unknown=[" + *o.unknown_compression_algorithms + "]");
  if (o.docids != d.docids) add(std::string("docids=") + k_docids[int(o.docids)]);
  if (o.max_message_size != d.max_message_size) add("max=" + std::to_string(o.max_message_size));
  if (o.max_incoming_size != d.max_incoming_size) add("in=" + std::to_string(o.max_incoming_size));
  if (o.max_in_flight != d.max_in_flight) add("flight=" + std::to_string(o.max_in_flight));
  if (o.dead_peer_timeout != d.dead_peer_timeout)
    add("dead=" + std::to_string(o.dead_peer_timeout.count()));
  return out;
}

struct good_case {
  const char* uri;
  const char* expected;
};

class uri_options_good : public testing::TestWithParam<good_case> {};

TEST_P(uri_options_good, applies) {
  auto r = cdk::parse_uri(GetParam().uri);
  ASSERT_TRUE(r.ok()) << GetParam().uri << ": " << r.err().message;
  EXPECT_EQ(render(r.value()), GetParam().expected) << GetParam().uri;
}

const good_case k_good[] = {
    {"db", "hosts=db:33060"},
    {"mysqlx://app:secret@db.example.com:33060/shop?ssl-mode=verify_ca&ssl-ca=%2Fetc%2Fca.pem&"
     "connect-timeout=5000",
     "hosts=db.example.com:33060 user=app pw=secret schema=shop ssl-mode=verify_ca "
     "ca=/etc/ca.pem timeout=5000"},
    // ssl-mode, case-insensitive values and names
    {"db?ssl-mode=disabled", "hosts=db:33060 ssl-mode=disabled"},
    {"db?SSL-MODE=DISABLED", "hosts=db:33060 ssl-mode=disabled"},
    {"db?ssl-mode=Required", "hosts=db:33060"},
    {"db?ssl-mode=VERIFY_IDENTITY", "hosts=db:33060 ssl-mode=verify_identity"},
    // certificates; ssl-ca / ssl-capath alone imply verify_ca (as documented
    // for Connector/C++ 8, and as MySQL's clients do)
    {"db?ssl-ca=/etc/ca.pem", "hosts=db:33060 ssl-mode=verify_ca ca=/etc/ca.pem"},
    {"db?ssl-capath=/etc/certs", "hosts=db:33060 ssl-mode=verify_ca capath=/etc/certs"},
    {"db?ssl-ca=a.pem&ssl-mode=verify_identity",
     "hosts=db:33060 ssl-mode=verify_identity ca=a.pem"},
    {"db?ssl-mode=verify_ca&ssl-ca=a&ssl-capath=b&ssl-crl=c&ssl-crlpath=d",
     "hosts=db:33060 ssl-mode=verify_ca ca=a capath=b crl=c crlpath=d"},
    {"db?ssl-crl=%2Fcrl.pem&ssl-crlpath=%2Fcrls", "hosts=db:33060 crl=/crl.pem crlpath=/crls"},
    // Connector/C++ 8: TLS options the ssl-mode does not use are kept and
    // ignored (tls_client.cc loads CAs only to verify), not refused
    {"db?ssl-mode=required&ssl-ca=a", "hosts=db:33060 ca=a"},
    {"db?ssl-ca=a&ssl-mode=disabled", "hosts=db:33060 ssl-mode=disabled ca=a"},
    {"db?ssl-capath=a&ssl-mode=REQUIRED", "hosts=db:33060 capath=a"},
    {"db?ssl-mode=disabled&ssl-crl=a&ssl-crlpath=b&tls-versions=TLSv1.3&tls-ciphersuites=[X]",
     "hosts=db:33060 ssl-mode=disabled crl=a crlpath=b tls=TLSv1.3 ciphers=X"},
    // Connector/C++ 8: an option given again replaces the earlier value
    {"db?ssl-mode=disabled&SSL-Mode=required", "hosts=db:33060"},
    {"db?ssl-mode=required&ssl-mode=disabled", "hosts=db:33060 ssl-mode=disabled"},
    {"db?auth=plain&auth=mysql41", "hosts=db:33060 auth=mysql41"},
    {"db?ssl-ca=BAD&ssl-ca=GOOD&ssl-mode=verify_ca", "hosts=db:33060 ssl-mode=verify_ca ca=GOOD"},
    {"db?connection-attributes&connection-attributes=false", "hosts=db:33060 attrs=off"},
    {"db?connection-attributes=[a=1]&connection-attributes=[b=2]", "hosts=db:33060 attrs=[b=2]"},
    {"db?connection-attributes=[a=1]&connection-attributes=true", "hosts=db:33060"},
    {"db?tls-versions=[]&tls-versions=[TLSv1.3]", "hosts=db:33060 tls=TLSv1.3"},
    // TLS versions and cipher suites
    {"db?tls-versions=[TLSv1.2,TLSv1.3]", "hosts=db:33060 tls=TLSv1.2,TLSv1.3"},
    {"db?tls-versions=[tlsv1.3,TLSV1.2]", "hosts=db:33060 tls=TLSv1.3,TLSv1.2"},
    {"db?tls-versions=TLSv1.3", "hosts=db:33060 tls=TLSv1.3"},
    {"db?tls-versions=TLSv1.2,TLSv1.3", "hosts=db:33060 tls=TLSv1.2,TLSv1.3"},
    {"db?tls-version=TLSv1.3", "hosts=db:33060 tls=TLSv1.3"}, // Connector/C++'s alias
    {"db?tls-versions=TLSv1.2,%20TLSv1.3", "hosts=db:33060 tls=TLSv1.2,TLSv1.3"},
    // Connector/C++ 8 drops what it cannot use: obsolete versions (never
    // enabled), unknown names, repeats. With none left, connecting fails
    // (tls=none: tls_client.cc); setting the option does not.
    {"db?tls-versions=TLSv1.1", "hosts=db:33060 tls=none"},
    {"db?tls-versions=[TLSv1]", "hosts=db:33060 tls=none"},
    {"db?tls-versions=[TLSv1.1,TLSv1.2]", "hosts=db:33060 tls=TLSv1.2"},
    {"db?tls-versions=[TLSv1.2,tlsv1.0]", "hosts=db:33060 tls=TLSv1.2"},
    {"db?tls-versions=TLSv1.4", "hosts=db:33060 tls=none"},
    {"db?tls-versions=[foo,TLSv1.3]", "hosts=db:33060 tls=TLSv1.3"},
    {"db?tls-versions=", "hosts=db:33060 tls=none"},
    {"db?tls-versions=[]", "hosts=db:33060 tls=none"},
    {"db?tls-versions=[TLSv1.2,TLSV1.2]", "hosts=db:33060 tls=TLSv1.2"},
    {"db?tls-ciphersuites=[]", "hosts=db:33060 ciphers=none"},
    {"db?tls-ciphersuites=[A:B]", "hosts=db:33060 ciphers=none"}, // never OpenSSL syntax
    {"db?tls-ciphersuites=[A,]", "hosts=db:33060 ciphers=A"},
    {"db?tls-ciphersuites=A,A", "hosts=db:33060 ciphers=A"},
    {"db?tls-ciphersuites=foo,%20TLS_AES_128_GCM_SHA256",
     "hosts=db:33060 ciphers=foo,TLS_AES_128_GCM_SHA256"},
    {"db?tls-ciphersuites=[TLS_AES_256_GCM_SHA384,ECDHE-RSA-AES128-GCM-SHA256]",
     "hosts=db:33060 ciphers=TLS_AES_256_GCM_SHA384,ECDHE-RSA-AES128-GCM-SHA256"},
    {"db?tls-ciphersuites=TLS_AES_128_GCM_SHA256", "hosts=db:33060 ciphers=TLS_AES_128_GCM_SHA256"},
    // auth
    {"db?auth=PLAIN", "hosts=db:33060 auth=plain"},
    {"db?auth=mysql41", "hosts=db:33060 auth=mysql41"},
    {"db?Auth=Sha256_Memory", "hosts=db:33060 auth=sha256_memory"},
    // connect-timeout
    {"db?connect-timeout=0", "hosts=db:33060 timeout=0"},
    {"db?connect-timeout=00250", "hosts=db:33060 timeout=250"},
    {"db?connect-timeout=9223372036854", "hosts=db:33060 timeout=9223372036854"},
    // read-timeout, write-timeout (ours): milliseconds, 0 waits forever
    {"db?read-timeout=1500", "hosts=db:33060 read=1500"},
    {"db?write-timeout=20&read-timeout=0", "hosts=db:33060 write=20"},
    // max-in-flight (ours): requests executeAsync() leaves unanswered
    {"db?max-in-flight=7", "hosts=db:33060 flight=7"},
    // dead-peer-timeout (ours): milliseconds, 5000 by default, 0 turns it off
    {"db?dead-peer-timeout=0", "hosts=db:33060 dead=0"},
    {"db?Dead-Peer-Timeout=1500", "hosts=db:33060 dead=1500"},
    {"db?dead-peer-timeout=5000", "hosts=db:33060"},
    {"db?READ-TIMEOUT=9223372036854", "hosts=db:33060 read=9223372036854"},
    // connection attributes
    {"db?connection-attributes", "hosts=db:33060"},
    {"db?connection-attributes=", "hosts=db:33060"},
    {"db?connection-attributes=TRUE", "hosts=db:33060"},
    {"db?connection-attributes=false", "hosts=db:33060 attrs=off"},
    {"db?connection-attributes=[]", "hosts=db:33060"},
    {"db?connection-attributes=[app=shop,empty=,bare]",
     "hosts=db:33060 attrs=[app=shop,empty=,bare=]"},
    {"db?connection-attributes=[,a=1,,b=x%2Cy=z,]", "hosts=db:33060 attrs=[a=1,b=x,y=z]"},
    // compression
    {"db?compression=disabled", "hosts=db:33060 compression=disabled"},
    {"db?compression=PREFERRED", "hosts=db:33060"},
    {"db?compression=required", "hosts=db:33060 compression=required"},
    {"db?compression-algorithms=[zstd,lz4_message,DEFLATE]",
     "hosts=db:33060 algos=zstd_stream,lz4_message,deflate_stream"},
    {"db?compression-algorithms=lz4", "hosts=db:33060 algos=lz4_message"},
    {"db?compression-algorithms=deflate_stream,zstd_stream",
     "hosts=db:33060 algos=deflate_stream,zstd_stream"},
    {"db?compression-algorithms=[]", "hosts=db:33060 compression=disabled"},
    // Unknown names and repeats are dropped, as Connector/C++ 8 drops them;
    // nothing left is an empty list.
    {"db?compression-algorithms=[lz4,brotli,LZ4_message,Zstd]",
     "hosts=db:33060 algos=lz4_message,zstd_stream"},
    {"db?compression-algorithms=", "hosts=db:33060 compression=disabled"},
    {"db?compression-algorithms=[BAD_Algorithm,BAD_Algorithm]",
     "hosts=db:33060 compression=disabled"},
    {"db?compression=disabled&compression-algorithms=[]", "hosts=db:33060 compression=disabled"},
    // REQUIRED with no algorithm left is taken, as Connector/C++ 8 takes it,
    // with the dropped names kept: the session fails when it is opened
    // (cdk::session::check_connectable(), test/unit/session).
    {"db?compression=required&compression-algorithms=[]",
     "hosts=db:33060 compression=required unknown=[]"},
    {"db?compression-algorithms=[brotli,BAD]&compression=REQUIRED",
     "hosts=db:33060 compression=required unknown=['brotli', 'BAD']"},
    {"db?compression=required&compression-algorithms=[brotli,zstd]",
     "hosts=db:33060 compression=required algos=zstd_stream"},
    // auth=EXTERNAL is taken too, and refused when a session is opened.
    {"db?auth=EXTERNAL", "hosts=db:33060 auth=external"},
    // ours
    {"db?docid-mode=server", "hosts=db:33060 docids=server"},
    {"db?docid-mode=CLIENT", "hosts=db:33060 docids=client"},
    {"db?docid-mode=auto", "hosts=db:33060"},
    {"db?max-message-size=1", "hosts=db:33060 max=1"},
    {"db?max-message-size=4294967295", "hosts=db:33060 max=4294967295 in=4294967295"},
    // hosts: ports, sockets, priorities (highest first, stable), srv
    {"[a:1,(/tmp/s),[::1]]", "hosts=a:1,sock:/tmp/s,::1:33060"},
    {"[(address=a,priority=10),(address=b:2,priority=90),(address=c,priority=10)]",
     "hosts=b:2/p90,a:33060/p10,c:33060/p10"},
    {"[(address=a,priority=0),(address=b,priority=100)]", "hosts=b:33060/p100,a:33060/p0"},
    {"mysqlx+srv://_mysqlx._tcp.example.com/db",
     "hosts=_mysqlx._tcp.example.com:33060 srv schema=db"},
    {"mysqlx+srv://[srv.example.com]", "hosts=srv.example.com:33060 srv"},
    // every option at once
    {"u:p@h?ssl-mode=verify_identity&ssl-ca=a&ssl-capath=b&ssl-crl=c&ssl-crlpath=d&tls-versions="
     "[TLSv1.3]&tls-ciphersuites=[X]&auth=plain&connect-timeout=1&connection-attributes=[k=v]&"
     "compression=required&compression-algorithms=[zstd]&docid-mode=client&max-message-size=2",
     "hosts=h:33060 user=u pw=p ssl-mode=verify_identity ca=a capath=b crl=c crlpath=d "
     "tls=TLSv1.3 ciphers=X auth=plain timeout=1 attrs=[k=v] compression=required "
     "algos=zstd_stream docids=client max=2"},
};
INSTANTIATE_TEST_SUITE_P(table, uri_options_good, testing::ValuesIn(k_good));

struct bad_case {
  const char* uri;
  const char* fragment;
};

class uri_options_bad : public testing::TestWithParam<bad_case> {};

TEST_P(uri_options_bad, is_rejected_naming_the_option) {
  auto r = cdk::parse_uri(GetParam().uri);
  ASSERT_FALSE(r.ok()) << GetParam().uri << " gave " << render(r.value());
  EXPECT_EQ(r.err().code, cdk::client_errc::bad_option) << r.err().message;
  EXPECT_NE(r.err().message.find(GetParam().fragment), std::string::npos)
      << GetParam().uri << ": " << r.err().message;
}

const bad_case k_bad[] = {
    {"db?foo=1", "unknown option 'foo'"},
    {"db?ssl-enable=true", "unknown option 'ssl-enable'"},
    {"db?ssl-enabled=true", "unknown option 'ssl-enabled'"},
    {"db?sslmode=disabled", "unknown option 'sslmode'"},
    {"db?ssl-mode", "option 'ssl-mode' needs a value"},
    {"db?connect-timeout", "option 'connect-timeout' needs a value"},
    {"db?ssl-mode=preferred",
     "option 'ssl-mode': Invalid ssl mode 'preferred' (expected disabled, "},
    {"db?ssl-mode=", "option 'ssl-mode': Invalid ssl mode ''"},
    {"db?ssl-mode=[disabled]", "option 'ssl-mode' takes a single value, not a [list]"},
    {"db?ssl-ca=", "option 'ssl-ca': invalid value '' (expected a file or directory path)"},
    {"db?ssl-crlpath=", "option 'ssl-crlpath': invalid value ''"},
    {"db?ssl-ca=[a,b]", "option 'ssl-ca' takes a single value"},
    // auth
    {"db?auth=sha256_mem", "option 'auth': invalid value 'sha256_mem' (expected PLAIN, MYSQL41, "
                           "SHA256_MEMORY or EXTERNAL)"},
    {"db?auth=", "option 'auth': invalid value ''"},
    // read-timeout, write-timeout
    {"db?read-timeout=-5", "option 'read-timeout': invalid value '-5' (expected a whole number"},
    {"db?max-in-flight=0", "option 'max-in-flight': invalid value '0' (expected a whole number of"
                           " requests, 1..100000)"},
    {"db?write-timeout=1.5",
     "option 'write-timeout': invalid value '1.5' (expected a whole number"},
    {"db?dead-peer-timeout=-1",
     "option 'dead-peer-timeout': invalid value '-1' (expected a whole number"},
    {"db?dead-peer-timeout=5s", "option 'dead-peer-timeout': invalid value '5s'"},
    {"db?dead-peer-timeout=9223372036855", "invalid value '9223372036855'"},
    // connect-timeout
    {"db?connect-timeout=-1",
     "option 'connect-timeout': invalid value '-1' (expected a whole number"},
    {"db?connect-timeout=1.5", "invalid value '1.5'"},
    {"db?connect-timeout=+5", "invalid value '+5'"},
    {"db?connect-timeout=10s", "invalid value '10s'"},
    {"db?connect-timeout=", "option 'connect-timeout': invalid value ''"},
    {"db?connect-timeout=9223372036855", "invalid value '9223372036855'"},
    {"db?connect-timeout=99999999999999999999999999", "option 'connect-timeout': invalid value"},
    // connection attributes
    {"db?connection-attributes=yes",
     "option 'connection-attributes': invalid value 'yes' (expected"},
    {"db?connection-attributes=[_client_name=x]",
     "attribute '_client_name': names starting with '_'"},
    {"db?connection-attributes=[=x]", "an attribute has no name"},
    {"db?connection-attributes=[a=1,a=2]", "attribute 'a' is given more than once"},
    {"db?connection-attributes=[nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn=1]",
     "name longer than 32 characters"},
    // compression
    {"db?compression=yes",
     "option 'compression': invalid value 'yes' (expected disabled, preferred"},
    {"db?compression=[required]", "option 'compression' takes a single value"},
    // ours
    {"db?docid-mode=random", "option 'docid-mode': invalid value 'random' (expected auto, server"},
    {"db?max-message-size=0", "option 'max-message-size': invalid value '0' (expected a whole"},
    {"db?max-message-size=4294967296", "invalid value '4294967296'"},
    {"db?max-message-size=-1", "invalid value '-1'"},
    {"db?max-message-size=1k", "invalid value '1k'"},
    // hosts
    {"[(address=a,priority=101)]", "priority out of range (0..100) for the host at position 10"},
    {"[(address=a,priority=99999)]", "priority out of range"},
    {"[(address=a,priority=1),b]", "either every host in the list has a priority or none does"},
    {"[a,(address=b,priority=1)]", "either every host in the list has a priority or none does"},
    // mysqlx+srv (Connector/C++, Node.js)
    {"mysqlx+srv://h:33060", "mysqlx+srv:// takes no port number"},
    {"mysqlx+srv://[h1,h2]", "mysqlx+srv:// takes exactly one host name, not a list of 2"},
    {"mysqlx+srv://(/tmp/s.sock)", "mysqlx+srv:// cannot be used with a Unix socket"},
    {"mysqlx+srv://%2Ftmp%2Fs.sock", "mysqlx+srv:// cannot be used with a Unix socket"},
    {"mysqlx+srv://[(address=h,priority=1)]", "mysqlx+srv:// takes no priority"},
};
INSTANTIATE_TEST_SUITE_P(table, uri_options_bad, testing::ValuesIn(k_bad));

TEST(uri_options, attribute_length_limits_count_characters) {
  const std::string k_value1024(1024, 'v');
  const std::string ok =
      "db?connection-attributes=[" + std::string(32, 'n') + "=" + k_value1024 + "]";
  auto r = cdk::parse_uri(ok);
  ASSERT_TRUE(r.ok()) << r.err().message;
  ASSERT_EQ(r.value().connection_attributes.size(), 1u);
  EXPECT_EQ(r.value().connection_attributes[0].second.size(), 1024u);

  r = cdk::parse_uri("db?connection-attributes=[a=" + k_value1024 + "v]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("value longer than 1024 characters"), std::string::npos);

  // 32 two-byte characters: 64 bytes, still 32 characters.
  std::string name;
  for (int i = 0; i < 32; ++i) name += "%C3%A9";
  r = cdk::parse_uri("db?connection-attributes=[" + name + "=x]");
  ASSERT_TRUE(r.ok()) << r.err().message;
  EXPECT_EQ(r.value().connection_attributes[0].first.size(), 64u);
  r = cdk::parse_uri("db?connection-attributes=[" + name + "%C3%A9=x]");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("name longer than 32 characters"), std::string::npos);
}

TEST(uri_options, quoted_values_are_shortened_and_escaped) {
  auto r = cdk::parse_uri("db?ssl-mode=" + std::string(200, 'x'));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("'" + std::string(80, 'x') + "...'"), std::string::npos);
  EXPECT_EQ(r.err().message.find(std::string(81, 'x')), std::string::npos);
  r = cdk::parse_uri("db?ssl-mode=a%0Ab%01");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("'a%0Ab%01'"), std::string::npos) << r.err().message;
}

TEST(uri_options, builder_works_without_a_uri) {
  cdk::connect_options_builder b;
  cdk::uri_endpoint a, c;
  a.host = "a";
  a.port = 1;
  a.priority = 5;
  c.socket = "/tmp/x.sock";
  c.priority = 50;
  ASSERT_TRUE(b.set_hosts({a, c}, false).ok());
  cdk::uri_option mode{"SSL-Mode", {"VERIFY_IDENTITY"}, true, false, 0};
  cdk::uri_option ca{"ssl-ca", {"/ca.pem"}, true, false, 0};
  ASSERT_TRUE(b.set_option(mode).ok());
  cdk::uri_option other_ca{"ssl-ca", {"/other.pem"}, true, false, 0};
  ASSERT_TRUE(b.set_option(other_ca).ok());
  ASSERT_TRUE(b.set_option(ca).ok()); // given again: replaces
  ASSERT_TRUE(b.finish().ok());
  EXPECT_EQ(render(b.take()),
            "hosts=sock:/tmp/x.sock/p50,a:1/p5 ssl-mode=verify_identity ca=/ca.pem");
}

// Whether ssl-mode was given, not implied: TLS asked for over Unix sockets
// only is an error (cdk/session/connection.cc), the default is not.
TEST(uri_options, an_ssl_mode_given_is_told_from_the_default) {
  auto given = cdk::parse_uri("mysqlx://u@(%2Ftmp%2Fx.sock)/?ssl-mode=required");
  ASSERT_TRUE(given.ok()) << given.err().message;
  EXPECT_TRUE(given.value().tls.mode_given);
  auto defaulted = cdk::parse_uri("mysqlx://u@(%2Ftmp%2Fx.sock)/");
  ASSERT_TRUE(defaulted.ok()) << defaulted.err().message;
  EXPECT_FALSE(defaulted.value().tls.mode_given);
  auto implied = cdk::parse_uri("mysqlx://u@db/?ssl-ca=/ca.pem");
  ASSERT_TRUE(implied.ok()) << implied.err().message;
  EXPECT_FALSE(implied.value().tls.mode_given);
  EXPECT_EQ(implied.value().tls.mode, cdk::ssl_mode::verify_ca);
}

TEST(uri_options, builder_rejects_inconsistent_options) {
  cdk::connect_options_builder b;
  cdk::uri_option no_values{"ssl-mode", {}, true, false, 0};
  auto st = b.set_option(no_values);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.err().message.find("option 'ssl-mode' takes exactly one value"), std::string::npos);
  cdk::uri_option two_values{"tls-versions", {"TLSv1.2", "TLSv1.3"}, true, false, 0};
  st = b.set_option(two_values);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.err().message.find("takes exactly one value"), std::string::npos);
  cdk::uri_option as_list{"tls-versions", {"TLSv1.2", "TLSv1.3"}, true, true, 0};
  cdk::connect_options_builder b2;
  EXPECT_TRUE(b2.set_option(as_list).ok());
  EXPECT_FALSE(b2.set_hosts({}, false).ok()); // at least one host
}

TEST(uri_options, every_option_name_is_listed_once) {
  for (int i = 0; i < static_cast<int>(cdk::uri_option_id::count_); ++i) {
    const std::string_view name = cdk::uri_option_name(static_cast<cdk::uri_option_id>(i));
    ASSERT_FALSE(name.empty());
    cdk::connect_options_builder b;
    cdk::uri_option bare{std::string(name), {}, false, false, 0};
    auto st = b.set_option(bare);
    // Known names never get "unknown option"; a bare name needs a value
    // except connection-attributes.
    if (name == "connection-attributes") {
      EXPECT_TRUE(st.ok());
    } else {
      ASSERT_FALSE(st.ok());
      EXPECT_NE(st.err().message.find("needs a value"), std::string::npos) << name;
    }
  }
}

} // namespace
