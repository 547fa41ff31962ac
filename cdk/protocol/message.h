// Typed (protobuf) message encoding and decoding on top of frame.h.
//
// This header includes protobuf, so only cdk/protocol's .cc files and
// xserverd include it; the rest of cdk uses the protobuf-free builders in
// messages.h. Either end can use it: the type byte is the caller's.
#pragma once

#include "cdk/foundation/error.h"
#include "cdk/protocol/frame.h"
#include "cdk/protocol/msg_types.h"

#include <climits>
#include <cstdint>
#include <google/protobuf/message_lite.h>
#include <string>
#include <string_view>

namespace cdk::protocol {

// Serializes msg straight into out after a frame header (no temporary copy).
status append_message(std::string& out, std::uint8_t type,
                      const google::protobuf::MessageLite& msg);

template <typename T>
status append_message(std::string& out, T type, const google::protobuf::MessageLite& msg) {
  return append_message(out, type_byte(type), msg);
}

// A payload that is not the message it should be: "malformed X Protocol
// message: <what> <problem>".
error malformed_message(std::string_view what, std::string_view problem = "payload does not parse");

// Parses payload as M; `what` names the message in the error.
template <typename M> result<M> parse_payload(std::string_view payload, std::string_view what) {
  M msg;
  if (payload.size() > static_cast<std::size_t>(INT_MAX) ||
      !msg.ParseFromArray(payload.data(), static_cast<int>(payload.size())))
    return malformed_message(what);
  return msg;
}

// Client side: the server's Error message (type 1) as a cdk::error with
// origin server, code, SQLSTATE, message and fatal = (severity FATAL). A
// payload that does not parse is a fatal malformed_packet connection error.
error decode_server_error(std::string_view payload);

// The error for a server message of a type the exchange did not expect.
error unexpected_message(std::uint8_t got, std::string_view expected);

// Client side: f must be of type `expected`; a server Error becomes its
// cdk::error, any other type is a fatal protocol error.
template <typename M> result<M> expect_server_message(const frame& f, server_msg expected) {
  if (f.type == type_byte(expected)) return parse_payload<M>(f.payload, server_msg_name(f.type));
  if (f.type == type_byte(server_msg::error)) return decode_server_error(f.payload);
  return unexpected_message(f.type, server_msg_name(type_byte(expected)));
}

} // namespace cdk::protocol
