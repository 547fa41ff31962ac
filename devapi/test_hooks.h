// What tests observe of a session's prepared statements and of streamed
// results. Not API and never installed: the integration tests include it to
// prove the prepared path is taken and that rows are streamed (the counters are the client's;
// `deallocated` counts Deallocates the server acknowledged, which it does only for a statement it
// holds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mysqlx/result.h>
#include <mysqlx/session.h>
#include <string>

MYSQLX_NAMESPACE_BEGIN
namespace detail {

struct prepared_stats {
  std::uint64_t prepared = 0;    // Prepare messages the server accepted
  std::uint64_t executed = 0;    // Prepare.Execute messages sent
  std::uint64_t deallocated = 0; // Deallocates the server answered with Ok
  std::uint64_t refused = 0;     // Prepares refused (1047 / 1461)
  bool supported = true;         // the session still tries to prepare
};

MYSQLX_EXPORT prepared_stats prepared_stats_of(const Session& s);

/// Rows of a result read from the connection and not fetched yet: a result
/// fetched one row at a time keeps only a row or so buffered, however long
/// its reply is (rows are streamed, not read whole by execute()).
struct stream_stats {
  std::uint64_t buffered = 0;      // rows buffered now
  std::uint64_t peak_buffered = 0; // the most ever buffered at once
  bool complete = false;           // the whole reply has been read
};

MYSQLX_EXPORT stream_stats stream_stats_of(const result_base& r);

/// The compression algorithm the session negotiated ("" when none).
MYSQLX_EXPORT std::string compression_of(const Session& s);

/// The server's message limit the session's connection learnt
/// (mysqlx_max_allowed_packet); 0 while it has not asked.
MYSQLX_EXPORT std::uint64_t message_limit_of(const Session& s);

/// Requests the session sent with executeAsync() whose replies are not
/// read yet.
MYSQLX_EXPORT std::size_t in_flight_of(const Session& s);

/// Switches on one of xserverd's faults for this session's connection
/// (test/xserver/fault_injection.h): Sql.StmtExecute `cmd` in namespace
/// "xserver_test" with the object argument {key: value}, or {} when key is
/// empty. Throws the server's error (MySQL has no such namespace).
MYSQLX_EXPORT void inject_server_fault(Session& s, const std::string& cmd,
                                       const std::string& key = {}, std::uint64_t value = 0);

} // namespace detail
MYSQLX_NAMESPACE_END
