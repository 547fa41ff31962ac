// The mapping from cdk::error to mysqlx exceptions: kind, code, SQLSTATE.
#include "devapi/throw_error.h"

#include <gtest/gtest.h>
#include <mysqlx/error.h>
#include <sstream>
#include <string>

namespace {

using namespace mysqlx;

template <typename Expected> Expected caught(const cdk::error& err) {
  try {
    detail::throw_error(err);
  } catch (const Expected& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type for: " << e.what();
  }
  throw std::logic_error("unreachable");
}

TEST(ErrorMapping, ServerErrorsKeepCodeStateAndText) {
  cdk::error err{5116, "23000", "Document contains a field value that is not unique",
                 cdk::error_origin::server, false};
  const ServerError e = caught<ServerError>(err);
  EXPECT_EQ(e.code(), 5116u);
  EXPECT_EQ(e.sqlState(), "23000");
  EXPECT_STREQ(e.what(), "Document contains a field value that is not unique");
  EXPECT_EQ(e.kind(), Error::Kind::SERVER);
  EXPECT_TRUE(e.isServerError());
  EXPECT_FALSE(e.isClientError());
  EXPECT_FALSE(e.isFatal());
}

TEST(ErrorMapping, FatalServerErrorsStayFatal) {
  cdk::error err{1045, "28000", "Access denied", cdk::error_origin::server, true};
  EXPECT_TRUE(caught<ServerError>(err).isFatal());
}

TEST(ErrorMapping, ConnectionErrors) {
  const auto e = caught<ConnectionError>(
      cdk::error::connection(cdk::client_errc::lost_connection, "connection closed by the server"));
  EXPECT_EQ(e.code(), errc::LOST_CONNECTION);
  EXPECT_EQ(e.kind(), Error::Kind::CONNECTION);
  EXPECT_TRUE(e.isConnectionError());
  EXPECT_TRUE(e.isFatal());
  EXPECT_EQ(e.sqlState(), "HY000");
  EXPECT_FALSE(e.mayHaveBeenApplied()); // nothing was in flight
  EXPECT_TRUE(e.getGeneratedIds().empty());
}

TEST(ErrorMapping, AConnectionErrorSaysWhetherTheRequestMayHaveRun) {
  cdk::error in_flight = cdk::error::connection(cdk::client_errc::timeout, "Timed out");
  in_flight.maybe_applied = true;
  const auto e = caught<ConnectionError>(in_flight);
  EXPECT_TRUE(e.mayHaveBeenApplied());
  const Error copy = e; // a copy keeps it
  EXPECT_TRUE(copy.mayHaveBeenApplied());
  // Only a broken connection leaves a statement in doubt.
  cdk::error server{1062, "23000", "Duplicate entry", cdk::error_origin::server, false};
  server.maybe_applied = true;
  EXPECT_FALSE(caught<ServerError>(server).mayHaveBeenApplied());
}

TEST(ErrorMapping, ClientErrors) {
  const auto e = caught<ClientError>(
      cdk::error::client(cdk::client_errc::bad_document, "Document 2 is not valid JSON"));
  EXPECT_EQ(e.code(), errc::BAD_DOCUMENT);
  EXPECT_EQ(e.kind(), Error::Kind::CLIENT);
  EXPECT_FALSE(e.isFatal());
  cdk::error with_state{cdk::client_errc::usage, "22003", "out of range", cdk::error_origin::client,
                        false};
  EXPECT_EQ(caught<ClientError>(with_state).sqlState(), "22003");
}

TEST(ErrorMapping, EveryKindIsAMysqlxErrorAndARuntimeError) {
  for (auto origin :
       {cdk::error_origin::client, cdk::error_origin::server, cdk::error_origin::connection}) {
    cdk::error err{2000, "HY000", "x", origin, false};
    EXPECT_THROW(detail::throw_error(err), Error);
    EXPECT_THROW(detail::throw_error(err), std::runtime_error);
  }
}

TEST(Error, UserConstructedAndPrinted) {
  Error e("custom failure");
  EXPECT_EQ(e.code(), 0u);
  EXPECT_EQ(e.sqlState(), "HY000");
  EXPECT_TRUE(e.isClientError());
  std::ostringstream out;
  out << e;
  EXPECT_EQ(out.str(), "custom failure");
  Error longer(Error::Kind::SERVER, 1, "4200099", "m");
  EXPECT_EQ(longer.sqlState(), "42000"); // cut to five characters
  Error copy = longer; // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
  EXPECT_EQ(copy.sqlState(), "42000");
}

TEST(ErrorMapping, ResultHelpers) {
  EXPECT_EQ(detail::value_or_throw(cdk::result<int>(7)), 7);
  EXPECT_THROW(detail::value_or_throw(cdk::result<int>(cdk::error::client(4004, "bad"))),
               ClientError);
  EXPECT_THROW(detail::check(cdk::status(cdk::error::client(4004, "bad"))), ClientError);
  EXPECT_NO_THROW(detail::check(cdk::ok()));
}

} // namespace
