#include "test/xserver/expect.h"

#include "mysqlx_expect.pb.h"

#include <string>

namespace xserver {

// The chains of the messages and fields xserverd implements. A client probes
// e.g. "18.6" (Insert.upsert) or "6.1" (Session.Reset.keep_open) before it
// relies on them; a chain is listed only when the server really honours it.
bool field_chain_supported(std::string_view chain) {
  static const char* const known[] = {
      "1",     "2",    "2.1",  "3",    "4",    "4.1",  "4.2",  "4.3",   "5",     "5.1",
      "6",     "6.1",  "7",    "12",   "12.1", "12.2", "12.3", "12.4",  "17",    "17.2",
      "17.3",  "17.4", "17.5", "17.6", "17.7", "17.8", "17.9", "17.11", "17.12", "17.13",
      "17.14", "19",   "19.2", "19.3", "19.4", "19.5", "19.6", "19.7",  "19.8",  "19.9",
      "40",    "40.1", "40.2", "41",   "41.1", "41.2", "41.3", "42",    "42.1",  "20",
      "20.1",  "20.2", "20.3", "20.4", "20.5", "20.6", "20.7", "18",    "18.1",  "18.2",
      "18.3",  "18.4", "18.5", "18.6", "24",   "24.1", "24.2", "25"};
  for (const char* k : known)
    if (chain == k) return true;
  return false;
}

std::optional<x_error> expect_stack::open(const Mysqlx::Expect::Open& msg) {
  block b;
  const bool copy_prev = !msg.has_op() || msg.op() == Mysqlx::Expect::Open::EXPECT_CTX_COPY_PREV;
  if (copy_prev && !m_blocks.empty()) b.no_error = m_blocks.back().no_error;
  std::vector<std::string> fields;
  for (const auto& c : msg.cond()) {
    const bool unset = c.has_op() && c.op() == Mysqlx::Expect::Open::Condition::EXPECT_OP_UNSET;
    const std::string& value = c.condition_value();
    switch (c.condition_key()) {
    case Mysqlx::Expect::Open::Condition::EXPECT_NO_ERROR:
      if (unset || value == "0") {
        b.no_error = false;
      } else if (value.empty() || value == "1") {
        b.no_error = true;
      } else {
        return make_error(errc::x_expect_bad_condition_value,
                          "Invalid value '" + value + "' for expectation no_error");
      }
      continue;
    case Mysqlx::Expect::Open::Condition::EXPECT_FIELD_EXIST:
      if (m_emulate_57) break;
      if (!unset) fields.push_back(value);
      continue;
    case Mysqlx::Expect::Open::Condition::EXPECT_DOCID_GENERATED:
      if (m_emulate_57) break;
      continue; // WL#10955 is implemented: always satisfied
    default:
      break;
    }
    // 5.7 knew only key 1 and said so without the number.
    return make_error(errc::x_expect_bad_condition,
                      m_emulate_57 ? "Unknown condition key"
                                   : "Unknown condition key: " + std::to_string(c.condition_key()));
  }
  if (!m_blocks.empty() && m_blocks.back().failure) {
    b.failure = m_blocks.back().failure;
  } else {
    for (const auto& f : fields) {
      if (!field_chain_supported(f)) {
        b.failure = make_error(errc::x_expect_field_exists_failed,
                               "Expectation failed: field_exists = '" + f + "'");
        break;
      }
    }
  }
  m_blocks.push_back(b);
  return b.failure;
}

std::optional<x_error> expect_stack::close() {
  if (m_blocks.empty())
    return make_error(errc::x_expect_not_open, "Expect block currently not open");
  const block b = m_blocks.back();
  m_blocks.pop_back();
  // A failure inside a block is an error in the enclosing block.
  if (b.failure) statement_failed();
  return b.failure;
}

std::optional<x_error> expect_stack::blocked() const {
  if (m_blocks.empty()) return std::nullopt;
  return m_blocks.back().failure;
}

void expect_stack::statement_failed() {
  if (m_blocks.empty()) return;
  block& top = m_blocks.back();
  if (top.no_error && !top.failure)
    top.failure = make_error(errc::x_expect_no_error_failed, "Expectation failed: no_error");
}

} // namespace xserver
