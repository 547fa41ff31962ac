// Reading a document id: which kind it is and what it says.
//
//   DocIdInfo info = describeDocId(id);
//   if (info.format == DocIdFormat::SERVER) std::cout << "server prefix " << info.prefix;
//
// Ids made by MySQL 8.0.11+ (WL#10955) are 28 lower-case hex digits: a 4-digit
// unique prefix, the X Plugin's start time and a serial. Ids this connector
// makes (DocIdMode::CLIENT, or a server that cannot) are 32 lower-case hex
// digits, a UUID version 7: time-ordered, so inserts stay at the end of the
// primary key. Classification is by shape only: an application may supply ids
// that look like either. No server is needed.
#pragma once

#include <cstdint>
#include <memory>
#include <mysqlx/detail/export.h>
#include <string>
#include <string_view>

MYSQLX_NAMESPACE_BEGIN

/// The kinds of document id describeDocId() tells apart.
enum class DocIdFormat {
  SERVER, ///< 28 hex digits, as the MySQL 8.0 X Plugin makes them
  CLIENT, ///< 32 hex digits, a UUID v7 as this connector makes them
  OPAQUE, ///< anything else (an application's own id)
};

/// What describeDocId() read from an id: the fields of its format are set, the
/// others keep their defaults.
struct DocIdInfo {
  DocIdFormat format = DocIdFormat::OPAQUE; ///< which format the id has
  // DocIdFormat::SERVER
  std::uint16_t prefix = 0;          ///< mysqlx_document_id_unique_prefix of the server
  std::uint32_t serverStartTime = 0; ///< X Plugin start, seconds since the Unix epoch
  std::uint64_t serial = 0;          ///< the server's per-document counter
  // DocIdFormat::CLIENT
  std::uint64_t unixMillis = 0; ///< when the id was made, ms since the Unix epoch
  std::uint32_t counter = 0;    ///< orders ids made in the same millisecond
  /// DocIdFormat::OPAQUE: why neither format fits, e.g. "not 28 or 32 characters".
  std::string whyOpaque;
};

/// Classifies `id` by its shape and decodes its parts; no server is involved.
MYSQLX_EXPORT DocIdInfo describeDocId(std::string_view id);

namespace detail {
/// An application's document-id generator behind Session::setDocIdGenerator()
/// (type-erased here rather than with std::function, which would make every
/// file including <mysqlx/xdevapi.h> compile <functional>).
struct docid_source {
  virtual ~docid_source() = default;
  virtual std::string next() = 0;
};
template <typename F> struct docid_callable final : docid_source {
  explicit docid_callable(F fn) : m_fn(std::move(fn)) {}
  std::string next() override { return std::string(m_fn()); }
  F m_fn;
};
} // namespace detail

MYSQLX_NAMESPACE_END
