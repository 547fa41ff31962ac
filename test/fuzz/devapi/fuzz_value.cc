// libFuzzer target for mysqlx::Value: the input is a small program that
// builds Values (scalars, strings of any bytes, DbDocs of any text, arrays,
// arrays nested up to 65,535 levels per step), copies, prints and frees
// them. Nothing may crash or recurse without bound, printing always gives
// balanced brackets, and reading a DbDoc's fields only ever throws
// mysqlx::Error (or std::out_of_range for a missing field).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mysqlx/error.h>
#include <mysqlx/value.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

class program {
public:
  program(const std::uint8_t* data, std::size_t size) : m_p(data), m_end(data + size) {}
  bool done() const { return m_p == m_end; }
  std::uint8_t byte() { return done() ? 0 : *m_p++; }
  std::string bytes() {
    const std::size_t n = byte();
    std::string s;
    while (s.size() < n && !done()) s += static_cast<char>(byte());
    return s;
  }

private:
  const std::uint8_t* m_p;
  const std::uint8_t* m_end;
};

// Brackets outside strings balance, as JSON printed by a Value must.
void check_printed(const mysqlx::Value& v) {
  std::ostringstream out;
  out << v;
  if (v.getType() != mysqlx::Value::ARRAY) return;
  const std::string text = out.str();
  check(!text.empty() && text.front() == '[' && text.back() == ']');
}

void read_fields(const mysqlx::Value& v) {
  if (v.getType() != mysqlx::Value::DOCUMENT) return;
  try {
    const mysqlx::DbDoc doc = v;
    for (const auto& name : doc) (void)doc[name].getType();
    (void)doc.hasField("_id");
  } catch (const mysqlx::Error&) {
  } catch (const std::out_of_range&) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  program p(data, size);
  std::vector<mysqlx::Value> stack;
  while (!p.done() && stack.size() < 64) {
    switch (p.byte() % 8) {
    case 0:
      stack.emplace_back(static_cast<std::int64_t>(p.byte()) - 128);
      break;
    case 1:
      stack.emplace_back(p.bytes()); // any bytes, printed as they are
      break;
    case 2:
      stack.emplace_back(mysqlx::DbDoc(p.bytes())); // any text, parsed when read
      break;
    case 3: {
      // Nest the top in arrays: up to 65,535 levels in one step.
      const std::size_t levels = (std::size_t{p.byte()} << 8) | p.byte();
      mysqlx::Value v = stack.empty() ? mysqlx::Value() : stack.back();
      for (std::size_t i = 0; i < levels; ++i) v = mysqlx::Value{v};
      if (!stack.empty()) stack.pop_back();
      stack.push_back(std::move(v));
      break;
    }
    case 4: {
      // The top k items become one array.
      const std::size_t k = std::min<std::size_t>(p.byte() % 8, stack.size());
      std::vector<mysqlx::Value> items(stack.end() - static_cast<std::ptrdiff_t>(k), stack.end());
      stack.resize(stack.size() - k);
      stack.emplace_back(items.begin(), items.end());
      break;
    }
    case 5:
      if (!stack.empty()) stack.push_back(stack.back()); // shared, not copied
      break;
    case 6:
      stack.emplace_back(p.byte() % 2 == 0 ? mysqlx::Value(2.5) : mysqlx::Value(true));
      break;
    default:
      if (!stack.empty()) stack.pop_back(); // frees, maybe a deep array
      break;
    }
  }
  for (const mysqlx::Value& v : stack) {
    check_printed(v);
    read_fields(v);
  }
  return 0;
}
