// CollectionOptions and CollectionValidation: what Schema::createCollection()
// and Schema::modifyCollection() take (reuse of an existing collection, JSON
// schema validation; MySQL 8.0.19+), with Connector/C++ 8's names and forms.
#pragma once

#include <memory>
#include <mysqlx/detail/export.h>
#include <mysqlx/detail/impl_ptr.h>
#include <mysqlx/value.h>
#include <string>
#include <utility>

// Windows headers define STRICT as a macro; it would hide the level's name.
#ifdef STRICT
#undef STRICT
#endif

MYSQLX_NAMESPACE_BEGIN

namespace detail {
struct collection_options_impl; // devapi/schema_options.h

// The state of CollectionOptions and CollectionValidation; copies are deep.
// A moved-from object may only be assigned to or destroyed.
class MYSQLX_EXPORT collection_options_base {
public:
  collection_options_base();
  collection_options_base(const collection_options_base& other);
  collection_options_base& operator=(const collection_options_base& other);
  collection_options_base(collection_options_base&& other) noexcept;
  collection_options_base& operator=(collection_options_base&& other) noexcept;
  ~collection_options_base();

protected:
  impl_ptr<collection_options_impl> m_impl;
};
} // namespace detail

class CollectionOptions;

/// How a collection's documents are checked: a JSON schema (draft 4, as
/// MySQL's JSON_SCHEMA_VALID) and a level. Built from JSON text
/// (`{"level": "strict", "schema": {...}}`) or from option / value pairs
/// (`CollectionValidation(CollectionValidation::LEVEL, CollectionValidation::STRICT,
/// CollectionValidation::SCHEMA, R"({"type": "object"})")`). Each part may be
/// given once; what is not given is left to the server (a new collection's
/// level is STRICT when a schema is given). Copies are deep; a moved-from
/// object may only be assigned to or destroyed.
class MYSQLX_EXPORT CollectionValidation : private detail::collection_options_base {
public:
  /// The validation level.
  enum Level {
    OFF = 1,   ///< The schema is kept but documents are not checked.
    STRICT = 2 ///< Every added or modified document must match the schema.
  };
  /// What set() and the pair constructor take.
  enum Option {
    SCHEMA = 1, ///< The JSON schema: a DbDoc, or its JSON text (a JSON object).
    LEVEL = 2,  ///< A Level, or its name as a string ("strict" or "off", any case).
    LAST        ///< Not an option: one past the last.
  };

  /// Nothing set.
  CollectionValidation();
  /// From JSON text with the keys "level" (a string) and "schema" (an
  /// object); throws mysqlx::Error naming an unknown key, a value of the
  /// wrong type or invalid JSON.
  CollectionValidation(const char* json); // NOLINT: implicit, as in Connector/C++
  /// The same, from a std::string.
  CollectionValidation(const std::string& json); // NOLINT: implicit, as in Connector/C++
  /// The same, from a document.
  CollectionValidation(const DbDoc& doc); // NOLINT: implicit, as in Connector/C++
  /// From option / value pairs, as set() takes them.
  template <typename... R> CollectionValidation(Option opt, R&&... rest) : CollectionValidation() {
    set(opt, std::forward<R>(rest)...);
  }

  /// Sets option / value pairs (see Option). Throws mysqlx::Error for an
  /// option given twice, a bad level name or schema text that is not a JSON
  /// object; nothing is changed then.
  template <typename... R> void set(R&&... pairs) {
    CollectionValidation tmp(*this);
    tmp.set_pairs(std::forward<R>(pairs)...);
    *this = std::move(tmp);
  }

private:
  void set_pairs() {}
  template <typename V, typename... R> void set_pairs(Option opt, V&& v, R&&... rest) {
    set_one(opt, std::forward<V>(v));
    set_pairs(std::forward<R>(rest)...);
  }
  void set_one(Option opt, Level level);
  void set_one(Option opt, const char* text);
  void set_one(Option opt, const std::string& text);
  void set_one(Option opt, const DbDoc& schema);

  friend class CollectionOptions;
  friend struct detail::access;
};

/// The options of Schema::createCollection() and Schema::modifyCollection():
/// whether an existing collection is returned instead of an error (REUSE,
/// createCollection() only) and its validation. Built from JSON text
/// (`{"reuseExisting": true, "validation": {"level": "strict", "schema":
/// {...}}}`), from a CollectionValidation, or from option / value pairs where
/// CollectionOptions::Option and CollectionValidation::Option may be mixed
/// (`CollectionOptions(CollectionOptions::REUSE, true, CollectionValidation::LEVEL,
/// CollectionValidation::STRICT)`).
class MYSQLX_EXPORT CollectionOptions : private detail::collection_options_base {
public:
  /// What set() and the pair constructor take (with CollectionValidation::Option).
  enum Option {
    REUSE = 1,      ///< bool: return an existing collection of that name.
    VALIDATION = 2, ///< A CollectionValidation (or its JSON text).
    LAST            ///< Not an option: one past the last.
  };

  /// Nothing set: a plain collection, an error if it exists.
  CollectionOptions();
  /// From JSON text with the keys "reuseExisting" (true or false) and
  /// "validation" (see CollectionValidation); throws mysqlx::Error naming an
  /// unknown key, a value of the wrong type or invalid JSON.
  CollectionOptions(const char* json); // NOLINT: implicit, as in Connector/C++
  /// The same, from a std::string.
  CollectionOptions(const std::string& json); // NOLINT: implicit, as in Connector/C++
  /// The same, from a document.
  CollectionOptions(const DbDoc& doc); // NOLINT: implicit, as in Connector/C++
  /// Only a validation.
  CollectionOptions(const CollectionValidation& validation); // NOLINT: implicit, as in C/C++
  /// From option / value pairs, as set() takes them.
  template <typename... R> CollectionOptions(Option opt, R&&... rest) : CollectionOptions() {
    set(opt, std::forward<R>(rest)...);
  }
  /// From option / value pairs starting with a validation option.
  template <typename... R>
  CollectionOptions(CollectionValidation::Option opt, R&&... rest) : CollectionOptions() {
    set(opt, std::forward<R>(rest)...);
  }

  /// Sets option / value pairs (Option or CollectionValidation::Option).
  /// Throws mysqlx::Error for an option given twice (VALIDATION and a
  /// validation part count as the same) or a bad value; nothing is changed then.
  template <typename... R> void set(R&&... pairs) {
    CollectionOptions tmp(*this);
    tmp.set_pairs(std::forward<R>(pairs)...);
    *this = std::move(tmp);
  }

private:
  void set_pairs() {}
  template <typename V, typename... R> void set_pairs(Option opt, V&& v, R&&... rest) {
    set_one(opt, std::forward<V>(v));
    set_pairs(std::forward<R>(rest)...);
  }
  template <typename V, typename... R>
  void set_pairs(CollectionValidation::Option opt, V&& v, R&&... rest) {
    CollectionValidation part;
    part.set_one(opt, std::forward<V>(v));
    merge(part);
    set_pairs(std::forward<R>(rest)...);
  }
  void set_one(Option opt, bool reuse);
  void set_one(Option opt, const char* validation);
  void set_one(Option opt, const CollectionValidation& validation);
  void merge(const CollectionValidation& part);

  friend struct detail::access;
};

MYSQLX_NAMESPACE_END
