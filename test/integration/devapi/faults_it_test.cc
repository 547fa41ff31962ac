// What a call does when the connection fails under it. xserverd's fault
// injection (test/xserver/fault_injection.h, switched on for one session's
// connection through devapi/test_hooks.h) closes the connection after a
// number of answered messages, after an Insert commits and before its reply,
// delays a reply past read-timeout, or sends an absurd or truncated frame;
// this binary's own xserverd (fixture xserver_dvfaults) takes the faults, so
// no other test sees them. Host lists are tried against listeners in the
// test that refuse, hang up mid-handshake or never answer.
#include "devapi/test_hooks.h"
#include "it_common.h"

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <functional>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace mysqlx;
using detail::inject_server_fault;

namespace {

std::string uri(const std::string& query = "") {
  const std::string base = devapi_it::env_uri("MYSQLX_TEST_URI_FAULTS");
  return query.empty() ? base : base + "?" + query;
}

// A broken session is closed: the next call says so, as a client error,
// and says what broke it.
void expect_closed(Session& s) {
  try {
    s.sql("SELECT 1").execute();
    ADD_FAILURE() << "the session still answers after its connection broke";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Error::Kind::CLIENT) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("the session is closed: its connection broke on an "
                                          "earlier call (",
                                          0),
              0u)
        << e.what();
  }
}

// Runs `call`, which must fail with a connection error; the session is
// closed afterwards. Returns the error.
template <typename F> Error connection_error_of(Session& s, F&& call) {
  try {
    call();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Error::Kind::CONNECTION) << e.code() << " " << e.what();
    EXPECT_TRUE(e.isConnectionError());
    EXPECT_TRUE(e.isFatal());
    expect_closed(s);
    return e;
  }
  ADD_FAILURE() << "the call succeeded";
  return Error("the call succeeded");
}

class FaultTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_schema = devapi_it::test_schema("dv_fault");
    Session admin(uri());
    admin.dropSchema(m_schema);
    admin.createSchema(m_schema).createCollection("c");
  }
  void TearDown() override { Session(uri()).dropSchema(m_schema); }

  // The session the test breaks; the connector makes the document ids.
  static Session faulty(const std::string& more = "") {
    return Session(uri("docid-mode=client" + (more.empty() ? "" : "&" + more)));
  }
  Collection coll(Session& s) const { return s.getSchema(m_schema).getCollection("c"); }
  // Counted on a connection of its own.
  std::uint64_t stored() const {
    Session s(uri());
    return devapi_it::count_rows(s, m_schema, "c");
  }
  // Adds each document again, with the id the failed add() made for it.
  void readd(const std::vector<std::string>& docs, const std::vector<std::string>& ids) {
    ASSERT_EQ(docs.size(), ids.size());
    Session s(uri());
    auto add = coll(s).add(std::vector<std::string>{});
    for (std::size_t i = 0; i < docs.size(); ++i)
      add.add(R"({"_id": ")" + ids[i] + "\", " + docs[i].substr(1));
    add.execute();
  }

  std::string m_schema;
};

// --- a single add() ---------------------------------------------------------

TEST_F(FaultTest, AddOnAConnectionClosedBeforeItFailsAndARetryWithItsIdsIsSafe) {
  Session s = faulty();
  inject_server_fault(s, "close_after_messages", "count", 1);
  s.sql("SELECT 1").execute(); // answered, then the server closes
  Collection c = coll(s);
  const std::vector<std::string> doc{R"({"n": 1})"};
  Error e = connection_error_of(s, [&] { c.add(doc[0]).execute(); });
  // The Insert went out and no reply came: the connector cannot know.
  EXPECT_TRUE(e.mayHaveBeenApplied());
  ASSERT_EQ(e.getGeneratedIds().size(), 1u);
  EXPECT_EQ(e.getGeneratedIds()[0].size(), 32u);
  EXPECT_EQ(stored(), 0u);
  readd(doc, e.getGeneratedIds());
  EXPECT_EQ(stored(), 1u);
}

TEST_F(FaultTest, AddWhoseReplyIsLostAfterItCommittedMayHaveBeenApplied) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "close_before_insert_ok");
  const std::vector<std::string> docs{R"({"n": 1})", R"({"n": 2})"};
  Error e = connection_error_of(s, [&] { c.add(docs[0], docs[1]).execute(); });
  EXPECT_TRUE(e.mayHaveBeenApplied());
  ASSERT_EQ(e.getGeneratedIds().size(), 2u);
  EXPECT_EQ(stored(), 2u);
  // The retry the ids allow: the server says the documents are there.
  try {
    readd(docs, e.getGeneratedIds());
    ADD_FAILURE() << "documents stored twice";
  } catch (const ServerError& dup) {
    EXPECT_EQ(dup.code(), 5116u) << dup.what();
  }
  EXPECT_EQ(stored(), 2u);
}

TEST_F(FaultTest, AddAnsweredBeforeTheCloseSucceedsAndTheNextCallFails) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "close_after_messages", "count", 1);
  Result r = c.add(R"({"n": 1})").execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 1u);
  connection_error_of(s, [&] { c.find().execute().fetchAll(); });
  EXPECT_EQ(stored(), 1u);
}

TEST_F(FaultTest, AddWithServerIdsCarriesNoIds) {
  Session s(uri()); // 8.0 mode: the server makes the ids
  Collection c = coll(s);
  inject_server_fault(s, "close_before_insert_ok");
  Error e = connection_error_of(s, [&] { c.add(R"({"n": 1})").execute(); });
  EXPECT_TRUE(e.mayHaveBeenApplied());
  EXPECT_TRUE(e.getGeneratedIds().empty());
  EXPECT_EQ(stored(), 1u);
}

// --- requests in flight (executeAsync) -------------------------------------------

// The server answers two messages and closes with four adds in flight.
// Futures whose replies were read before the break succeed; every other
// one fails with a ConnectionError whose request had gone out (so it may
// have been applied), carrying its own client-made ids for a safe retry.
// executeAsync() itself never throws for the break.
TEST_F(FaultTest, AsyncFuturesInFlightWhenTheConnectionBreaksEachFail) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "close_after_messages", "count", 2);
  std::vector<Future<Result>> adds;
  adds.reserve(4);
  for (int i = 0; i < 4; ++i)
    adds.push_back(c.add("{\"n\": " + std::to_string(i) + "}").executeAsync());
  std::uint64_t ok = 0, failed = 0;
  std::set<std::string> ids;
  for (auto& a : adds) {
    try {
      EXPECT_EQ(a.get().getAffectedItemsCount(), 1u);
      EXPECT_EQ(failed, 0u) << "a reply read after the break";
      ++ok;
    } catch (const Error& e) {
      ++failed;
      EXPECT_TRUE(e.isConnectionError()) << e.what();
      EXPECT_TRUE(e.mayHaveBeenApplied()) << e.what();
      ASSERT_EQ(e.getGeneratedIds().size(), 1u) << e.what();
      ids.insert(e.getGeneratedIds()[0]);
    }
  }
  EXPECT_GE(failed, 2u); // the server never read the last two
  EXPECT_EQ(ids.size(), failed);
  EXPECT_GE(stored(), ok);
  EXPECT_LE(stored(), 2u);
  expect_closed(s);
}

// Issue 34: a reply cut while a streamed statement's rows were being read,
// with two adds in flight behind it, on a session that had run a plain
// execute() first. Every request had gone out before the break, so every
// future's error must say it may have been applied (a retry could store a
// document twice), whichever future is waited on first. The later ones
// used to get "the connection was closed" without the flag.
TEST_F(FaultTest, AsyncFuturesBehindABrokenStreamMayHaveBeenApplied) {
  for (int first = 0; first < 3; ++first) {
    SCOPED_TRACE("waited on first: f" + std::to_string(first));
    Session s = faulty();
    Collection c = coll(s);
    c.find().execute().fetchAll(); // a plain execute() before, as in the issue
    inject_server_fault(s, "send_truncated_frame");
    std::vector<std::function<void()>> gets;
    Future<SqlResult> f0 = s.sql("SELECT REPEAT('x', 3000), SLEEP(0.2)").executeAsync();
    Future<Result> f1 = c.add(R"({"a": 1})").executeAsync();
    Future<Result> f2 = c.add(R"({"a": 2})").executeAsync();
    gets.emplace_back([&] { f0.get().fetchAll(); });
    gets.emplace_back([&] { f1.get(); });
    gets.emplace_back([&] { f2.get(); });
    std::swap(gets[0], gets[first]);
    for (std::size_t i = 0; i < gets.size(); ++i) {
      try {
        gets[i]();
        ADD_FAILURE() << "get() " << i << " succeeded after the break";
      } catch (const Error& e) {
        EXPECT_TRUE(e.isConnectionError()) << i << ": " << e.what();
        EXPECT_TRUE(e.mayHaveBeenApplied()) << i << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find("may have applied it"), std::string::npos)
            << i << ": " << e.what();
      }
    }
    expect_closed(s);
  }
}

// --- malformed replies --------------------------------------------------------

TEST_F(FaultTest, AbsurdFrameLengthIsAMalformedPacketNotAnAllocation) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "send_absurd_length");
  // The header announces 2 GiB; the session's limit (64 MiB) refuses it
  // from the header alone.
  Error e = connection_error_of(s, [&] { c.add(R"({"n": 1})").execute(); });
  EXPECT_EQ(e.code(), errc::MALFORMED_PACKET) << e.what();
  EXPECT_NE(std::string(e.what()).find("exceeds the maximum message size"), std::string::npos)
      << e.what();
  EXPECT_TRUE(e.mayHaveBeenApplied());
  EXPECT_EQ(e.getGeneratedIds().size(), 1u);
}

TEST_F(FaultTest, TruncatedFrameIsALostConnection) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "send_truncated_frame");
  Error e = connection_error_of(s, [&] { c.add(R"({"n": 1})").execute(); });
  EXPECT_EQ(e.code(), errc::LOST_CONNECTION) << e.what();
  EXPECT_TRUE(e.mayHaveBeenApplied());
  EXPECT_EQ(stored(), 1u); // the Insert ran; only its reply was cut
}

// A notice that does not decode, and a message no request asked for, in
// front of a reply: the connection is left open, so a connector that skipped
// them would read the reply and succeed.
TEST_F(FaultTest, GarbageNoticeIsAMalformedPacket) {
  Session s = faulty();
  inject_server_fault(s, "send_garbage_notice");
  Error e = connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
  EXPECT_EQ(e.code(), errc::MALFORMED_PACKET) << e.what();
  EXPECT_NE(std::string(e.what()).find("Mysqlx.Notice.Frame"), std::string::npos) << e.what();
}

TEST_F(FaultTest, ReplyOfTheWrongTypeIsAMalformedPacket) {
  Session s = faulty();
  inject_server_fault(s, "send_wrong_type");
  Error e = connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
  EXPECT_EQ(e.code(), errc::MALFORMED_PACKET) << e.what();
  EXPECT_NE(std::string(e.what()).find("Mysqlx.Session.AuthenticateOk"), std::string::npos)
      << e.what();
}

// --- a split add(): all or nothing --------------------------------------------

// Three documents of 40 000 bytes under max-message-size=65536: one per
// Insert. The server sees START TRANSACTION, three Inserts, COMMIT.
std::vector<std::string> split_docs() {
  std::vector<std::string> out;
  for (int i = 0; i < 3; ++i)
    out.push_back(R"({"i": )" + std::to_string(i) + R"(, "pad": ")" + std::string(40000, 'p') +
                  "\"}");
  return out;
}

class SplitFaultTest : public FaultTest, public ::testing::WithParamInterface<int> {};

TEST_P(SplitFaultTest, BreaksLeaveNothingAndARetryWithTheIdsStoresAll) {
  // After 1: before the first part; 2, 3: between parts; 4: after the last
  // part, with COMMIT sent and its reply never read.
  const int answered = GetParam();
  Session s = faulty("max-message-size=65536");
  Collection c = coll(s);
  inject_server_fault(s, "close_after_messages", "count", static_cast<std::uint64_t>(answered));
  const auto all = split_docs();
  Error e = connection_error_of(s, [&] { c.add(all).execute(); });
  // Before COMMIT went out the server rolls the transaction back; once it
  // went out the connector cannot know.
  EXPECT_EQ(e.mayHaveBeenApplied(), answered == 4) << e.what();
  // The message says the same as mayHaveBeenApplied().
  const std::string what = e.what();
  EXPECT_EQ(what.find("may have applied it") != std::string::npos, answered == 4) << what;
  EXPECT_EQ(what.find("nothing of it was applied") != std::string::npos, answered != 4) << what;
  ASSERT_EQ(e.getGeneratedIds().size(), 3u);
  EXPECT_EQ(stored(), 0u);
  readd(all, e.getGeneratedIds());
  EXPECT_EQ(stored(), 3u);
}

INSTANTIATE_TEST_SUITE_P(AnsweredBeforeTheClose, SplitFaultTest, ::testing::Values(1, 2, 3, 4));

TEST_F(FaultTest, SplitAddWhoseCommitWasAnsweredIsComplete) {
  Session s = faulty("max-message-size=65536");
  Collection c = coll(s);
  inject_server_fault(s, "close_after_messages", "count", 5);
  const auto all = split_docs();
  Result r = c.add(all).execute();
  EXPECT_EQ(r.getAffectedItemsCount(), 3u);
  EXPECT_EQ(r.getGeneratedIds().size(), 3u);
  connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
  EXPECT_EQ(stored(), 3u);
}

// --- a find being streamed ------------------------------------------------------

class FindFaultTest : public FaultTest {
protected:
  void SetUp() override {
    FaultTest::SetUp();
    Session s(uri());
    auto add = coll(s).add(std::vector<std::string>{});
    for (int i = 0; i < 300; ++i)
      add.add(R"({"i": )" + std::to_string(i) + R"(, "pad": ")" + std::string(1000, 'f') + "\"}");
    add.execute();
  }
};

TEST_F(FindFaultTest, CloseBeforeTheFind) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "close_after_messages", "count", 1);
  s.sql("SELECT 1").execute();
  connection_error_of(s, [&] { c.find().execute().fetchAll(); });
}

TEST_F(FindFaultTest, ReplyCutWhileRowsAreStreamed) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "send_truncated_frame");
  std::size_t rows = 0;
  connection_error_of(s, [&] {
    DocResult r = c.find().execute();
    while (r.fetchOne()) ++rows;
  });
  EXPECT_LT(rows, 300u);
}

TEST_F(FindFaultTest, CloseAfterTheWholeReplyKeepsItsRows) {
  Session s = faulty();
  Collection c = coll(s);
  inject_server_fault(s, "close_after_messages", "count", 1);
  DocResult r = c.find().execute();
  EXPECT_EQ(r.fetchAll().size(), 300u);
  connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
}

// --- a prepared execute ---------------------------------------------------------

class PreparedFaultTest : public FaultTest {
protected:
  // A find run twice: the second run prepared it, so the next is
  // Prepare.Execute alone.
  static CollectionFind prepared(Session& s, Collection& c) {
    CollectionFind f = c.find("i = :i");
    f.bind("i", 1).execute().fetchAll();
    f.bind("i", 2).execute().fetchAll();
    EXPECT_EQ(detail::prepared_stats_of(s).prepared, 1u);
    return f;
  }
};

TEST_F(PreparedFaultTest, CloseBeforeTheExecute) {
  Session s = faulty();
  Collection c = coll(s);
  CollectionFind f = prepared(s, c);
  inject_server_fault(s, "close_after_messages", "count", 1);
  s.sql("SELECT 1").execute();
  connection_error_of(s, [&] { f.bind("i", 3).execute().fetchAll(); });
}

TEST_F(PreparedFaultTest, ExecuteWhoseReplyIsLateTimesOut) {
  Session s = faulty("read-timeout=300");
  Collection c = coll(s);
  CollectionFind f = prepared(s, c);
  inject_server_fault(s, "delay_reply", "ms", 3000);
  Error e = connection_error_of(s, [&] { f.bind("i", 3).execute().fetchAll(); });
  EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
  EXPECT_NE(std::string(e.what()).find("read-timeout=300 ms"), std::string::npos) << e.what();
}

TEST_F(PreparedFaultTest, CloseAfterTheExecute) {
  Session s = faulty();
  Collection c = coll(s);
  CollectionFind f = prepared(s, c);
  inject_server_fault(s, "close_after_messages", "count", 1);
  f.bind("i", 3).execute().fetchAll();
  EXPECT_EQ(detail::prepared_stats_of(s).executed, 2u);
  connection_error_of(s, [&] { f.bind("i", 4).execute().fetchAll(); });
}

// --- a transaction's COMMIT -----------------------------------------------------

TEST_F(FaultTest, CommitOnAClosedConnectionLeavesTheTransactionRolledBack) {
  Session s = faulty();
  Collection c = coll(s);
  s.startTransaction();
  c.add(R"({"n": 1})").execute();
  inject_server_fault(s, "close_after_messages", "count", 1);
  s.sql("SELECT 1").execute();
  Error e = connection_error_of(s, [&] { s.commit(); });
  EXPECT_TRUE(e.mayHaveBeenApplied()); // COMMIT went out: the connector cannot know
  EXPECT_EQ(stored(), 0u);             // the server rolled back, as MySQL does
}

TEST_F(FaultTest, CommitWhoseReplyIsLateTimesOutAndMayHaveBeenApplied) {
  Session s = faulty("read-timeout=300");
  Collection c = coll(s);
  s.startTransaction();
  c.add(R"({"n": 1})").execute();
  inject_server_fault(s, "delay_reply", "ms", 1500);
  Error e = connection_error_of(s, [&] { s.commit(); });
  EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
  EXPECT_TRUE(e.mayHaveBeenApplied());
  // It was: the server committed and only its reply was late.
  std::uint64_t n = 0;
  for (int i = 0; i < 100 && n == 0; ++i) {
    n = stored();
    if (n == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(n, 1u);
}

TEST_F(FaultTest, CommitAnsweredBeforeTheCloseIsDurable) {
  Session s = faulty();
  Collection c = coll(s);
  s.startTransaction();
  c.add(R"({"n": 1})").execute();
  inject_server_fault(s, "close_after_messages", "count", 1);
  s.commit();
  connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
  EXPECT_EQ(stored(), 1u);
}

// --- read-timeout and write-timeout ---------------------------------------------

TEST_F(FaultTest, ReadTimeoutFromTheUriFailsASilentServer) {
  Session s = faulty("read-timeout=200");
  inject_server_fault(s, "delay_reply", "ms", 3000);
  Error e = connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
  EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
  EXPECT_NE(std::string(e.what()).find("read-timeout=200 ms"), std::string::npos) << e.what();
  EXPECT_TRUE(e.mayHaveBeenApplied());
}

// --- what the error says of the cause (issue 25) ------------------------------

// A server that dies after a large request it accepted (here: it commits
// the Insert and closes before the reply, as a kill would): the connector
// knows the server's limit, so the size cannot be why and is not blamed.
TEST_F(FaultTest, ALostConnectionAfterALargeRequestWithinTheKnownLimitDoesNotBlameTheSize) {
  Session s = faulty();
  Collection c = coll(s);
  const std::string doc = R"({"pad": ")" + std::string(20000, 'k') + "\"}";
  c.add(doc).execute(); // a message over 512 bytes: the connector asks the limit
  ASSERT_EQ(detail::message_limit_of(s), 67108864u);
  inject_server_fault(s, "close_before_insert_ok");
  Error e = connection_error_of(s, [&] { c.add(doc).execute(); });
  const std::string what = e.what();
  EXPECT_EQ(e.code(), errc::LOST_CONNECTION) << what;
  EXPECT_EQ(what.find("closes the connection without an error"), std::string::npos) << what;
  EXPECT_EQ(what.find("too large"), std::string::npos) << what;
  EXPECT_NE(what.find("within the server's limit (mysqlx_max_allowed_packet = 67108864"),
            std::string::npos)
      << what;
  EXPECT_TRUE(e.mayHaveBeenApplied());
  EXPECT_NE(what.find("so the server may have applied it"), std::string::npos) << what;
  EXPECT_EQ(stored(), 2u);
}

// The same after a small request: nothing about sizes at all.
TEST_F(FaultTest, ALostConnectionAfterASmallRequestSaysNothingOfSizes) {
  Session s = faulty();
  inject_server_fault(s, "close_after_messages", "count", 1);
  s.sql("SELECT 1").execute();
  Error e = connection_error_of(s, [&] { s.sql("SELECT 2").execute(); });
  const std::string what = e.what();
  EXPECT_EQ(what.find("mysqlx_max_allowed_packet"), std::string::npos) << what;
  EXPECT_EQ(what.find("message of"), std::string::npos) << what;
  EXPECT_NE(what.find("may have applied it"), std::string::npos) << what;
}

// A silent server after a large request: a timeout naming read-timeout,
// never the size.
TEST_F(FaultTest, ASilentServerAfterALargeRequestIsATimeoutNotASize) {
  Session s = faulty("read-timeout=200");
  const std::string big = "SELECT LENGTH('" + std::string(20000, 's') + "')";
  EXPECT_EQ(s.sql(big).execute().fetchOne()[0].get<int>(), 20000); // learns the limit
  inject_server_fault(s, "delay_reply", "ms", 3000);
  Error e = connection_error_of(s, [&] { s.sql(big).execute(); });
  const std::string what = e.what();
  EXPECT_EQ(e.code(), errc::TIMEOUT) << what;
  EXPECT_NE(what.find("(read-timeout=200 ms passed without a byte from the server)"),
            std::string::npos)
      << what;
  EXPECT_EQ(what.find("mysqlx_max_allowed_packet"), std::string::npos) << what;
  EXPECT_TRUE(e.mayHaveBeenApplied());
  EXPECT_NE(what.find("may have applied it"), std::string::npos) << what;
}

TEST_F(FaultTest, ReadTimeoutAsASessionOption) {
  Session s(SessionOption::URI, uri(), SessionOption::READ_TIMEOUT, std::chrono::milliseconds(200));
  inject_server_fault(s, "delay_reply", "ms", 3000);
  Error e = connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
  EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
}

TEST_F(FaultTest, ALateReplyWithinTheReadTimeoutIsRead) {
  Session s = faulty("read-timeout=5000");
  inject_server_fault(s, "delay_reply", "ms", 300);
  EXPECT_EQ(s.sql("SELECT 7").execute().fetchOne()[0].get<int>(), 7);
}

// dead-peer-timeout bounds a silence of the peer's TCP stack, not of the
// server: a server that acknowledged the request and takes longer than the
// timeout to answer is alive, for execute(), get() and a wait_for() loop.
TEST_F(FaultTest, AReplySlowerThanTheDeadPeerTimeoutIsRead) {
  Session s = faulty("dead-peer-timeout=100");
  inject_server_fault(s, "delay_reply", "ms", 600);
  EXPECT_EQ(s.sql("SELECT 7").execute().fetchOne()[0].get<int>(), 7);
  inject_server_fault(s, "delay_reply", "ms", 600);
  Future<SqlResult> f = s.sql("SELECT 8").executeAsync();
  int timeouts = 0;
  while (f.wait_for(std::chrono::milliseconds(50)) != future_status::ready) ++timeouts;
  EXPECT_GT(timeouts, 2); // it did wait through several dead-peer slices
  EXPECT_EQ(f.get().fetchOne()[0].get<int>(), 8);
  inject_server_fault(s, "delay_reply", "ms", 600);
  EXPECT_EQ(s.sql("SELECT 9").executeAsync().get().fetchOne()[0].get<int>(), 9);
}

TEST_F(FaultTest, WriteTimeoutFailsAServerThatStoppedReading) {
  // The server sleeps before answering START TRANSACTION and reads nothing
  // meanwhile; the split add's 40 parts of 1 MB, all sent before any reply
  // is read, fill the socket buffers. Uncompressed, so they stay 40 MB.
  Session s = faulty("compression=disabled&max-message-size=1100000&write-timeout=300");
  Collection c = coll(s);
  inject_server_fault(s, "delay_reply", "ms", 3000);
  const std::vector<std::string> docs(40, R"({"pad": ")" + std::string(1000000, 'w') + "\"}");
  Error e = connection_error_of(s, [&] { c.add(docs).execute(); });
  EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
  EXPECT_NE(std::string(e.what()).find("write-timeout=300 ms"), std::string::npos) << e.what();
  EXPECT_FALSE(e.mayHaveBeenApplied()); // before COMMIT: rolled back
  EXPECT_NE(std::string(e.what()).find("nothing of it was applied"), std::string::npos) << e.what();
  EXPECT_EQ(e.getGeneratedIds().size(), 40u);
  EXPECT_EQ(stored(), 0u);
}

// The pool drops the connection a timeout broke; the next session works.
TEST_F(FaultTest, PoolDiscardsAConnectionThatTimedOut) {
  Client pool(uri(), ClientOption::POOL_MAX_SIZE, 1, SessionOption::READ_TIMEOUT, 200);
  {
    Session s = pool.getSession();
    inject_server_fault(s, "delay_reply", "ms", 3000);
    Error e = connection_error_of(s, [&] { s.sql("SELECT 1").execute(); });
    EXPECT_EQ(e.code(), errc::TIMEOUT) << e.what();
  }
  Session next = pool.getSession();
  EXPECT_EQ(next.sql("SELECT 2").execute().fetchOne()[0].get<int>(), 2);
}

TEST_F(FaultTest, PoolDiscardsAConnectionThatClosed) {
  Client pool(uri("docid-mode=client"), ClientOption::POOL_MAX_SIZE, 1);
  std::vector<std::string> ids;
  {
    Session s = pool.getSession();
    Collection c = coll(s);
    inject_server_fault(s, "close_before_insert_ok");
    Error e = connection_error_of(s, [&] { c.add(R"({"n": 1})").execute(); });
    ids = e.getGeneratedIds();
  }
  Session next = pool.getSession();
  Collection c = coll(next);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(c.find("_id = :id").bind("id", ids[0]).execute().count(), 1u);
}

// --- fail-over ------------------------------------------------------------------

// A TCP socket bound to 127.0.0.1 at a port the kernel picks; `port` is
// set to it. Listening when `backlog` > 0.
int bound_loopback(int backlog, int& port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      (backlog > 0 && ::listen(fd, backlog) != 0) ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    throw std::runtime_error("cannot bind or listen on 127.0.0.1");
  port = ntohs(a.sin_port);
  return fd;
}

// A port nothing listens on: bound, then released.
int refusing_port() {
  int port = 0;
  ::close(bound_loopback(0, port));
  return port;
}

// A listener that hangs up on each client after its first request (a
// server dying mid-handshake), or one that never accepts: the kernel
// completes the TCP handshake, so the client connects and then waits for a
// server that never speaks.
class listener {
public:
  enum class behaviour { hang_up, silent };
  explicit listener(behaviour b) : m_fd(bound_loopback(8, m_port)) {
    if (b == behaviour::hang_up) m_thread = std::thread([this] { hang_up_loop(); });
  }
  ~listener() {
    ::shutdown(m_fd, SHUT_RDWR);
    ::close(m_fd);
    if (m_thread.joinable()) m_thread.join();
  }
  listener(const listener&) = delete;
  listener& operator=(const listener&) = delete;
  int port() const { return m_port; }
  int accepted() const { return m_accepted.load(); }

private:
  void hang_up_loop() {
    for (;;) {
      int c = ::accept(m_fd, nullptr, nullptr);
      if (c < 0) return;
      ++m_accepted;
      char buf[64];
      (void)::recv(c, buf, sizeof buf, 0);
      ::close(c);
    }
  }
  int m_port = 0;
  int m_fd;
  std::atomic<int> m_accepted{0};
  std::thread m_thread;
};

std::string entry(int port, int priority) {
  return "(address=127.0.0.1:" + std::to_string(port) + ",priority=" + std::to_string(priority) +
         ")";
}

// "mysqlx://xtest:xtest-pw@" of the test server's URI, and its port.
std::string user_part() {
  const std::string u = uri();
  return u.substr(0, u.find('@') + 1);
}
int server_port() {
  const std::string u = uri();
  return std::stoi(u.substr(u.rfind(':') + 1));
}

TEST(Failover, MovesOnInPriorityOrderAndProbesTheNewHost) {
  listener dying(listener::behaviour::hang_up), silent(listener::behaviour::silent);
  const int refused = refusing_port();
  // Listed out of order: priorities decide.
  const std::string hosts = "[" + entry(server_port(), 10) + "," + entry(dying.port(), 90) + "," +
                            entry(refused, 100) + "," + entry(silent.port(), 80) + "]";
  Session s(user_part() + hosts + "?connect-timeout=500");
  EXPECT_EQ(dying.accepted(), 1);
  const std::string schema = devapi_it::test_schema("dv_failover");
  s.dropSchema(schema);
  Collection c = s.createSchema(schema).createCollection("c");
  // The docid probe ran on the server reached: an 8.0-mode server makes ids.
  DocIdList ids = c.add(R"({"n": 1})").execute().getGeneratedIds();
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0].size(), 28u);
  s.dropSchema(schema);
}

TEST(Failover, TheLastErrorNamesEveryHostAndWhy) {
  listener dying(listener::behaviour::hang_up), silent(listener::behaviour::silent);
  const int refused = refusing_port();
  const std::string hosts = "[" + entry(silent.port(), 20) + "," + entry(dying.port(), 50) + "," +
                            entry(refused, 70) + "]";
  try {
    Session s(user_part() + hosts + "?connect-timeout=400");
    FAIL() << "connected to a host that does not serve";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.kind(), Error::Kind::CONNECTION) << m;
    const auto p1 = m.find("127.0.0.1:" + std::to_string(refused) + ": Can't connect");
    const auto p2 = m.find("127.0.0.1:" + std::to_string(dying.port()) + ": Lost connection");
    const auto p3 = m.find("127.0.0.1:" + std::to_string(silent.port()) + ": Timed out");
    ASSERT_NE(p1, std::string::npos) << m;
    ASSERT_NE(p2, std::string::npos) << m;
    ASSERT_NE(p3, std::string::npos) << m;
    EXPECT_LT(p1, p2) << m;
    EXPECT_LT(p2, p3) << m;
    EXPECT_NE(m.find("connect-timeout=400 ms"), std::string::npos) << m;
    EXPECT_EQ(m.find("xtest-pw"), std::string::npos) << m;
  }
}

} // namespace
