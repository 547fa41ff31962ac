// Mysqlx.Expect blocks (facts section 4): no_error, field_exist,
// docid_generated; failed blocks answer every statement with their error.
#pragma once

#include "test/xserver/errors.h"

#include <optional>
#include <string_view>
#include <vector>

namespace Mysqlx::Expect {
class Open;
}

namespace xserver {

// Does this server know the field chain "<client msg>[.<field>...]"?
bool field_chain_supported(std::string_view chain);

class expect_stack {
public:
  explicit expect_stack(bool emulate_57) : m_emulate_57(emulate_57) {}

  // nullopt: reply Ok. An error in a condition pushes nothing; a failed check
  // pushes a failed block and returns its error.
  std::optional<x_error> open(const Mysqlx::Expect::Open& msg);
  std::optional<x_error> close();
  // The error a statement gets without running, if the top block failed.
  std::optional<x_error> blocked() const;
  // A statement failed inside the current block.
  void statement_failed();
  void clear() { m_blocks.clear(); }
  std::size_t depth() const { return m_blocks.size(); }

private:
  struct block {
    bool no_error = false;
    std::optional<x_error> failure;
  };
  bool m_emulate_57;
  std::vector<block> m_blocks;
};

} // namespace xserver
