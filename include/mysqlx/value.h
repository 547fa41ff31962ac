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
//   number, string, true/false or null the matching UINT64 (an integer of
//   0 or more, as in Connector/C++ 8) or INT64 (a negative one), DOUBLE,
//   STRING (decoded, without quotes), BOOL or VNULL, the same types as DbDoc
//   fields. Both integer types convert to every integer type they fit.
// - SET is RAW, as in Connector/C++ 8: getRawBytes() gives the X Protocol
//   bytes, get<std::string>() and print() the SQL text "a,b,c" ("" for the
//   empty set).
// - BIT is UINT64, BLOB and BINARY are RAW.
//
// Nesting: a Value may nest arrays as deep as a program makes it; copying,
// printing and destroying one take no stack in proportion to its depth. A
// document or array sent to the server may nest at most 100 levels (MySQL's
// limit for JSON documents): add(), set(), arrayInsert(), arrayAppend(),
// patch(), replaceOne() and a table's insert() and update() refuse a deeper
// one with errc::BAD_DOCUMENT before anything is sent.
//
// Design notes:
// - Value is a value type, not a pimpl: it is created by the million when
//   results are read, so scalars are stored inline. Documents and arrays are
//   immutable and shared between copies, which makes copying any Value cheap.
// - `mysqlx::string` (string.h) is a std::string holding UTF-8 that also
//   converts from and to UTF-16 and wide text, as Connector/C++ 8's UTF-16
//   class does. A Value converts implicitly to mysqlx::string (and so to
//   std::string, its base) and explicitly to std::string, as there: two
//   implicit string conversions would make `string s; s = value;` ambiguous.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <memory>
#include <mysqlx/detail/export.h>
#include <mysqlx/string.h>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

MYSQLX_NAMESPACE_BEGIN

using Field = std::string;  ///< a document field name
using byte = unsigned char; ///< one raw byte

class DbDoc;
class Value;
namespace detail {
class doc_impl;      // devapi/doc_impl.h
struct value_access; // devapi/doc_impl.h: DECIMAL, temporal and SET values
} // namespace detail

/// A non-owning view of raw bytes (a BLOB column, a RAW value): the address
/// of the first byte (`first`) and their number (`second`), the pair
/// Connector/C++ 8's `bytes` is, so code that reads those members compiles.
class MYSQLX_EXPORT bytes : public std::pair<const byte*, std::size_t> {
public:
  // The constructors are in the library: instantiating the std::pair
  // constructors they call took g++ 5 ms, in every file including this header.
  /// An empty view.
  bytes() noexcept;
  /// Views `size` bytes at `data`; nothing is copied, so they must outlive the view.
  bytes(const byte* data, std::size_t size) noexcept;
  /// Views the bytes from `first` up to (not including) `last`; nothing is copied.
  bytes(const byte* first, const byte* last) noexcept;
  /// Views the characters of a C string, without its terminating zero; null is empty.
  bytes(const char* text) noexcept; // NOLINT: implicit, as in Connector/C++
  /// Views the bytes `buf.first`, `buf.second` of them.
  bytes(std::pair<const byte*, std::size_t> buf) noexcept;    // NOLINT: implicit
  const byte* begin() const noexcept { return first; }        ///< the first byte
  const byte* end() const noexcept { return first + second; } ///< one past the last byte
  const byte* data() const noexcept { return first; }         ///< the first byte
  std::size_t size() const noexcept { return second; }        ///< the number of bytes
  std::size_t length() const noexcept { return second; }      ///< the same as size()
};

/// A null, number, bool, string, raw bytes, document or array, with checked
/// conversions to C++ types (see the top of value.h for values read from rows).
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
  /// Iterates over the elements of an ARRAY (begin(), end()).
  using const_iterator = std::vector<Value>::const_iterator;
  /// The same as const_iterator: arrays are shared between copies, so read-only.
  using iterator = const_iterator;
  /// mysqlx::string, as Connector/C++ 8 names it inside Value.
  using string = mysqlx::string;

  /// @name Construction (a null Value by default)
  ///@{

  /// A null Value (VNULL).
  Value() noexcept {}
  /// A null Value (VNULL).
  Value(std::nullptr_t) noexcept {} // NOLINT: implicit by design, as in Connector/C++
  /// A STRING holding a copy of `str`.
  Value(const std::string& str);
  /// A STRING that takes over `str`.
  Value(std::string&& str) noexcept;
  /// A STRING holding a copy of `str`.
  Value(std::string_view str);
  /// A STRING holding a copy of `str`; a null pointer gives a null Value.
  Value(const char* str);
  /// STRING from UTF-16 text (stored as UTF-8); null is VNULL.
  Value(const char16_t* str);
  /// STRING from UTF-16 text.
  Value(const std::u16string& str);
  /// STRING from wide text; null is VNULL.
  Value(const wchar_t* str);
  /// STRING from wide text.
  Value(const std::wstring& str);
  /// STRING from UTF-32 text; null is VNULL.
  Value(const char32_t* str);
  /// STRING from UTF-32 text.
  Value(const std::u32string& str);
  /// RAW: a copy of the bytes `data` views.
  Value(const bytes& data);
  /// INT64.
  Value(std::int64_t x) noexcept : m_type(INT64) { m_num.i = x; }
  /// UINT64.
  Value(std::uint64_t x) noexcept : m_type(UINT64) { m_num.u = x; }
  /// FLOAT.
  Value(float x) noexcept : m_type(FLOAT) { m_num.f = x; }
  /// DOUBLE.
  Value(double x) noexcept : m_type(DOUBLE) { m_num.d = x; }
  /// BOOL.
  Value(bool x) noexcept : m_type(BOOL) { m_num.b = x; }
  /// A DOCUMENT sharing `doc`'s data (not parsed here); a null DbDoc gives a null Value.
  Value(const DbDoc& doc) noexcept;
  /// An array: `Value arr = {1, "two", 3.0};`
  Value(std::initializer_list<Value> items);
  /// An array from an iterator range.
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Value(It first, It last) : Value(std::vector<Value>(first, last), array_tag{}) {}

  /// Other signed integer types (int, long, short, ...): INT64.
  template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T>, int> = 0>
  Value(T x) noexcept : Value(static_cast<std::int64_t>(x)) {}
  /// Other unsigned integer types (not bool): UINT64.
  template <typename T, std::enable_if_t<std::is_integral_v<T> && std::is_unsigned_v<T> &&
                                             !std::is_same_v<T, bool>,
                                         int> = 0>
  Value(T x) noexcept : Value(static_cast<std::uint64_t>(x)) {}
  /// A pointer other than `const char*` would silently become a bool.
  template <typename T, std::enable_if_t<!std::is_same_v<std::remove_cv_t<T>, char>, int> = 0>
  Value(T*) = delete;
  ///@}

  /// Copies; documents and arrays are shared, not copied.
  Value(const Value&);
  /// Moves; assign to or destroy the moved-from Value, nothing else.
  Value(Value&&) noexcept;
  /// Copies; documents and arrays are shared, not copied.
  Value& operator=(const Value&);
  /// Moves; assign to or destroy the moved-from Value, nothing else.
  Value& operator=(Value&&) noexcept;
  ~Value();

  /// @name Checked conversions; each throws mysqlx::Error on a mismatch
  ///@{

  /// INT64, UINT64, BOOL (0 or 1) or a DECIMAL without fraction, when it fits in int.
  operator int() const;
  /// UINT64, INT64, BOOL or a DECIMAL without fraction, when non-negative and it fits.
  operator unsigned() const;
  /// INT64, UINT64 up to INT64_MAX, BOOL (0 or 1), or a DECIMAL without fraction that fits.
  operator std::int64_t() const;
  /// UINT64, non-negative INT64, BOOL (0 or 1), or a non-negative DECIMAL without fraction.
  operator std::uint64_t() const;
  /// FLOAT; DOUBLE within float's range (rounded); INT64 or UINT64 only if exact in a float.
  operator float() const;
  /// FLOAT or DOUBLE (a DECIMAL: the nearest double); INT64 or UINT64 only if exact.
  operator double() const;
  /// BOOL, or INT64 / UINT64 (non-zero is true); nothing else, not even a DECIMAL.
  explicit operator bool() const;
  /// STRING or RAW as they are; a DECIMAL, temporal or SET value read from a row: its text.
  explicit operator std::string() const;
  /// The same as a mysqlx::string; also what `std::string s = value;` uses.
  operator string() const; // NOLINT: implicit, as in Connector/C++
  /// The text as UTF-16, wide or UTF-32 characters (`std::u16string(v)`):
  /// what `get<std::u16string>()` gives.
  template <typename C,
            std::enable_if_t<std::is_same_v<C, char16_t> || std::is_same_v<C, wchar_t> ||
                                 std::is_same_v<C, char32_t>,
                             int> = 0>
  explicit operator std::basic_string<C>() const {
    return text_for(std::is_same_v<C, char16_t>  ? "std::u16string"
                    : std::is_same_v<C, wchar_t> ? "std::wstring"
                                                 : "std::u32string");
  }
  /// getRawBytes(): valid while this Value lives.
  explicit operator bytes() const;
  /// A DOCUMENT (sharing its data), or a null DbDoc from a null Value.
  operator DbDoc() const;
  /// `v.get<int>()`, `v.get<std::string>()`, ...: the conversions above.
  /// std::u16string, std::wstring and std::u32string convert the text.
  template <typename T> T get() const { return static_cast<T>(*this); }
  ///@}

  /// The kind of value; a DECIMAL read from a row is DOUBLE, a date or time RAW.
  Type getType() const noexcept { return m_type; }
  /// Whether this is VNULL.
  bool isNull() const noexcept { return m_type == VNULL; }

  /// Raw bytes of a RAW or STRING value (a temporal value: its X Protocol
  /// encoding; a DECIMAL: its text); valid while this Value lives. Throws
  /// mysqlx::Error (errc::USAGE) for any other value.
  bytes getRawBytes() const;

  /// @name Document access; throws mysqlx::Error if this is not a DOCUMENT
  ///@{

  /// Whether `name` is a top-level field; parses the document on first use
  /// (errc::BAD_DOCUMENT if its text is not a valid JSON object).
  bool hasField(const Field& name) const;
  /// A top-level field, as DbDoc::operator[]; std::out_of_range if there is no such field.
  const Value& operator[](const Field& name) const;
  /// The same; a null pointer is read as the field name "".
  const Value& operator[](const char* name) const;
  ///@}

  /// @name Array access; throws mysqlx::Error (errc::USAGE) if this is not an ARRAY
  ///@{

  /// The first element; valid while any copy of this Value lives.
  const_iterator begin() const;
  /// One past the last element.
  const_iterator end() const;
  /// The number of elements.
  std::size_t elementCount() const;
  /// The element at `pos`; std::out_of_range (as std::vector::at() and
  /// Connector/C++ 8) if `pos` is negative or past the end.
  const Value& operator[](int pos) const;
  /// The element at `pos`; throws if `pos` is out of range.
  const Value& operator[](unsigned pos) const;
  /// The element at `pos`; throws if `pos` is out of range.
  const Value& operator[](std::size_t pos) const;
  ///@}

  /// Prints a string as its text and everything else as JSON (a DECIMAL or
  /// temporal value read from a row: its text; raw bytes as they are).
  void print(std::ostream& out) const;

private:
  struct array_tag {};
  Value(std::vector<Value>&& items, array_tag);
  // What a DOUBLE or RAW read from a row also carries (see the top of this
  // file). decimal: m_str is the exact text. raw_with_text (a date, time or
  // SET): m_str is the text
  // followed by the X Protocol bytes, m_num.u the length of the text.
  enum class flavor : unsigned char { plain, decimal, raw_with_text };
  std::string_view text_part() const noexcept;
  // The text, as operator string() gives it; an error names `target`.
  string text_for(const char* target) const;
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
  /// error (invalid JSON, not an object, nesting deeper than 4,096 levels)
  /// is thrown then. The text itself is kept unchanged. What is sent to the
  /// server (add(), set(), patch(), ...) may nest at most 100 levels, MySQL's
  /// limit for a JSON document: deeper is refused before anything is sent.
  explicit DbDoc(const std::string& json);
  /// The same, taking over `json` instead of copying it.
  explicit DbDoc(std::string&& json);

  /// Whether this is a null document (default-constructed), not an empty one.
  bool isNull() const noexcept { return !m_impl; }
  /// Whether this is not a null document.
  explicit operator bool() const noexcept { return !isNull(); }
  /// Whether the DbDoc is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator==(const DbDoc& d, std::nullptr_t) noexcept { return d.isNull(); }
  /// Whether the DbDoc is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator==(std::nullptr_t, const DbDoc& d) noexcept { return d.isNull(); }
  /// Whether not the DbDoc is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator!=(const DbDoc& d, std::nullptr_t) noexcept { return !d.isNull(); }
  /// Whether not the DbDoc is null (`x == 0`, `x == nullptr`, as Connector/C++ 8 code writes it).
  friend bool operator!=(std::nullptr_t, const DbDoc& d) noexcept { return !d.isNull(); }

  /// Whether `name` is a top-level field (false for a null document). Parses
  /// on first use: throws mysqlx::Error (errc::BAD_DOCUMENT) for bad text.
  bool hasField(const Field& name) const;
  /// The type of a top-level field; throws if there is no such field.
  Value::Type fieldType(const Field& name) const;
  /// A top-level field (of duplicated names, the last); throws
  /// std::out_of_range if there is no such field (as std::map::at() and
  /// Connector/C++ 8: the one error that is not a mysqlx::Error),
  /// mysqlx::Error (errc::USAGE) if the document is null, and the parse error
  /// if the text is bad. Valid while any copy of this DbDoc lives.
  const Value& operator[](const Field& name) const;
  /// The same; a null pointer is read as the field name "".
  const Value& operator[](const char* name) const;

  /// Prints the document as JSON: its original text, without surrounding
  /// white space; "null" for a null document.
  void print(std::ostream& out) const;

  /// Iterates over the names of the top-level fields, in document order.
  class MYSQLX_EXPORT Iterator {
  public:
    using iterator_category = std::input_iterator_tag; ///< an input iterator
    using value_type = Field;                          ///< a field name
    using difference_type = std::ptrdiff_t;            ///< a distance between positions
    using pointer = const Field*;                      ///< a pointer to a field name
    using reference = const Field&;                    ///< a field name, by reference

    /// The name of the current field; valid while the DbDoc lives.
    const Field& operator*() const;
    /// Moves to the next field.
    Iterator& operator++() noexcept {
      ++m_pos;
      return *this;
    }
    /// Whether both are at the same position (of the same document).
    bool operator==(const Iterator& other) const noexcept { return m_pos == other.m_pos; }
    /// Whether they are at different positions.
    bool operator!=(const Iterator& other) const noexcept { return m_pos != other.m_pos; }

  private:
    Iterator(const detail::doc_impl* doc, std::size_t pos) noexcept : m_doc(doc), m_pos(pos) {}
    const detail::doc_impl* m_doc; // valid while the DbDoc it came from lives
    std::size_t m_pos;
    friend class DbDoc;
  };
  /// The first field name; parses the document now, so it throws the parse
  /// error (errc::BAD_DOCUMENT) and the iterators do not. Empty for a null document.
  Iterator begin() const;
  /// One past the last field name.
  Iterator end() const;

private:
  explicit DbDoc(std::shared_ptr<const detail::doc_impl> impl) noexcept;
  std::shared_ptr<const detail::doc_impl> m_impl;
  friend struct detail::access;
  friend class Value;
};

/// The null Value, for comparisons and defaults.
inline const Value nullvalue{};

/// Prints `v` with Value::print().
inline std::ostream& operator<<(std::ostream& out, const Value& v) {
  v.print(out);
  return out;
}
/// Prints `doc` with DbDoc::print().
inline std::ostream& operator<<(std::ostream& out, const DbDoc& doc) {
  doc.print(out);
  return out;
}

MYSQLX_NAMESPACE_END
