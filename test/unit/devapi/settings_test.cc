// SessionSettings / ClientSettings: option lists, URIs, checks, conversion to
// cdk::connect_options, pool options, and passwords kept out of errors.
#include "devapi/settings_impl.h"

#include <chrono>
#include <gtest/gtest.h>
#include <list>
#include <mysqlx/error.h>
#include <mysqlx/session.h>
#include <mysqlx/settings.h>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace mysqlx;
using detail::connect_options_of;

const char* const secret = "Sup3r-S3cret!";

// `f` must throw a client mysqlx::Error whose message contains `fragment`
// and never the password.
template <typename F> void expect_option_error(F&& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << fragment << "'";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(e.isClientError());
    EXPECT_TRUE(e.code() == errc::BAD_OPTION || e.code() == errc::PARSE) << e.code();
    EXPECT_NE(what.find(fragment), std::string::npos) << what;
    EXPECT_EQ(what.find(secret), std::string::npos) << "password in: " << what;
    EXPECT_EQ(what.find("S3cret"), std::string::npos) << "password in: " << what;
  }
}

TEST(SessionSettings, OptionListBecomesConnectOptions) {
  SessionSettings s(
      SessionOption::HOST, "db.example", SessionOption::PORT, 13009, SessionOption::USER, "app",
      SessionOption::PWD, secret, SessionOption::DB, "shop", SessionOption::SSL_MODE,
      SSLMode::VERIFY_IDENTITY, SessionOption::SSL_CA, "/etc/ca.pem", SessionOption::TLS_VERSIONS,
      std::vector<std::string>{"TLSv1.3"}, SessionOption::CONNECT_TIMEOUT, std::chrono::seconds(3),
      SessionOption::DOCID_MODE, DocIdMode::CLIENT, SessionOption::MAX_MESSAGE_SIZE, 1 << 20,
      SessionOption::AUTH, AuthMethod::SHA256_MEMORY, SessionOption::COMPRESSION,
      CompressionMode::DISABLED, SessionOption::READ_TIMEOUT, std::chrono::seconds(2),
      SessionOption::WRITE_TIMEOUT, 700, SessionOption::DEAD_PEER_TIMEOUT, std::chrono::seconds(9));
  const cdk::connect_options o = connect_options_of(s);
  ASSERT_EQ(o.hosts.size(), 1u);
  EXPECT_EQ(o.hosts[0].host, "db.example");
  EXPECT_EQ(o.hosts[0].port, 13009);
  EXPECT_EQ(o.user, "app");
  EXPECT_EQ(o.password, secret);
  EXPECT_EQ(o.schema, "shop");
  EXPECT_EQ(o.tls.mode, cdk::ssl_mode::verify_identity);
  EXPECT_EQ(o.tls.ca, "/etc/ca.pem");
  EXPECT_EQ(o.tls.versions, std::vector<std::string>({"TLSv1.3"}));
  EXPECT_EQ(o.connect_timeout, std::chrono::milliseconds(3000));
  EXPECT_EQ(o.docids, cdk::docid_mode::client);
  EXPECT_EQ(o.max_message_size, 1u << 20);
  EXPECT_EQ(o.max_incoming_size, 64u << 20); // what the server sends is not bound by it
  EXPECT_EQ(o.auth, cdk::auth_method::sha256_memory);
  EXPECT_EQ(o.compression, cdk::compression_mode::disabled);
  EXPECT_EQ(o.read_timeout, std::chrono::milliseconds(2000));
  EXPECT_EQ(o.write_timeout, std::chrono::milliseconds(700));
  EXPECT_EQ(o.dead_peer_timeout, std::chrono::milliseconds(9000));
}

TEST(SessionSettings, DefaultsAreSecure) {
  const cdk::connect_options o = connect_options_of(SessionSettings("host", "user"));
  EXPECT_EQ(o.tls.mode, cdk::ssl_mode::required);
  EXPECT_EQ(o.hosts[0].port, 33060);
  EXPECT_EQ(o.docids, cdk::docid_mode::auto_select);
  // No read or write bound, as in the official connectors.
  EXPECT_EQ(o.read_timeout.count(), 0);
  EXPECT_EQ(o.write_timeout.count(), 0);
  // A peer silent at the TCP level fails the call after 5 s (issue 35).
  EXPECT_EQ(o.dead_peer_timeout, std::chrono::milliseconds(5000));
}

TEST(SessionSettings, ConvenienceConstructors) {
  auto o = connect_options_of(SessionSettings("h", 1234, "u", "p", "db"));
  EXPECT_EQ(o.hosts[0].host, "h");
  EXPECT_EQ(o.hosts[0].port, 1234);
  EXPECT_EQ(o.password, "p");
  EXPECT_EQ(o.schema, "db");
  o = connect_options_of(SessionSettings(13009, "root"));
  EXPECT_EQ(o.hosts[0].host, "localhost");
  EXPECT_EQ(o.hosts[0].port, 13009);
  EXPECT_TRUE(o.password.empty());
  o = connect_options_of(SessionSettings("h", "u", std::string("pw")));
  EXPECT_EQ(o.hosts[0].port, 33060);
  EXPECT_EQ(o.password, "pw");
}

// Connector/C++ 8 code writes a missing password as NULL, an integer
// constant, in every form of the host/port/user constructors.
TEST(SessionSettings, PasswordWrittenAsNull) {
  auto o = connect_options_of(SessionSettings("h", 1234, "u", NULL, "db"));
  EXPECT_EQ(o.hosts[0].host, "h");
  EXPECT_EQ(o.hosts[0].port, 1234);
  EXPECT_EQ(o.user, "u");
  EXPECT_TRUE(o.password.empty());
  EXPECT_EQ(o.schema, "db");
  EXPECT_FALSE(SessionSettings(std::string("h"), 1234u, "u", NULL).has_option(SessionOption::PWD));
  o = connect_options_of(SessionSettings(13009, std::string("u"), NULL, "db"));
  EXPECT_EQ(o.hosts[0].host, "localhost");
  EXPECT_EQ(o.hosts[0].port, 13009);
  EXPECT_EQ(o.schema, "db");
  o = connect_options_of(SessionSettings("h", "u", NULL));
  EXPECT_EQ(o.hosts[0].host, "h");
  EXPECT_EQ(o.hosts[0].port, 33060);
  EXPECT_TRUE((std::is_constructible_v<Session, const char*, int, const char*, long>));
  EXPECT_TRUE((std::is_constructible_v<Session, unsigned short, std::string, long, std::string>));
  expect_option_error([] { SessionSettings("h", 1, "u", 5L); }, "NULL");
  // Option lists still mean option lists.
  o = connect_options_of(SessionSettings(SessionOption::HOST, "h", SessionOption::PORT, 7L));
  EXPECT_EQ(o.hosts[0].port, 7);
}

TEST(ClientSettings, FromSessionSettings) {
  SessionSettings s("mysqlx://u@h:1234/db");
  ClientSettings c(s);
  EXPECT_EQ(c.find(SessionOption::HOST).get<std::string>(), "h");
  EXPECT_EQ(c.find(SessionOption::PORT).get<int>(), 1234);
  EXPECT_EQ(c.poolOptions().max_size, PoolOptions().max_size);
  EXPECT_EQ(connect_options_of(c.sessionSettings()).schema, "db");
}

TEST(SessionSettings, FromUri) {
  SessionSettings s(std::string("mysqlx://app:") + secret +
                    "@db:1234/shop?ssl-mode=disabled&docid-mode=server&connect-timeout=500"
                    "&read-timeout=250&write-timeout=125");
  EXPECT_EQ(s.find(SessionOption::HOST).get<std::string>(), "db");
  EXPECT_EQ(static_cast<int>(s.find(SessionOption::PORT)), 1234);
  EXPECT_EQ(s.find(SessionOption::PWD).get<std::string>(), secret);
  EXPECT_EQ(s.find(SessionOption::DOCID_MODE).get<std::string>(), "server");
  const auto o = connect_options_of(s);
  EXPECT_EQ(o.user, "app");
  EXPECT_EQ(o.schema, "shop");
  EXPECT_EQ(o.tls.mode, cdk::ssl_mode::disabled);
  EXPECT_EQ(o.docids, cdk::docid_mode::server);
  EXPECT_EQ(o.connect_timeout, std::chrono::milliseconds(500));
  EXPECT_EQ(o.read_timeout, std::chrono::milliseconds(250));
  EXPECT_EQ(o.write_timeout, std::chrono::milliseconds(125));
  EXPECT_EQ(s.find(SessionOption::READ_TIMEOUT).get<std::string>(), "250");
}

TEST(SessionSettings, UriHostListsAndSrv) {
  auto o = connect_options_of(
      SessionSettings("mysqlx://u@[(address=a:1,priority=10),(address=b:2,priority=90)]"));
  ASSERT_EQ(o.hosts.size(), 2u);
  EXPECT_EQ(o.hosts[0].host, "b"); // highest priority first
  EXPECT_EQ(o.hosts[1].port, 1);
  o = connect_options_of(SessionSettings("mysqlx+srv://u@_mysqlx._tcp.example.com"));
  EXPECT_TRUE(o.dns_srv);
}

TEST(SessionSettings, LaterOptionsOverrideTheUri) {
  SessionSettings s("mysqlx://u@h/db?ssl-mode=disabled");
  s.set(SessionOption::SSL_MODE, SSLMode::REQUIRED, SessionOption::DB, "other");
  const auto o = connect_options_of(s);
  EXPECT_EQ(o.tls.mode, cdk::ssl_mode::required);
  EXPECT_EQ(o.schema, "other");
  SessionSettings t(SessionOption::HOST, "x", SessionOption::URI, "mysqlx://u@y:5");
  const auto p = connect_options_of(t);
  ASSERT_EQ(p.hosts.size(), 1u); // the URI names the whole host list
  EXPECT_EQ(p.hosts[0].host, "y");
}

TEST(SessionSettings, RepeatedHostsBuildAFailoverList) {
  SessionSettings s(SessionOption::HOST, "a", SessionOption::PORT, 1, SessionOption::PRIORITY, 50,
                    SessionOption::HOST, "b", SessionOption::PRIORITY, 100);
  s.set(SessionOption::SOCKET, "/run/mysqld/mysqlx.sock", SessionOption::PRIORITY, 1);
  const auto o = connect_options_of(s);
  ASSERT_EQ(o.hosts.size(), 3u);
  EXPECT_EQ(o.hosts[0].host, "b");
  EXPECT_EQ(o.hosts[1].host, "a");
  EXPECT_EQ(o.hosts[1].port, 1);
  EXPECT_EQ(o.hosts[2].socket, "/run/mysqld/mysqlx.sock");
}

TEST(SessionSettings, PortAloneMeansLocalhost) {
  const auto o =
      connect_options_of(SessionSettings(SessionOption::PORT, 3306, SessionOption::USER, "u"));
  ASSERT_EQ(o.hosts.size(), 1u);
  EXPECT_EQ(o.hosts[0].host, "localhost");
  EXPECT_EQ(o.hosts[0].port, 3306);
}

TEST(SessionSettings, HostListErrors) {
  expect_option_error([] { SessionSettings s(SessionOption::PORT, 1, SessionOption::HOST, "h"); },
                      "SessionOption::PORT must follow the HOST it applies to");
  expect_option_error(
      [] { SessionSettings s(SessionOption::SOCKET, "/s", SessionOption::PORT, 1); },
      "PORT cannot apply to a SOCKET");
  expect_option_error(
      [] {
        SessionSettings s(SessionOption::HOST, "h", SessionOption::PORT, 1, SessionOption::PORT, 2);
      },
      "PORT is given twice");
  expect_option_error(
      [] {
        SessionSettings s(SessionOption::HOST, "a", SessionOption::PRIORITY, 1, SessionOption::HOST,
                          "b");
      },
      "priority");
  // Connector/C++ 8 refuses a PRIORITY without a HOST before it when it is
  // set: the implicit localhost of a lone PORT takes none.
  SessionSettings s(SessionOption::USER, "u");
  s.set(SessionOption::DB, "test", SessionOption::PORT, 1);
  expect_option_error([&] { s.set(SessionOption::PRIORITY, 1); },
                      "SessionOption::PRIORITY must follow the HOST it applies to");
  EXPECT_FALSE(s.has_option(SessionOption::PRIORITY));
  expect_option_error([] { SessionSettings t(SessionOption::PRIORITY, 1); },
                      "SessionOption::PRIORITY must follow the HOST");
}

TEST(SessionSettings, TypeErrorsNameTheOptionNotTheValue) {
  expect_option_error([] { SessionSettings s(SessionOption::PORT, "33060"); },
                      "SessionOption::PORT: expected a port number 0..65535");
  expect_option_error([] { SessionSettings s(SessionOption::PORT, 70000); }, "0..65535");
  expect_option_error([] { SessionSettings s(SessionOption::HOST, ""); },
                      "SessionOption::HOST: expected a non-empty string");
  expect_option_error([] { SessionSettings s(SessionOption::DNS_SRV, "yes"); },
                      "SessionOption::DNS_SRV: expected true or false");
  expect_option_error([] { SessionSettings s(SessionOption::PWD, 12345); },
                      "SessionOption::PWD: expected a string");
  expect_option_error([] { SessionSettings s(SessionOption::PRIORITY, 101); }, "0..100");
}

TEST(SessionSettings, ValueErrorsComeFromTheSharedRules) {
  expect_option_error([] { SessionSettings s(SessionOption::SSL_MODE, "sometimes"); },
                      "invalid session option: option 'ssl-mode'");
  expect_option_error([] { SessionSettings s(SessionOption::CONNECT_TIMEOUT, -1); },
                      "connect-timeout");
  expect_option_error([] { SessionSettings s(SessionOption::MAX_MESSAGE_SIZE, 0); },
                      "max-message-size");
  expect_option_error([] { SessionSettings s(SessionOption::MAX_IN_FLIGHT, 0); }, "max-in-flight");
}

// As Connector/C++ 8: EXTERNAL is taken and reads back as set; the session
// fails when it is opened (cdk::session::check_connectable(), and
// test/integration/devapi's AuthExternal.FailsAtConnectNamingTheCause).
TEST(SessionSettings, AuthExternalIsTakenWhenSet) {
  SessionSettings s(SessionOption::HOST, "h", SessionOption::AUTH, AuthMethod::EXTERNAL);
  EXPECT_EQ(s.find(SessionOption::AUTH).get<int>(), static_cast<int>(AuthMethod::EXTERNAL));
  EXPECT_EQ(connect_options_of(s).auth, cdk::auth_method::external);
  SessionSettings u("mysqlx://u@h/?auth=external");
  EXPECT_EQ(connect_options_of(u).auth, cdk::auth_method::external);
}

// Ours: how many requests executeAsync() leaves unanswered, named as in a URI.
TEST(SessionSettings, MaxInFlightIsAnOptionOfItsOwn) {
  SessionSettings s("mysqlx://u@h/?max-in-flight=7");
  EXPECT_EQ(s.find(SessionOption::MAX_IN_FLIGHT).get<std::string>(), "7"); // as in the URI
  SessionSettings t(SessionOption::HOST, "h", SessionOption::MAX_IN_FLIGHT, 3);
  EXPECT_EQ(t.find(SessionOption::MAX_IN_FLIGHT).get<int>(), 3);
  EXPECT_EQ(SessionOptionName(SessionOption::MAX_IN_FLIGHT), "MAX_IN_FLIGHT");
}

// Connector/C++ 8 drops the TLS versions it cannot use when connecting; the
// settings take any list (a list with none left fails to connect, over TLS
// only: tls_client.cc), and TLSv1/TLSv1.1 never reach the connection.
// COMPRESSION_ALGORITHMS as Connector/C++ 8 takes it: a null or an empty
// list means no compression; unknown names and repeats are dropped.
TEST(SessionSettings, CompressionAlgorithmsTakeNullAndDropWhatIsUnknown) {
  SessionSettings none(SessionOption::HOST, "h", SessionOption::COMPRESSION_ALGORITHMS, nullptr);
  EXPECT_EQ(connect_options_of(none).compression, cdk::compression_mode::disabled);
  SessionSettings some(SessionOption::HOST, "h", SessionOption::COMPRESSION_ALGORITHMS,
                       std::list<std::string>{"MyALGORITHM", "Lz4_MeSSaGe", "lz4", "zstd"});
  EXPECT_EQ(connect_options_of(some).compression_algorithms,
            (std::vector<std::string>{"lz4_message", "zstd_stream"}));
}

TEST(SessionSettings, TlsVersionListsKeepOnlyUsableVersions) {
  SessionSettings s(SessionOption::HOST, "h", SessionOption::TLS_VERSIONS, "TLSv1.1,TLSv1.2");
  auto o = connect_options_of(s);
  EXPECT_EQ(o.tls.versions, std::vector<std::string>({"TLSv1.2"}));
  s.set(SessionOption::TLS_VERSIONS, std::vector<std::string>{"foo", "TLSv1.3", "TLSv1"});
  EXPECT_EQ(connect_options_of(s).tls.versions, std::vector<std::string>({"TLSv1.3"}));
  for (const char* none : {"SSLv1", "foo", "", "TLSv1.0,TLSv1.1"}) {
    EXPECT_NO_THROW(s.set(SessionOption::TLS_VERSIONS, none)) << none;
    o = connect_options_of(s);
    EXPECT_TRUE(o.tls.versions.empty()) << none;
    EXPECT_TRUE(o.tls.versions_given) << none;
  }
  s.set(SessionOption::TLS_VERSIONS, std::vector<std::string>());
  EXPECT_TRUE(connect_options_of(s).tls.versions_given);
  s.set(SessionOption::TLS_CIPHERSUITES, "foo, TLS_AES_128_GCM_SHA256");
  EXPECT_EQ(connect_options_of(s).tls.ciphersuites,
            std::vector<std::string>({"foo", "TLS_AES_128_GCM_SHA256"}));
}

// Connector/C++ 8 accepts TLS options that the ssl-mode does not use and
// ignores them, and an option given again replaces the earlier value, in a
// connection string as in set().
TEST(SessionSettings, UnusedTlsOptionsAreAcceptedAndTheLastValueWins) {
  for (auto mode : {SSLMode::DISABLED, SSLMode::REQUIRED}) {
    SessionSettings s(SessionOption::HOST, "h", SessionOption::SSL_MODE, mode,
                      SessionOption::SSL_CA, "BAD", SessionOption::SSL_CA, "GOOD",
                      SessionOption::SSL_CAPATH, "/p", SessionOption::SSL_CRL, "/c");
    const auto o = connect_options_of(s);
    EXPECT_EQ(o.tls.ca, "GOOD");
    int seen = 0;
    for (const auto& [opt, value] : s) {
      if (opt == SessionOption::SSL_CA) ++seen;
    }
    EXPECT_EQ(seen, 1);
  }
  SessionSettings d(SessionOption::HOST, "h", SessionOption::SSL_MODE, SSLMode::DISABLED,
                    SessionOption::TLS_VERSIONS, "BAD", SessionOption::TLS_CIPHERSUITES, "BAD");
  EXPECT_EQ(connect_options_of(d).tls.mode, cdk::ssl_mode::disabled);
  SessionSettings u("mysqlx://u@h/?ssl-mode=disabled&ssl-mode=required&tls-version=BAD&"
                    "tls-version=GOOD&ssl-ca=BAD&ssl-ca=GOOD");
  EXPECT_EQ(connect_options_of(u).tls.mode, cdk::ssl_mode::required);
  EXPECT_EQ(u.find(SessionOption::TLS_VERSIONS).get<std::string>(), "GOOD");
  EXPECT_EQ(u.find(SessionOption::SSL_CA).get<std::string>(), "GOOD");
  SessionSettings m(SessionOption::URI, "mysqlx://u@h/?ssl-mode=REQUIRED&ssl-ca=BAD",
                    SessionOption::SSL_MODE, SSLMode::DISABLED, SessionOption::SSL_CA, "GOOD");
  EXPECT_EQ(connect_options_of(m).tls.mode, cdk::ssl_mode::disabled);
  EXPECT_EQ(m.find(SessionOption::SSL_CA).get<std::string>(), "GOOD");
}

TEST(SessionSettings, PasswordNeverAppearsInErrors) {
  // The password given as the value of another option.
  expect_option_error(
      [] { SessionSettings s(SessionOption::PWD, secret, SessionOption::SSL_MODE, secret); },
      "ssl-mode");
  {
    // Unknown names are dropped; with compression required, the session's
    // error names them (cdk::session::check_connectable()), but never the
    // password.
    SessionSettings s(SessionOption::PWD, secret, SessionOption::COMPRESSION,
                      CompressionMode::REQUIRED, SessionOption::COMPRESSION_ALGORITHMS,
                      std::vector<std::string>{secret, "brotli"});
    const auto names = connect_options_of(s).unknown_compression_algorithms;
    ASSERT_TRUE(names.has_value());
    EXPECT_NE(names->find("'brotli'"), std::string::npos) << *names;
    EXPECT_EQ(names->find("S3cret"), std::string::npos) << "password in: " << *names;
  }
  // A connection string with a bad port, a bad option, a stray character.
  expect_option_error([] { SessionSettings s(std::string("mysqlx://u:") + secret + "@h:99999"); },
                      "");
  expect_option_error(
      [] { SessionSettings s(std::string("mysqlx://u:") + secret + "@h/db?ssl-mode=" + secret); },
      "ssl-mode");
  expect_option_error([] { SessionSettings s(std::string("mysqlx://u:") + secret + "@h^/db"); },
                      "");
}

TEST(SessionSettings, FailedSetLeavesTheSettingsUnchanged) {
  SessionSettings s(SessionOption::HOST, "h", SessionOption::SSL_MODE, SSLMode::VERIFY_CA);
  EXPECT_THROW(s.set(SessionOption::DB, "x", SessionOption::PORT, "bad"), Error);
  EXPECT_FALSE(s.has_option(SessionOption::DB));
  EXPECT_EQ(s.find(SessionOption::SSL_MODE).get<int>(), static_cast<int>(SSLMode::VERIFY_CA));
}

// As Connector/C++ 8 code iterates over settings: (option, value) pairs in
// the order set, options that switch and compare with the Enum values, enum
// options as their numbers and a null password as "".
TEST(SessionSettings, IterationGivesOptionsAndValuesInOrder) {
  const char* no_password = nullptr;
  SessionSettings s(SessionOption::AUTH, AuthMethod::PLAIN, SessionOption::HOST, "h1",
                    SessionOption::PORT, 1, SessionOption::HOST, "h2", SessionOption::PWD,
                    no_password);
  std::vector<std::string> seen;
  for (auto entry : s) {
    const SessionOption opt(entry.first);
    seen.push_back(SessionOptionName(opt));
    switch (opt) {
    case SessionOption::AUTH:
      EXPECT_EQ(entry.second.get<int>(), static_cast<int>(AuthMethod::PLAIN));
      break;
    case SessionOption::PORT:
      EXPECT_EQ(entry.second.get<unsigned>(), 1u);
      break;
    case SessionOption::PWD:
      EXPECT_TRUE(entry.second.get<std::string>().empty());
      break;
    default:
      EXPECT_TRUE(opt == SessionOption::HOST);
      break;
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"AUTH", "HOST", "PORT", "HOST", "PWD"}));
  EXPECT_EQ(connect_options_of(s).auth, cdk::auth_method::plain); // the number still means PLAIN
  EXPECT_EQ(SessionSettings().begin(), SessionSettings().end());
}

TEST(ClientSettings, IterationGivesPoolAndSessionOptions) {
  ClientSettings c(ClientOption::POOL_MAX_SIZE, 3, SessionOption::SSL_MODE, SSLMode::DISABLED,
                   SessionOption::HOST, "h");
  std::vector<std::string> seen;
  for (const auto& entry : c) {
    const ClientOption opt(entry.first);
    seen.push_back(ClientOptionName(opt));
    if (entry.first == ClientOption::POOL_MAX_SIZE) {
      EXPECT_EQ(entry.second.get<int>(), 3);
    }
    if (entry.first == SessionOption::SSL_MODE) {
      EXPECT_EQ(entry.second.get<int>(), static_cast<int>(SSLMode::DISABLED));
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"POOL_MAX_SIZE", "SSL_MODE", "HOST"}));
  EXPECT_EQ(connect_options_of(c.sessionSettings()).tls.mode, cdk::ssl_mode::disabled);
  // Option objects: a ClientOption holds either kind, and compares with both Enums.
  ClientOption from_session(SessionOption(SessionOption::PORT));
  EXPECT_TRUE(from_session == SessionOption::PORT);
  EXPECT_TRUE(from_session != ClientOption::POOLING);
  EXPECT_EQ(static_cast<int>(from_session), static_cast<int>(SessionOption::PORT));
  EXPECT_EQ(ClientOptionName(SessionOption::DB), "DB");
}

TEST(SessionSettings, EnumOptionNumbersMustBeValues) {
  expect_option_error([] { connect_options_of(SessionSettings(SessionOption::SSL_MODE, 9)); },
                      "SessionOption::SSL_MODE: 9 is not one of its values");
  expect_option_error([] { connect_options_of(SessionSettings(SessionOption::AUTH, UINT64_MAX)); },
                      "SessionOption::AUTH: 18446744073709551615 is not one of its values");
  auto o = connect_options_of(SessionSettings(SessionOption::COMPRESSION, 1));
  EXPECT_EQ(o.compression, cdk::compression_mode::disabled);
}

TEST(SessionSettings, FindHasEraseClear) {
  SessionSettings s(SessionOption::HOST, "a", SessionOption::PORT, 1, SessionOption::HOST, "b",
                    SessionOption::USER, "u");
  EXPECT_EQ(s.find(SessionOption::HOST).get<std::string>(), "b"); // the last one
  EXPECT_TRUE(s.find(SessionOption::DB).isNull());
  EXPECT_TRUE(s.has_option(SessionOption::USER));
  s.erase(SessionOption::HOST); // the whole host list goes
  EXPECT_FALSE(s.has_option(SessionOption::PORT));
  EXPECT_EQ(connect_options_of(s).hosts[0].host, "localhost");
  s.clear();
  EXPECT_FALSE(s.has_option(SessionOption::USER));
  SessionSettings copy = s;
  copy.set(SessionOption::USER, "v");
  EXPECT_FALSE(s.has_option(SessionOption::USER));
}

TEST(SessionSettings, ConnectionAttributes) {
  auto o = connect_options_of(SessionSettings(SessionOption::CONNECTION_ATTRIBUTES, false));
  EXPECT_FALSE(o.send_connection_attributes);
  o = connect_options_of(
      SessionSettings(SessionOption::CONNECTION_ATTRIBUTES, DbDoc(R"({"app": "shop", "v": "2"})")));
  ASSERT_EQ(o.connection_attributes.size(), 2u);
  EXPECT_EQ(o.connection_attributes[0], (std::pair<std::string, std::string>("app", "shop")));
  o = connect_options_of(SessionSettings(SessionOption::CONNECTION_ATTRIBUTES, R"({"k": "v"})"));
  EXPECT_EQ(o.connection_attributes.at(0).second, "v");
  o = connect_options_of(SessionSettings("mysqlx://u@h?connection-attributes=[a=1,b=2]"));
  EXPECT_EQ(o.connection_attributes.size(), 2u);
  expect_option_error(
      [] { SessionSettings s(SessionOption::CONNECTION_ATTRIBUTES, DbDoc(R"({"n": 1})")); },
      "attribute values must be strings");
  expect_option_error(
      [] { SessionSettings s(SessionOption::CONNECTION_ATTRIBUTES, DbDoc(R"({"_x": "1"})")); },
      "reserved");
}

TEST(ClientSettings, PoolOptionsDefaultsAndOptionList) {
  const PoolOptions d = ClientSettings("mysqlx://u@h").poolOptions();
  EXPECT_TRUE(d.enabled);
  EXPECT_EQ(d.max_size, 25u);
  EXPECT_EQ(d.queue_timeout.count(), 0);
  EXPECT_EQ(d.max_idle_time.count(), 0);
  ClientSettings c("mysqlx://u@h", ClientOption::POOLING, false, ClientOption::POOL_MAX_SIZE, 7,
                   ClientOption::POOL_QUEUE_TIMEOUT, std::chrono::seconds(2),
                   ClientOption::POOL_MAX_IDLE_TIME, 1500);
  const PoolOptions p = c.poolOptions();
  EXPECT_FALSE(p.enabled);
  EXPECT_EQ(p.max_size, 7u);
  EXPECT_EQ(p.queue_timeout, std::chrono::milliseconds(2000));
  EXPECT_EQ(p.max_idle_time, std::chrono::milliseconds(1500));
  EXPECT_EQ(connect_options_of(c).hosts[0].host, "h");
  // Session options, the timeouts among them, apply to every pooled session.
  ClientSettings t("mysqlx://u@h?read-timeout=900", ClientOption::POOL_MAX_SIZE, 2,
                   SessionOption::WRITE_TIMEOUT, std::chrono::milliseconds(40));
  EXPECT_EQ(connect_options_of(t).read_timeout, std::chrono::milliseconds(900));
  EXPECT_EQ(connect_options_of(t).write_timeout, std::chrono::milliseconds(40));
}

TEST(ClientSettings, PoolOptionsFromJson) {
  ClientSettings c(
      "mysqlx://u@h",
      R"({"pooling": {"enabled": true, "maxSize": 3, "queueTimeout": 10, "maxIdleTime": 20}})");
  EXPECT_EQ(c.poolOptions().max_size, 3u);
  EXPECT_EQ(c.poolOptions().max_idle_time, std::chrono::milliseconds(20));
  ClientSettings d("mysqlx://u@h", DbDoc(R"({"pooling": {"maxSize": 4}})"));
  EXPECT_EQ(d.poolOptions().max_size, 4u);
  ClientSettings e("mysqlx://u@other", c);
  EXPECT_EQ(e.poolOptions().max_size, 3u);
  EXPECT_EQ(connect_options_of(e).hosts[0].host, "other");
}

TEST(ClientSettings, Errors) {
  expect_option_error([] { ClientSettings c(ClientOption::POOL_MAX_SIZE, 0); },
                      "ClientOption::POOL_MAX_SIZE: expected a whole number above 0");
  // The same 0 as an unsigned number, as a JSON document may give it.
  expect_option_error([] { ClientSettings c(ClientOption::POOL_MAX_SIZE, std::uint64_t{0}); },
                      "ClientOption::POOL_MAX_SIZE: expected a whole number above 0");
  expect_option_error([] { ClientSettings c(ClientOption::POOL_QUEUE_TIMEOUT, -5); },
                      "ClientOption::POOL_QUEUE_TIMEOUT");
  expect_option_error([] { ClientSettings c(ClientOption::POOLING, 2); }, "true or false");
  expect_option_error([] { ClientSettings c(ClientOption::POOLING, "yes"); }, "true or false");
  expect_option_error([] { ClientSettings c("mysqlx://u@h", R"({"pool": {}})"); },
                      "client option 'pool' is unknown");
  expect_option_error([] { ClientSettings c("mysqlx://u@h", R"({"pooling": {"size": 1}})"); },
                      "'pooling.size' is unknown");
  expect_option_error([] { ClientSettings c("mysqlx://u@h", R"({"pooling": 5})"); },
                      "must be an object");
}

// A CA given without an ssl-mode is used: VERIFY_CA, as Connector/C++ 8
// documents it and MySQL's clients do. (Connector/C++ 8.3's code leaves
// REQUIRED, and its Sess.ssl_session expects a CA file that does not exist
// to be ignored; we do not weaken a certificate check the user asked for.)
// An ssl-mode given says what is checked, and REQUIRED ignores the CA.
TEST(SessionSettings, SslCaAloneMeansVerifyCa) {
  SessionSettings s(SessionOption::HOST, "h", SessionOption::SSL_CA, "ca.pem");
  EXPECT_EQ(connect_options_of(s).tls.mode, cdk::ssl_mode::verify_ca);
  EXPECT_EQ(connect_options_of(SessionSettings("mysqlx://u@h/?ssl-capath=/d")).tls.mode,
            cdk::ssl_mode::verify_ca);
  s.set(SessionOption::SSL_MODE, SSLMode::REQUIRED);
  EXPECT_EQ(connect_options_of(s).tls.mode, cdk::ssl_mode::required);
}

// Connector/C++ 8 takes POOLING as a number too; find() gives it back as set.
TEST(ClientSettings, PoolingTakesOneOrZero) {
  ClientSettings on("mysqlx://u@h:1/test", ClientOption::POOLING, 1, ClientOption::POOL_MAX_SIZE,
                    2);
  EXPECT_EQ(on.find(ClientOption::POOLING).get<int>(), 1);
  EXPECT_TRUE(on.poolOptions().enabled);
  ClientSettings off(ClientOption::POOLING, 0);
  EXPECT_FALSE(off.poolOptions().enabled);
}

TEST(ClientSettings, MixesSessionOptionsAndProjectsThem) {
  ClientSettings c(ClientOption::POOL_MAX_SIZE, 2, SessionOption::HOST, "h", SessionOption::USER,
                   "u");
  c.set(SessionOption::DOCID_MODE, DocIdMode::SERVER, ClientOption::POOLING, true);
  EXPECT_TRUE(c.has_option(ClientOption::POOLING));
  EXPECT_EQ(c.find(SessionOption::USER).get<std::string>(), "u");
  const SessionSettings s = c.sessionSettings();
  EXPECT_EQ(s.find(SessionOption::HOST).get<std::string>(), "h");
  EXPECT_EQ(connect_options_of(s).docids, cdk::docid_mode::server);
}

TEST(OptionNames, DocIdModeParsingAndNames) {
  EXPECT_EQ(parseDocIdMode("Server"), DocIdMode::SERVER);
  EXPECT_EQ(parseDocIdMode("client"), DocIdMode::CLIENT);
  EXPECT_EQ(parseDocIdMode("AUTO"), DocIdMode::AUTO);
  EXPECT_THROW(parseDocIdMode("sometimes"), Error);
  EXPECT_STREQ(optionValueName(DocIdMode::CLIENT), "client");
  EXPECT_STREQ(optionValueName(SSLMode::VERIFY_CA), "verify_ca");
  EXPECT_EQ(SessionOptionName(SessionOption::MAX_MESSAGE_SIZE), "MAX_MESSAGE_SIZE");
  EXPECT_EQ(SessionOptionName(SessionOption::URI), "URI");
  EXPECT_EQ(ClientOptionName(ClientOption::POOL_MAX_IDLE_TIME), "POOL_MAX_IDLE_TIME");
}

} // namespace

TEST(Session, MysqlxSrvLooksTheNameUpInDns) {
  // .invalid never resolves (RFC 2606): whether the resolver answers NXDOMAIN,
  // cannot be reached or times out, the session fails naming the SRV name,
  // and the password stays out of the message. (The lookup itself, the SRV
  // order and failover are tested against a fake DNS server in
  // integration_dns_srv.)
  try {
    mysqlx::Session s(
        "mysqlx+srv://app:s3cr3t-pw@_mysqlx._tcp.db.invalid/shop?connect-timeout=2000");
    FAIL() << "a session on a name that cannot resolve";
  } catch (const mysqlx::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Unable to locate any hosts for _mysqlx._tcp.db.invalid"),
              std::string::npos)
        << what;
    EXPECT_EQ(what.find("s3cr3t-pw"), std::string::npos) << what;
    EXPECT_TRUE(e.isConnectionError()) << what;
  }
}

// A NUL byte in a string option would shift the authentication fields
// ("db\0user\0pw") or cut a host name short for getaddrinfo(): refused,
// named, never quoted (it could be the password).
TEST(SessionSettings, ANulByteInAnyStringOptionIsRefused) {
  using namespace std::string_literals;
  expect_option_error([] { SessionSettings s(SessionOption::DB, "x\0xtest\0xtest-pw"s); },
                      "SessionOption::DB: contains a NUL byte");
  expect_option_error(
      [] { SessionSettings s(SessionOption::HOST, "127.0.0.1\0junk"s, SessionOption::PORT, 1); },
      "SessionOption::HOST: contains a NUL byte");
  expect_option_error([] { SessionSettings s(SessionOption::PWD, "Sup3r\0S3cret!"s); },
                      "SessionOption::PWD: contains a NUL byte");
  expect_option_error([] { SessionSettings s(SessionOption::USER, "\0"s); },
                      "SessionOption::USER: contains a NUL byte");
  expect_option_error([] { SessionSettings s(SessionOption::SSL_CA, "/ca.pem\0.txt"s); },
                      "SessionOption::SSL_CA: contains a NUL byte");
  expect_option_error(
      [] { SessionSettings s(SessionOption::TLS_CIPHERSUITES, std::vector<std::string>{"a\0b"s}); },
      "SessionOption::TLS_CIPHERSUITES: contains a NUL byte");
  expect_option_error(
      [] { SessionSettings s(SessionOption::CONNECTION_ATTRIBUTES, R"({"a": "x\u0000y"})"); },
      "SessionOption::CONNECTION_ATTRIBUTES: contains a NUL byte");
  expect_option_error([] { SessionSettings s("mysqlx://u@h\0junk:1/db"s); },
                      "SessionOption::URI: contains a NUL byte");
  SessionSettings ok(SessionOption::DB, "x");
  expect_option_error([&] { ok.set(SessionOption::DB, "a\0b"s); }, "contains a NUL byte");
  EXPECT_EQ(ok.find(SessionOption::DB).get<std::string>(), "x"); // unchanged
}

// A duration too long for milliseconds used to wrap around
// (hours(5124095576031) became 2,048,384 ms, seconds::max() -1000 ms):
// now it is clamped, and the option's range check refuses it.
TEST(SessionSettings, ADurationTooLongForMillisecondsIsRefusedNotWrapped) {
  EXPECT_EQ(detail::option_value(std::chrono::hours(5124095576031)).get<std::int64_t>(), INT64_MAX);
  EXPECT_EQ(detail::option_value(std::chrono::seconds::min()).get<std::int64_t>(), INT64_MIN);
  for (auto opt : {SessionOption::CONNECT_TIMEOUT, SessionOption::READ_TIMEOUT,
                   SessionOption::WRITE_TIMEOUT, SessionOption::DEAD_PEER_TIMEOUT}) {
    expect_option_error([&] { SessionSettings a(opt, std::chrono::hours(5124095576031)); },
                        "invalid value '9223372036854775807' (expected a whole number of "
                        "milliseconds, 0..");
    expect_option_error([&] { SessionSettings b(opt, std::chrono::seconds::max()); },
                        "a whole number of milliseconds, 0..");
  }
  SessionSettings fine(SessionOption::CONNECT_TIMEOUT, std::chrono::minutes(2));
  EXPECT_EQ(connect_options_of(fine).connect_timeout, std::chrono::minutes(2));
  // A pool's wait may be as long as milliseconds go.
  ClientSettings pool(ClientOption::POOL_QUEUE_TIMEOUT, std::chrono::hours::max(),
                      ClientOption::POOL_MAX_IDLE_TIME, std::chrono::hours::max());
  EXPECT_EQ(detail::pool_options_of(pool).queue_timeout, std::chrono::milliseconds::max());
  EXPECT_EQ(detail::pool_options_of(pool).max_idle_time, std::chrono::milliseconds::max());
}
