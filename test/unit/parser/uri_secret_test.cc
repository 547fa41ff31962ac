// Passwords never appear in error text. A fuzz-like sweep: well-formed and
// mistyped URIs carrying a distinctive password are mutated one character at
// a time (replace, insert, delete with URI delimiters), and every error
// message is checked for any 4-character piece of the password, in any case.
#include "cdk/parser/uri_options.h"
#include "cdk/parser/uri_parser.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

const std::string& pw() {
  static const std::string value = "Zq9xK7wQ3vJ";
  return value;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// True when `msg` holds any 4-character piece of the password.
bool leaks(const std::string& msg) {
  const std::string m = lower(msg);
  const std::string p = lower(pw());
  for (std::size_t i = 0; i + 4 <= p.size(); ++i) {
    if (m.find(p.substr(i, 4)) != std::string::npos) return true;
  }
  return false;
}

std::string with_pw(std::string tmpl) {
  for (std::size_t at; (at = tmpl.find("PW")) != std::string::npos;) tmpl.replace(at, 2, pw());
  return tmpl;
}

const char* const k_templates[] = {
    // well-formed, with and without option errors
    "mysqlx://app:PW@db.example.com:33060/shop?ssl-mode=verify_ca&ssl-ca=%2Fetc%2Fca.pem",
    "app:PW@[(address=h1:1,priority=100),(address=h2,priority=90)]/db?tls-versions=[TLSv1.2]",
    "app:PW@(/tmp/mysqlx.sock)/db?connection-attributes=[a=b]",
    "mysqlx+srv://app:PW@srv.example.com/db",
    "app:PW@[::1]:33060?auth=plain&compression=required",
    "app:PW@db?ssl-mode=PW",
    "app:PW@db?PW=1",
    "app:PW@db?connection-attributes=[PW=1]",
    "app:PW@db?connection-attributes=[_PW=1]",
    "app:PW@db?tls-versions=[TLSv1.2,PW]",
    "app:PW@db?compression-algorithms=xPWx",
    "app:PW@db?auth=PW&auth=PW",
    "app:PW@db?x=[PW",
    // mistyped: delimiters left unencoded in the password, or no '@'
    "mysqlx://app:Zq9x@K7wQ3vJ@db/shop?ssl-mode=disabled",
    "mysqlx://app:Zq9x/K7wQ3vJ@db/shop",
    "mysqlx://app:Zq9x?K7wQ3vJ@db/shop",
    "mysqlx://app:Zq9x#K7wQ3vJ@db",
    "mysqlx://app:Zq9x K7wQ3vJ@db",
    "mysqlx://app:Zq9x[K7wQ3vJ]@db",
    "mysqlx://app:Zq9x%K7wQ3vJ@db",
    "mysqlx://app:Zq9x:K7wQ3vJ@db:33060:1",
    "app/PW@db",
    "app:PW@",
    "[app:PW@db]",
    "(app:PW@db)",
    "app:PW@db@db2?ssl-mode=bad",
};

// Already two typos away from a URI with user info (no '@' at all): checked
// as they are, not mutated further; one more typo can turn the password into
// an ordinary option name, which no parser can tell from one.
const char* const k_unmutated[] = {
    "mysqlx://app:PW",
    "app:PW/db",
    "app:PW?ssl-mode=x",
    "app:PW:1",
    "app?PW@db",
    "app?ssl-mode=PW@db",
    "db?ssl-mode=PW&connection-attributes=[u=app@db]",
};

const char k_specials[] = "@:/?#[](),=&%% .\t\x01";

std::vector<std::string> mutations(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size()) out.push_back(s.substr(0, i) + s.substr(i + 1)); // delete
    for (const char* c = k_specials; *c; ++c) {
      out.push_back(s.substr(0, i) + *c + s.substr(i)); // insert
      if (i < s.size()) {
        std::string r = s;
        r[i] = *c;
        out.push_back(std::move(r)); // replace
      }
    }
  }
  return out;
}

TEST(uri_secret, detector_finds_a_quoted_password) {
  // Without user info the text is an ordinary value and is quoted: this is
  // what a leak would look like, so the detector must see it.
  auto r = cdk::parse_uri("db?ssl-mode=" + pw());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(leaks(r.err().message)) << r.err().message;
}

TEST(uri_secret, no_error_message_carries_the_password) {
  std::size_t errors = 0, quoted = 0;
  for (const char* tmpl : k_templates) {
    const std::string base = with_pw(tmpl);
    std::vector<std::string> inputs = mutations(base);
    inputs.push_back(base);
    for (const std::string& uri : inputs) {
      for (int level = 0; level < 2; ++level) {
        std::string msg;
        if (level == 0) {
          auto r = cdk::parse_uri_parts(uri);
          if (r.ok()) continue;
          msg = r.err().message;
        } else {
          auto r = cdk::parse_uri(uri);
          if (r.ok()) continue;
          msg = r.err().message;
        }
        ++errors;
        quoted += msg.find('\'') != std::string::npos;
        ASSERT_FALSE(leaks(msg)) << "input: " << uri << "\nmessage: " << msg;
      }
    }
  }
  for (const char* tmpl : k_unmutated) {
    for (const std::string& uri : {with_pw(tmpl), "mysqlx://" + with_pw(tmpl)}) {
      auto r = cdk::parse_uri(uri);
      ASSERT_FALSE(r.ok()) << uri;
      EXPECT_FALSE(leaks(r.err().message)) << "input: " << uri << "\nmessage: " << r.err().message;
    }
  }
  // The sweep must have exercised many error paths, quoting ones included.
  EXPECT_GT(errors, 20000u);
  EXPECT_GT(quoted, 1000u);
}

TEST(uri_secret, values_holding_the_password_are_hidden_but_others_shown) {
  auto r = cdk::parse_uri("app:" + pw() + "@db?ssl-mode=bogus");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("'bogus'"), std::string::npos) << r.err().message;

  r = cdk::parse_uri("app:" + pw() + "@db?ssl-mode=x" + lower(pw()) + "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("not shown: it may contain part of the password"),
            std::string::npos);

  // "app?secret@db": no user info, so "secret@db" reads as an option name.
  r = cdk::parse_uri("app?" + pw() + "@db");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("unknown option (its name is not shown"), std::string::npos)
      << r.err().message;
  r = cdk::parse_uri("app?ssl-mode=" + pw() + "@db");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.err().message.find("not shown: it precedes an '@'"), std::string::npos)
      << r.err().message;
}

TEST(uri_secret, builder_hides_values_holding_its_secret) {
  cdk::connect_options_builder b(pw());
  cdk::uri_option opt{"auth", {"my" + pw()}, true, false, 0};
  auto st = b.set_option(opt);
  ASSERT_FALSE(st.ok());
  EXPECT_FALSE(leaks(st.err().message)) << st.err().message;
  EXPECT_NE(st.err().message.find("option 'auth'"), std::string::npos);
}

TEST(uri_secret, parsed_password_is_exact) {
  auto r = cdk::parse_uri("app:" + pw() + "%40%3A%2F@db");
  ASSERT_TRUE(r.ok()) << r.err().message;
  EXPECT_EQ(r.value().password, pw() + "@:/");
}

} // namespace
