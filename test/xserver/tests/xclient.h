// A tiny raw X Protocol client for xserverd's own tests: it sends protobuf
// messages and returns the server's frames undecoded, so tests assert on
// exactly what went over the wire. Uses cdk's stream and framing.
#pragma once

#include "cdk/foundation/stream.h"
#include "cdk/protocol/compression.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/msg_types.h"
#include "mysqlx.pb.h"
#include "mysqlx_connection.pb.h"
#include "mysqlx_crud.pb.h"
#include "mysqlx_datatypes.pb.h"
#include "mysqlx_notice.pb.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace xtest {

using cdk::protocol::client_msg;
using cdk::protocol::frame;
using cdk::protocol::server_msg;

inline bool is(const frame& f, server_msg t) {
  return f.type == cdk::protocol::type_byte(t);
}

class xclient {
public:
  // Connects to 127.0.0.1:port; reads the ServerHello notice if hello.
  explicit xclient(std::uint16_t port, bool hello = true);

  void send(client_msg type, const google::protobuf::MessageLite& msg);
  void send_raw(const std::string& bytes);
  std::string encode(client_msg type, const google::protobuf::MessageLite& msg);
  // Next frame; nullopt on EOF (the server closed the connection).
  std::optional<frame> read();
  // Frames up to and including the one that ends a reply (Ok, Error,
  // StmtExecuteOk, Capabilities, AuthenticateContinue/Ok, FetchDone only if
  // stop_at_fetch_done).
  std::vector<frame> reply();

  // Bounds each later read (0: none): read() then gives nullopt after it.
  void set_read_timeout(std::chrono::milliseconds timeout);
  bool start_tls(const std::string& ca_file); // CapabilitiesSet tls + handshake
  // After the server accepted CapabilitiesSet{compression}: read compressed
  // frames from now on, and compress what we send if `outgoing`.
  void enable_compression(bool outgoing, const std::string& algorithm = "deflate_stream");
  int compressed_frames_read() const { return m_compressed_read; }
  // Every frame as it came off the wire, Compression messages unexpanded.
  const std::vector<frame>& wire_frames() const { return m_wire_frames; }
  void clear_wire_frames() { m_wire_frames.clear(); }
  // Full MYSQL41 / SHA256_MEMORY exchange, or PLAIN; returns the last reply.
  std::vector<frame> auth(const std::string& mech, const std::string& user,
                          const std::string& password, const std::string& schema = "");
  std::vector<frame> sql(const std::string& stmt, const std::string& ns = "sql");
  std::vector<frame> admin(const std::string& cmd, const std::string& schema,
                           const std::string& name); // namespace mysqlx, object args
  // Crud.Insert of JSON strings (V_STRING literals), DOCUMENT model.
  std::vector<frame> insert_json(const std::string& schema, const std::string& coll,
                                 const std::vector<std::string>& docs, bool upsert = false);
  std::vector<frame> insert(const Mysqlx::Crud::Insert& msg);

private:
  std::unique_ptr<cdk::stream> m_stream;
  cdk::protocol::frame_reader m_reader;
  cdk::protocol::frame_compressor m_compressor;
  cdk::protocol::frame_decoder m_outer; // the same bytes, unexpanded: counts Compression frames
  int m_compressed_read = 0;
  std::vector<frame> m_wire_frames;
};

// Capabilities: Get, one capability of the answer, Set (returns the reply).
Mysqlx::Connection::Capabilities get_caps(xclient& c);
const Mysqlx::Datatypes::Any* find_cap(const Mysqlx::Connection::Capabilities& caps,
                                       const std::string& name);
std::vector<frame> cap_set(xclient& c,
                           const std::vector<std::pair<std::string, Mysqlx::Datatypes::Any>>& caps);

// An OBJECT Any of the given fields, for capabilities and admin arguments.
Mysqlx::Datatypes::Any
any_object(const std::vector<std::pair<std::string, Mysqlx::Datatypes::Any>>& fields);
// A V_STRING scalar Any.
Mysqlx::Datatypes::Any any_string(const std::string& value);
// A V_BOOL scalar Any.
Mysqlx::Datatypes::Any any_bool(bool value);

// Decoding helpers for assertions.
Mysqlx::Error error_of(const frame& f);
struct notice_info {
  std::uint32_t frame_type = 0;
  int scope = 1;
  int param = 0; // SessionStateChanged.param
  std::vector<Mysqlx::Datatypes::Scalar> values;
  Mysqlx::Notice::Warning warning;
};
notice_info notice_of(const frame& f);
// The generated document ids of a reply (from its GENERATED_DOCUMENT_IDS notices).
std::vector<std::string> generated_ids(const std::vector<frame>& frames);
// The text rows of a one-column (or first-column) SELECT: BYTES only.
std::vector<std::string> column_strings(const std::vector<frame>& frames);
std::string describe(const std::vector<frame>& frames); // for failure messages

// Test environment, from variables ctest sets.
std::uint16_t env_port(const char* name);
// A client on `port` logged in as the test user (MYSQL41); throws if the
// login fails. `hello`: as for xclient's constructor.
xclient authed(std::uint16_t port, bool hello = true);
std::string env(const char* name);
std::string unique_name(const std::string& base); // base + pid + counter

} // namespace xtest
