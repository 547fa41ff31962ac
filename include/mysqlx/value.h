// Value, DbDoc and bytes: the data that flows in and out of the X DevAPI.
//
// A Value holds a null, a number, a bool, a string, raw bytes, a document or
// an array. Conversions to C++ types are checked: a wrong type or a number
// that does not fit throws mysqlx::Error (code errc::USAGE) naming both types,
// instead of truncating. There are no implicit number <-> string conversions.
//
// A DbDoc is a JSON object. It keeps the JSON text it was made from and parses
// it only when a field is read, so a document that is only passed along (for
// example to Collection::add()) is never parsed, and goes on the wire as its
// original text.
//
// Values read from rows (Row::operator[], RowResult / SqlResult):
// - DECIMAL is a DOUBLE, as in Connector/C++ 8, so code that switches on
//   getType() keeps working, but it also keeps the exact text the server
//   sent: get<std::string>() and print() give "12.50", getRawBytes() those
//   characters, get<double>() / get<float>() the nearest value, and the
//   integer conversions the exact integer when the value has no fractional
//   part and fits (DECIMAL(30,0) beyond 2^53 included); otherwise they throw
//   naming the value. A double made in C++ has no text: get<std::string>()
//   throws for it as before.
// - DATE, DATETIME, TIMESTAMP and TIME are RAW, as in Connector/C++ 8:
//   getRawBytes() gives their X Protocol encoding (varints; TIME a sign byte
//   first), the bytes Connector/C++ 8 gives; get<std::string>() and print()
//   give their SQL text: "2024-01-02", "2024-01-02 03:04:05.000006",
//   "-838:59:59". A DATETIME or TIMESTAMP at midnight shows " 00:00:00"
//   although the server leaves the time out; fractional seconds show when
//   the server sends them (always 6 digits).
// - A JSON column holds the Value of its JSON text: an object is a DOCUMENT,
//   an array an ARRAY of Values (nested documents and arrays included), and a
//   number, string, true/false or null the matching INT64 (UINT64 above
//   INT64_MAX), DOUBLE, STRING (decoded, without quotes), BOOL or VNULL, the
//   same types as DbDoc fields. Connector/C++ 8 makes non-negative JSON
//   integers UINT64; here they are INT64 when they fit, and both convert to
//   every integer type they fit.
// - BIT is UINT64, BLOB and BINARY are RAW, SET is an ARRAY of STRINGs.
//
// Design notes:
// - Value is a value type, not a pimpl: it is created by the million when
//   results are read, so scalars are stored inline. Documents and arrays are
//   immutable and shared between copies, which makes copying any Value cheap.
// - `mysqlx::string` is std::string (UTF-8). Connector/C++ 8 uses a UTF-16
//   string class; code that only passes strings along compiles unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <memory>
#include <mysqlx/detail/export.h>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

using string = std::string; ///< UTF-8 text
using Field = std::string;  ///< a document field name
using byte = unsigned char;

class DbDoc;
class Value;
namespace detail {
class doc_impl;      // devapi/doc_impl.h
struct value_access; // devapi/doc_impl.h: DECIMAL and temporal values
} // namespace detail

/// A non-owning view of raw bytes (a BLOB column, a RAW value).
class bytes {
public:
  bytes() = default;
  bytes(const byte* data, std::size_t size) noexcept : m_data(data), m_size(size) {}
  bytes(const byte* first, const byte* last) noexcept
      : m_data(first), m_size(static_cast<std::size_t>(last - first)) {}
  const byte* begin() const noexcept { return m_data; }
  const byte* end() const noexcept { return m_data + m_size; }
  const byte* data() const noexcept { return m_data; }
  std::size_t size() const noexcept { return m_size; }
  std::size_t length() const noexcept { return m_size; }

private:
  const byte* m_data = nullptr;
  std::size_t m_size = 0;
};

class MYSQLX_EXPORT Value {
public:
  /// The kinds of value (getType()).
  enum Type {
    VNULL,    ///< null
    UINT64,   ///< unsigned integer (JSON integers above INT64_MAX)
    INT64,    ///< signed integer (JSON integers that fit in int64_t)
    FLOAT,    ///< float
    DOUBLE,   ///< double (JSON numbers with a fraction or exponent; DECIMAL columns)
    BOOL,     ///< bool
    STRING,   ///< UTF-8 text
    DOCUMENT, ///< a DbDoc
    RAW,      ///< raw bytes (BLOB; DATE, DATETIME, TIMESTAMP and TIME columns)
    ARRAY,    ///< an array of Values
  };
  using const_iterator = std::vector<Value>::const_iterator;
  using iterator = const_iterator; // arrays are shared between copies: read-only

  /// @name Construction (a null Value by default)
  ///@{
  Value() noexcept {}
  Value(std::nullptr_t) noexcept {} // NOLINT: implicit by design, as in Connector/C++
  Value(const std::string& str);
  Value(std::string&& str) noexcept;
  Value(std::string_view str);
  Value(const char* str);
  Value(const bytes& data);
  Value(std::int64_t x) noexcept : m_type(INT64) { m_num.i = x; }
  Value(std::uint64_t x) noexcept : m_type(UINT64) { m_num.u = x; }
  Value(float x) noexcept : m_type(FLOAT) { m_num.f = x; }
  Value(double x) noexcept : m_type(DOUBLE) { m_num.d = x; }
  Value(bool x) noexcept : m_type(BOOL) { m_num.b = x; }
  Value(const DbDoc& doc) noexcept;
  /// An array: `Value arr = {1, "two", 3.0};`
  Value(std::initializer_list<Value> items) : Value(std::vector<Value>(items), array_tag{}) {}
  /// An array from an iterator range.
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Value(It first, It last) : Value(std::vector<Value>(first, last), array_tag{}) {}

  /// Every other integer type goes through int64_t or uint64_t.
  template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T>, int> = 0>
  Value(T x) noexcept : Value(static_cast<std::int64_t>(x)) {}
  template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_unsigned_v<T> &&
                                             !std::is_same_v<T, bool>,
                                         int> = 0>
  Value(T x) noexcept : Value(static_cast<std::uint64_t>(x)) {}
  /// A pointer other than `const char*` would silently become a bool.
  template <typename T, std::enable_if_t<!std::is_same_v<std::remove_cv_t<T>, char>, int> = 0>
  Value(T*) = delete;
  ///@}

  Value(const Value&);
  Value(Value&&) noexcept;
  Value& operator=(const Value&);
  Value& operator=(Value&&) noexcept;
  ~Value();

  /// @name Checked conversions; each throws mysqlx::Error on a mismatch
  ///@{
  operator int() const;            // integers (and bool) that fit
  operator unsigned() const;       // non-negative integers (and bool) that fit
  operator std::int64_t() const;   // integers (and bool) that fit
  operator std::uint64_t() const;  // non-negative integers (and bool)
  operator float() const;          // FLOAT; DOUBLE within range; exact integers
  operator double() const;         // FLOAT, DOUBLE; exact integers
  explicit operator bool() const;  // BOOL; integers (non-zero is true)
  operator std::string() const;    // STRING, RAW; DECIMAL and temporal: their text
  explicit operator bytes() const; // RAW or STRING; valid while this Value lives
  operator DbDoc() const;          // DOCUMENT
  /// `v.get<int>()`, `v.get<std::string>()`, ...: the conversions above.
  template <typename T> T get() const { return static_cast<T>(*this); }
  ///@}

  Type getType() const noexcept { return m_type; }
  bool isNull() const noexcept { return m_type == VNULL; }

  /// Raw bytes of a RAW or STRING value (a temporal value: its X Protocol
  /// encoding; a DECIMAL: its text); valid while this Value lives.
  bytes getRawBytes() const;

  /// @name Document access; throws if this is not a DOCUMENT
  ///@{
  bool hasField(const Field& name) const;
  const Value& operator[](const Field& name) const;
  const Value& operator[](const char* name) const;
  ///@}

  /// @name Array access; throws if this is not an ARRAY
  ///@{
  const_iterator begin() const;
  const_iterator end() const;
  std::size_t elementCount() const;
  const Value& operator[](int pos) const;
  const Value& operator[](unsigned pos) const;
  const Value& operator[](std::size_t pos) const;
  ///@}

  /// Prints a string as its text and everything else as JSON.
  void print(std::ostream& out) const;

private:
  struct array_tag {};
  Value(std::vector<Value>&& items, array_tag);
  // What a DOUBLE or RAW read from a row also carries (see the top of this
  // file). decimal: m_str is the exact text. temporal: m_str is the text
  // followed by the X Protocol bytes, m_num.u the length of the text.
  enum class flavor : unsigned char { plain, decimal, temporal };
  std::string_view text_part() const noexcept;
  std::string describe() const;

  Type m_type = VNULL;
  bool m_expr = false; // a string to be read as an expression: see expr()
  flavor m_flavor = flavor::plain;
  union {
    std::int64_t i;
    std::uint64_t u;
    float f;
    double d;
    bool b;
  } m_num{};
  std::string m_str; // STRING and RAW
  std::shared_ptr<const detail::doc_impl> m_doc;
  std::shared_ptr<const std::vector<Value>> m_arr;

  friend struct detail::access;
  friend struct detail::value_access;
  friend Value expr(std::string text);
};

/// Marks a string as an X DevAPI expression rather than a string value:
/// `coll.modify("true").set("n", expr("n + 1"))`, `find().fields(expr("{'a': a}"))`.
inline Value expr(std::string text) {
  Value v(std::move(text));
  v.m_expr = true;
  return v;
}

/// A JSON document (an object). Copies share the same immutable data.
class MYSQLX_EXPORT DbDoc {
public:
  /// A null document (different from an empty one, `DbDoc("{}")`).
  DbDoc() noexcept = default;
  /// Keeps the text; it is parsed when a field is first read, and a parse
  /// error (invalid JSON, not an object, nesting deeper than 100) is thrown
  /// then. The text itself is kept unchanged.
  explicit DbDoc(const std::string& json);
  explicit DbDoc(std::string&& json);

  bool isNull() const noexcept { return !m_impl; }
  explicit operator bool() const noexcept { return !isNull(); }

  /// Whether `name` is a top-level field.
  bool hasField(const Field& name) const;
  /// The type of a top-level field; throws if there is no such field.
  Value::Type fieldType(const Field& name) const;
  /// A top-level field; throws if there is no such field.
  const Value& operator[](const Field& name) const;
  const Value& operator[](const char* name) const;

  /// Prints the document as JSON: its original text when it has one.
  void print(std::ostream& out) const;

  /// Iterates over the names of the top-level fields, in document order.
  class MYSQLX_EXPORT Iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Field;
    using difference_type = std::ptrdiff_t;
    using pointer = const Field*;
    using reference = const Field&;

    const Field& operator*() const;
    Iterator& operator++() noexcept {
      ++m_pos;
      return *this;
    }
    bool operator==(const Iterator& other) const noexcept { return m_pos == other.m_pos; }
    bool operator!=(const Iterator& other) const noexcept { return m_pos != other.m_pos; }

  private:
    Iterator(const detail::doc_impl* doc, std::size_t pos) noexcept : m_doc(doc), m_pos(pos) {}
    const detail::doc_impl* m_doc; // valid while the DbDoc it came from lives
    std::size_t m_pos;
    friend class DbDoc;
  };
  Iterator begin() const;
  Iterator end() const;

private:
  explicit DbDoc(std::shared_ptr<const detail::doc_impl> impl) noexcept;
  std::shared_ptr<const detail::doc_impl> m_impl;
  friend struct detail::access;
  friend class Value;
};

/// The null Value, for comparisons and defaults.
inline const Value nullvalue{};

inline std::ostream& operator<<(std::ostream& out, const Value& v) {
  v.print(out);
  return out;
}
inline std::ostream& operator<<(std::ostream& out, const DbDoc& doc) {
  doc.print(out);
  return out;
}

MYSQLX_NAMESPACE_END
