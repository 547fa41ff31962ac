// MySQL 8.0's character sets and collations, under the names Connector/C++ 8
// gives them.
//
//   const CollationInfo& c = Collation<CharacterSet::utf8mb4>::uca0900_ai_ci;
//   c.id();      // 255, the number column metadata carries
//   c.getName(); // "utf8mb4_0900_ai_ci"
//
// A collation whose MySQL name is <cs>_<coll>_<case> is the constant
// Collation<CharacterSet::<cs>>::<coll>_<case>. Two exceptions keep the names
// of Connector/C++ 8: a binary collation has no suffix
// (Collation<CharacterSet::latin1>::bin is latin1_bin), and utf8mb4's
// collations on plain UCA 9.0.0 spell "0900" as uca0900 (uca0900_as_cs is
// utf8mb4_0900_as_cs, uca0900 is utf8mb4_0900_bin).
//
// Why X-macros in a public header: programs written for Connector/C++ 8
// expand its lists themselves. To find a collation by id, for instance, they
// switch over every entry X(CS, ID, COLL, CASE) of each COLLATIONS_##CS of
// CDK_CS_LIST, with `case ID: return &Collation<CharacterSet::CS>::
// COLL_CONST_NAME(COLL, CASE);`. So the macro names, their arguments and
// their order are API. The lists hold ids and name parts only; the names and
// the constants live in the library (devapi/collations.cc), which checks at
// compile time that every entry spells MySQL's name for its id. The ids and
// names are MySQL 8.0.30+'s (utf8mb3_*, not the older utf8_*).
#pragma once

#include <mysqlx/detail/export.h>

MYSQLX_NAMESPACE_BEGIN

/// The character sets of MySQL 8.0 (information_schema.character_sets), in the
/// order Connector/C++ 8 numbers them (that of the ids of their default
/// collations in MySQL 5.7). MySQL's name is the enumerator's.
enum class CharacterSet : unsigned short {
  big5,     ///< Big5 Traditional Chinese
  dec8,     ///< DEC West European
  cp850,    ///< DOS West European
  hp8,      ///< HP West European
  koi8r,    ///< KOI8-R Relcom Russian
  latin1,   ///< cp1252 West European
  latin2,   ///< ISO 8859-2 Central European
  swe7,     ///< 7bit Swedish
  ascii,    ///< US ASCII
  ujis,     ///< EUC-JP Japanese
  sjis,     ///< Shift-JIS Japanese
  hebrew,   ///< ISO 8859-8 Hebrew
  tis620,   ///< TIS620 Thai
  euckr,    ///< EUC-KR Korean
  koi8u,    ///< KOI8-U Ukrainian
  gb2312,   ///< GB2312 Simplified Chinese
  greek,    ///< ISO 8859-7 Greek
  cp1250,   ///< Windows Central European
  gbk,      ///< GBK Simplified Chinese
  latin5,   ///< ISO 8859-9 Turkish
  armscii8, ///< ARMSCII-8 Armenian
  utf8mb3,  ///< UTF-8 of the Basic Multilingual Plane only (named utf8 before MySQL 8.0.30)
  ucs2,     ///< UCS-2 Unicode
  cp866,    ///< DOS Russian
  keybcs2,  ///< DOS Kamenicky Czech-Slovak
  macce,    ///< Mac Central European
  macroman, ///< Mac West European
  cp852,    ///< DOS Central European
  latin7,   ///< ISO 8859-13 Baltic
  utf8mb4,  ///< UTF-8 Unicode, all of it (MySQL 8.0's default)
  cp1251,   ///< Windows Cyrillic
  utf16,    ///< UTF-16 Unicode
  utf16le,  ///< UTF-16LE Unicode
  cp1256,   ///< Windows Arabic
  cp1257,   ///< Windows Baltic
  utf32,    ///< UTF-32 Unicode
  binary,   ///< Binary pseudo charset: bytes (BINARY, VARBINARY, BLOB)
  geostd8,  ///< GEOSTD8 Georgian
  cp932,    ///< SJIS for Windows Japanese
  eucjpms,  ///< UJIS for Windows Japanese
  gb18030,  ///< China National Standard GB18030
};

/// MySQL's name of `cs` ("utf8mb4"), in static storage. Throws Error
/// (errc::USAGE) for a value that is none of the enumerators.
MYSQLX_EXPORT const char* characterSetName(CharacterSet cs);

/// The collations of the character set `CS`: one `static const CollationInfo`
/// member each, named as the top of <mysqlx/collations.h> says
/// (Collation<CharacterSet::latin1>::swedish_ci is latin1_swedish_ci). The
/// lists COLLATIONS_<cs>() below say which there are; all are defined in the
/// library. Collation<CharacterSet::utf8mb4>::utf8mb4 is also utf8mb4_bin.
template <CharacterSet CS> struct Collation;

/// One MySQL collation: its id, name and character set, and how it compares.
/// The only instances are the constants of Collation<> (and their copies).
///
/// A plain value rather than a pimpl: it describes a constant of the library,
/// never changes and is compared by id.
struct CollationInfo {
  /// MySQL's number of the collation, as column metadata and
  /// information_schema.collations give it (255 for utf8mb4_0900_ai_ci).
  unsigned id() const noexcept { return m_id; }
  /// MySQL's name of the collation ("utf8mb4_0900_ai_ci"), in static storage.
  const char* getName() const noexcept { return m_name; }
  /// The character set the collation belongs to.
  CharacterSet getCharacterSet() const noexcept { return m_cs; }
  /// False for the case-insensitive collations (names ending in _ci:
  /// _ci, _ai_ci, _as_ci); true for the others, binary ones included.
  bool isCaseSensitive() const noexcept { return m_case_sensitive; }
  /// True for the binary collations (names ending in _bin, and binary), which
  /// compare code points or bytes.
  bool isBinary() const noexcept { return m_binary; }
  /// The same collation: the same id.
  bool operator==(const CollationInfo& other) const noexcept { return m_id == other.m_id; }
  /// Different collations: different ids.
  bool operator!=(const CollationInfo& other) const noexcept { return m_id != other.m_id; }

private:
  // constexpr, so that the library's constants are initialized before any
  // code runs (constant initialization): other libraries' static
  // initializers may read them.
  constexpr CollationInfo(CharacterSet cs, unsigned id, const char* name, bool case_sensitive,
                          bool binary) noexcept
      : m_cs(cs), m_id(id), m_name(name), m_case_sensitive(case_sensitive), m_binary(binary) {}

  CharacterSet m_cs;
  unsigned m_id;
  const char* m_name;
  bool m_case_sensitive;
  bool m_binary;

  template <CharacterSet> friend struct Collation;
};

// The X-macro lists (the ones Connector/C++ 8 has, with its names and
// argument order; programs expand them).
//
// CDK_CS_LIST(X) calls X(cs) once per character set, in CharacterSet's order.
// COLLATIONS_<cs>(X) calls X(cs, id, coll, case) once per collation of <cs>,
// in the order of their ids; <coll> and <case> are the parts of the constant's
// name that COLL_CONST_NAME(coll, case) joins.
// clang-format off
#define CDK_CS_LIST(X)                  \
  X(big5)                               \
  X(dec8)                               \
  X(cp850)                              \
  X(hp8)                                \
  X(koi8r)                              \
  X(latin1)                             \
  X(latin2)                             \
  X(swe7)                               \
  X(ascii)                              \
  X(ujis)                               \
  X(sjis)                               \
  X(hebrew)                             \
  X(tis620)                             \
  X(euckr)                              \
  X(koi8u)                              \
  X(gb2312)                             \
  X(greek)                              \
  X(cp1250)                             \
  X(gbk)                                \
  X(latin5)                             \
  X(armscii8)                           \
  X(utf8mb3)                            \
  X(ucs2)                               \
  X(cp866)                              \
  X(keybcs2)                            \
  X(macce)                              \
  X(macroman)                           \
  X(cp852)                              \
  X(latin7)                             \
  X(utf8mb4)                            \
  X(cp1251)                             \
  X(utf16)                              \
  X(utf16le)                            \
  X(cp1256)                             \
  X(cp1257)                             \
  X(utf32)                              \
  X(binary)                             \
  X(geostd8)                            \
  X(cp932)                              \
  X(eucjpms)                            \
  X(gb18030)

#define COLLATIONS_big5(X)              \
  X(big5, 1, chinese, ci)               \
  X(big5, 84, bin, bin)

#define COLLATIONS_dec8(X)              \
  X(dec8, 3, swedish, ci)               \
  X(dec8, 69, bin, bin)

#define COLLATIONS_cp850(X)             \
  X(cp850, 4, general, ci)              \
  X(cp850, 80, bin, bin)

#define COLLATIONS_hp8(X)               \
  X(hp8, 6, english, ci)                \
  X(hp8, 72, bin, bin)

#define COLLATIONS_koi8r(X)             \
  X(koi8r, 7, general, ci)              \
  X(koi8r, 74, bin, bin)

#define COLLATIONS_latin1(X)            \
  X(latin1, 5, german1, ci)             \
  X(latin1, 8, swedish, ci)             \
  X(latin1, 15, danish, ci)             \
  X(latin1, 31, german2, ci)            \
  X(latin1, 47, bin, bin)               \
  X(latin1, 48, general, ci)            \
  X(latin1, 49, general, cs)            \
  X(latin1, 94, spanish, ci)

#define COLLATIONS_latin2(X)            \
  X(latin2, 2, czech, cs)               \
  X(latin2, 9, general, ci)             \
  X(latin2, 21, hungarian, ci)          \
  X(latin2, 27, croatian, ci)           \
  X(latin2, 77, bin, bin)

#define COLLATIONS_swe7(X)              \
  X(swe7, 10, swedish, ci)              \
  X(swe7, 82, bin, bin)

#define COLLATIONS_ascii(X)             \
  X(ascii, 11, general, ci)             \
  X(ascii, 65, bin, bin)

#define COLLATIONS_ujis(X)              \
  X(ujis, 12, japanese, ci)             \
  X(ujis, 91, bin, bin)

#define COLLATIONS_sjis(X)              \
  X(sjis, 13, japanese, ci)             \
  X(sjis, 88, bin, bin)

#define COLLATIONS_hebrew(X)            \
  X(hebrew, 16, general, ci)            \
  X(hebrew, 71, bin, bin)

#define COLLATIONS_tis620(X)            \
  X(tis620, 18, thai, ci)               \
  X(tis620, 89, bin, bin)

#define COLLATIONS_euckr(X)             \
  X(euckr, 19, korean, ci)              \
  X(euckr, 85, bin, bin)

#define COLLATIONS_koi8u(X)             \
  X(koi8u, 22, general, ci)             \
  X(koi8u, 75, bin, bin)

#define COLLATIONS_gb2312(X)            \
  X(gb2312, 24, chinese, ci)            \
  X(gb2312, 86, bin, bin)

#define COLLATIONS_greek(X)             \
  X(greek, 25, general, ci)             \
  X(greek, 70, bin, bin)

#define COLLATIONS_cp1250(X)            \
  X(cp1250, 26, general, ci)            \
  X(cp1250, 34, czech, cs)              \
  X(cp1250, 44, croatian, ci)           \
  X(cp1250, 66, bin, bin)               \
  X(cp1250, 99, polish, ci)

#define COLLATIONS_gbk(X)               \
  X(gbk, 28, chinese, ci)               \
  X(gbk, 87, bin, bin)

#define COLLATIONS_latin5(X)            \
  X(latin5, 30, turkish, ci)            \
  X(latin5, 78, bin, bin)

#define COLLATIONS_armscii8(X)          \
  X(armscii8, 32, general, ci)          \
  X(armscii8, 64, bin, bin)

#define COLLATIONS_utf8mb3(X)           \
  X(utf8mb3, 33, general, ci)           \
  X(utf8mb3, 76, tolower, ci)           \
  X(utf8mb3, 83, bin, bin)              \
  X(utf8mb3, 192, unicode, ci)          \
  X(utf8mb3, 193, icelandic, ci)        \
  X(utf8mb3, 194, latvian, ci)          \
  X(utf8mb3, 195, romanian, ci)         \
  X(utf8mb3, 196, slovenian, ci)        \
  X(utf8mb3, 197, polish, ci)           \
  X(utf8mb3, 198, estonian, ci)         \
  X(utf8mb3, 199, spanish, ci)          \
  X(utf8mb3, 200, swedish, ci)          \
  X(utf8mb3, 201, turkish, ci)          \
  X(utf8mb3, 202, czech, ci)            \
  X(utf8mb3, 203, danish, ci)           \
  X(utf8mb3, 204, lithuanian, ci)       \
  X(utf8mb3, 205, slovak, ci)           \
  X(utf8mb3, 206, spanish2, ci)         \
  X(utf8mb3, 207, roman, ci)            \
  X(utf8mb3, 208, persian, ci)          \
  X(utf8mb3, 209, esperanto, ci)        \
  X(utf8mb3, 210, hungarian, ci)        \
  X(utf8mb3, 211, sinhala, ci)          \
  X(utf8mb3, 212, german2, ci)          \
  X(utf8mb3, 213, croatian, ci)         \
  X(utf8mb3, 214, unicode_520, ci)      \
  X(utf8mb3, 215, vietnamese, ci)       \
  X(utf8mb3, 223, general_mysql500, ci)

#define COLLATIONS_ucs2(X)              \
  X(ucs2, 35, general, ci)              \
  X(ucs2, 90, bin, bin)                 \
  X(ucs2, 128, unicode, ci)             \
  X(ucs2, 129, icelandic, ci)           \
  X(ucs2, 130, latvian, ci)             \
  X(ucs2, 131, romanian, ci)            \
  X(ucs2, 132, slovenian, ci)           \
  X(ucs2, 133, polish, ci)              \
  X(ucs2, 134, estonian, ci)            \
  X(ucs2, 135, spanish, ci)             \
  X(ucs2, 136, swedish, ci)             \
  X(ucs2, 137, turkish, ci)             \
  X(ucs2, 138, czech, ci)               \
  X(ucs2, 139, danish, ci)              \
  X(ucs2, 140, lithuanian, ci)          \
  X(ucs2, 141, slovak, ci)              \
  X(ucs2, 142, spanish2, ci)            \
  X(ucs2, 143, roman, ci)               \
  X(ucs2, 144, persian, ci)             \
  X(ucs2, 145, esperanto, ci)           \
  X(ucs2, 146, hungarian, ci)           \
  X(ucs2, 147, sinhala, ci)             \
  X(ucs2, 148, german2, ci)             \
  X(ucs2, 149, croatian, ci)            \
  X(ucs2, 150, unicode_520, ci)         \
  X(ucs2, 151, vietnamese, ci)          \
  X(ucs2, 159, general_mysql500, ci)

#define COLLATIONS_cp866(X)             \
  X(cp866, 36, general, ci)             \
  X(cp866, 68, bin, bin)

#define COLLATIONS_keybcs2(X)           \
  X(keybcs2, 37, general, ci)           \
  X(keybcs2, 73, bin, bin)

#define COLLATIONS_macce(X)             \
  X(macce, 38, general, ci)             \
  X(macce, 43, bin, bin)

#define COLLATIONS_macroman(X)          \
  X(macroman, 39, general, ci)          \
  X(macroman, 53, bin, bin)

#define COLLATIONS_cp852(X)             \
  X(cp852, 40, general, ci)             \
  X(cp852, 81, bin, bin)

#define COLLATIONS_latin7(X)            \
  X(latin7, 20, estonian, cs)           \
  X(latin7, 41, general, ci)            \
  X(latin7, 42, general, cs)            \
  X(latin7, 79, bin, bin)

#define COLLATIONS_utf8mb4(X)           \
  X(utf8mb4, 45, general, ci)           \
  X(utf8mb4, 46, bin, bin)              \
  X(utf8mb4, 224, unicode, ci)          \
  X(utf8mb4, 225, icelandic, ci)        \
  X(utf8mb4, 226, latvian, ci)          \
  X(utf8mb4, 227, romanian, ci)         \
  X(utf8mb4, 228, slovenian, ci)        \
  X(utf8mb4, 229, polish, ci)           \
  X(utf8mb4, 230, estonian, ci)         \
  X(utf8mb4, 231, spanish, ci)          \
  X(utf8mb4, 232, swedish, ci)          \
  X(utf8mb4, 233, turkish, ci)          \
  X(utf8mb4, 234, czech, ci)            \
  X(utf8mb4, 235, danish, ci)           \
  X(utf8mb4, 236, lithuanian, ci)       \
  X(utf8mb4, 237, slovak, ci)           \
  X(utf8mb4, 238, spanish2, ci)         \
  X(utf8mb4, 239, roman, ci)            \
  X(utf8mb4, 240, persian, ci)          \
  X(utf8mb4, 241, esperanto, ci)        \
  X(utf8mb4, 242, hungarian, ci)        \
  X(utf8mb4, 243, sinhala, ci)          \
  X(utf8mb4, 244, german2, ci)          \
  X(utf8mb4, 245, croatian, ci)         \
  X(utf8mb4, 246, unicode_520, ci)      \
  X(utf8mb4, 247, vietnamese, ci)       \
  X(utf8mb4, 255, uca0900, ai_ci)       \
  X(utf8mb4, 256, de_pb_0900, ai_ci)    \
  X(utf8mb4, 257, is_0900, ai_ci)       \
  X(utf8mb4, 258, lv_0900, ai_ci)       \
  X(utf8mb4, 259, ro_0900, ai_ci)       \
  X(utf8mb4, 260, sl_0900, ai_ci)       \
  X(utf8mb4, 261, pl_0900, ai_ci)       \
  X(utf8mb4, 262, et_0900, ai_ci)       \
  X(utf8mb4, 263, es_0900, ai_ci)       \
  X(utf8mb4, 264, sv_0900, ai_ci)       \
  X(utf8mb4, 265, tr_0900, ai_ci)       \
  X(utf8mb4, 266, cs_0900, ai_ci)       \
  X(utf8mb4, 267, da_0900, ai_ci)       \
  X(utf8mb4, 268, lt_0900, ai_ci)       \
  X(utf8mb4, 269, sk_0900, ai_ci)       \
  X(utf8mb4, 270, es_trad_0900, ai_ci)  \
  X(utf8mb4, 271, la_0900, ai_ci)       \
  X(utf8mb4, 273, eo_0900, ai_ci)       \
  X(utf8mb4, 274, hu_0900, ai_ci)       \
  X(utf8mb4, 275, hr_0900, ai_ci)       \
  X(utf8mb4, 277, vi_0900, ai_ci)       \
  X(utf8mb4, 278, uca0900, as_cs)       \
  X(utf8mb4, 279, de_pb_0900, as_cs)    \
  X(utf8mb4, 280, is_0900, as_cs)       \
  X(utf8mb4, 281, lv_0900, as_cs)       \
  X(utf8mb4, 282, ro_0900, as_cs)       \
  X(utf8mb4, 283, sl_0900, as_cs)       \
  X(utf8mb4, 284, pl_0900, as_cs)       \
  X(utf8mb4, 285, et_0900, as_cs)       \
  X(utf8mb4, 286, es_0900, as_cs)       \
  X(utf8mb4, 287, sv_0900, as_cs)       \
  X(utf8mb4, 288, tr_0900, as_cs)       \
  X(utf8mb4, 289, cs_0900, as_cs)       \
  X(utf8mb4, 290, da_0900, as_cs)       \
  X(utf8mb4, 291, lt_0900, as_cs)       \
  X(utf8mb4, 292, sk_0900, as_cs)       \
  X(utf8mb4, 293, es_trad_0900, as_cs)  \
  X(utf8mb4, 294, la_0900, as_cs)       \
  X(utf8mb4, 296, eo_0900, as_cs)       \
  X(utf8mb4, 297, hu_0900, as_cs)       \
  X(utf8mb4, 298, hr_0900, as_cs)       \
  X(utf8mb4, 300, vi_0900, as_cs)       \
  X(utf8mb4, 303, ja_0900, as_cs)       \
  X(utf8mb4, 304, ja_0900, as_cs_ks)    \
  X(utf8mb4, 305, uca0900, as_ci)       \
  X(utf8mb4, 306, ru_0900, ai_ci)       \
  X(utf8mb4, 307, ru_0900, as_cs)       \
  X(utf8mb4, 308, zh_0900, as_cs)       \
  X(utf8mb4, 309, uca0900, bin)         \
  X(utf8mb4, 310, nb_0900, ai_ci)       \
  X(utf8mb4, 311, nb_0900, as_cs)       \
  X(utf8mb4, 312, nn_0900, ai_ci)       \
  X(utf8mb4, 313, nn_0900, as_cs)       \
  X(utf8mb4, 314, sr_latn_0900, ai_ci)  \
  X(utf8mb4, 315, sr_latn_0900, as_cs)  \
  X(utf8mb4, 316, bs_0900, ai_ci)       \
  X(utf8mb4, 317, bs_0900, as_cs)       \
  X(utf8mb4, 318, bg_0900, ai_ci)       \
  X(utf8mb4, 319, bg_0900, as_cs)       \
  X(utf8mb4, 320, gl_0900, ai_ci)       \
  X(utf8mb4, 321, gl_0900, as_cs)       \
  X(utf8mb4, 322, mn_cyrl_0900, ai_ci)  \
  X(utf8mb4, 323, mn_cyrl_0900, as_cs)

#define COLLATIONS_cp1251(X)            \
  X(cp1251, 14, bulgarian, ci)          \
  X(cp1251, 23, ukrainian, ci)          \
  X(cp1251, 50, bin, bin)               \
  X(cp1251, 51, general, ci)            \
  X(cp1251, 52, general, cs)

#define COLLATIONS_utf16(X)             \
  X(utf16, 54, general, ci)             \
  X(utf16, 55, bin, bin)                \
  X(utf16, 101, unicode, ci)            \
  X(utf16, 102, icelandic, ci)          \
  X(utf16, 103, latvian, ci)            \
  X(utf16, 104, romanian, ci)           \
  X(utf16, 105, slovenian, ci)          \
  X(utf16, 106, polish, ci)             \
  X(utf16, 107, estonian, ci)           \
  X(utf16, 108, spanish, ci)            \
  X(utf16, 109, swedish, ci)            \
  X(utf16, 110, turkish, ci)            \
  X(utf16, 111, czech, ci)              \
  X(utf16, 112, danish, ci)             \
  X(utf16, 113, lithuanian, ci)         \
  X(utf16, 114, slovak, ci)             \
  X(utf16, 115, spanish2, ci)           \
  X(utf16, 116, roman, ci)              \
  X(utf16, 117, persian, ci)            \
  X(utf16, 118, esperanto, ci)          \
  X(utf16, 119, hungarian, ci)          \
  X(utf16, 120, sinhala, ci)            \
  X(utf16, 121, german2, ci)            \
  X(utf16, 122, croatian, ci)           \
  X(utf16, 123, unicode_520, ci)        \
  X(utf16, 124, vietnamese, ci)

#define COLLATIONS_utf16le(X)           \
  X(utf16le, 56, general, ci)           \
  X(utf16le, 62, bin, bin)

#define COLLATIONS_cp1256(X)            \
  X(cp1256, 57, general, ci)            \
  X(cp1256, 67, bin, bin)

#define COLLATIONS_cp1257(X)            \
  X(cp1257, 29, lithuanian, ci)         \
  X(cp1257, 58, bin, bin)               \
  X(cp1257, 59, general, ci)

#define COLLATIONS_utf32(X)             \
  X(utf32, 60, general, ci)             \
  X(utf32, 61, bin, bin)                \
  X(utf32, 160, unicode, ci)            \
  X(utf32, 161, icelandic, ci)          \
  X(utf32, 162, latvian, ci)            \
  X(utf32, 163, romanian, ci)           \
  X(utf32, 164, slovenian, ci)          \
  X(utf32, 165, polish, ci)             \
  X(utf32, 166, estonian, ci)           \
  X(utf32, 167, spanish, ci)            \
  X(utf32, 168, swedish, ci)            \
  X(utf32, 169, turkish, ci)            \
  X(utf32, 170, czech, ci)              \
  X(utf32, 171, danish, ci)             \
  X(utf32, 172, lithuanian, ci)         \
  X(utf32, 173, slovak, ci)             \
  X(utf32, 174, spanish2, ci)           \
  X(utf32, 175, roman, ci)              \
  X(utf32, 176, persian, ci)            \
  X(utf32, 177, esperanto, ci)          \
  X(utf32, 178, hungarian, ci)          \
  X(utf32, 179, sinhala, ci)            \
  X(utf32, 180, german2, ci)            \
  X(utf32, 181, croatian, ci)           \
  X(utf32, 182, unicode_520, ci)        \
  X(utf32, 183, vietnamese, ci)

#define COLLATIONS_binary(X)            \
  X(binary, 63, bin, bin)

#define COLLATIONS_geostd8(X)           \
  X(geostd8, 92, general, ci)           \
  X(geostd8, 93, bin, bin)

#define COLLATIONS_cp932(X)             \
  X(cp932, 95, japanese, ci)            \
  X(cp932, 96, bin, bin)

#define COLLATIONS_eucjpms(X)           \
  X(eucjpms, 97, japanese, ci)          \
  X(eucjpms, 98, bin, bin)

#define COLLATIONS_gb18030(X)           \
  X(gb18030, 248, chinese, ci)          \
  X(gb18030, 249, bin, bin)             \
  X(gb18030, 250, unicode_520, ci)

// COLL_CONST_NAME(coll, case): the name of the Collation<> constant of an
// entry: <coll>_<case>, and <coll> alone for a binary collation.
#define COLL_CONST_NAME(COLL, CASE) COLL_CONST_NAME_##CASE(COLL)
#define COLL_CONST_NAME_bin(COLL) COLL
#define COLL_CONST_NAME_ci(COLL) COLL##_ci
#define COLL_CONST_NAME_cs(COLL) COLL##_cs
#define COLL_CONST_NAME_ai_ci(COLL) COLL##_ai_ci
#define COLL_CONST_NAME_as_ci(COLL) COLL##_as_ci
#define COLL_CONST_NAME_as_cs(COLL) COLL##_as_cs
#define COLL_CONST_NAME_as_cs_ks(COLL) COLL##_as_cs_ks
// clang-format on

namespace detail {
// Members a Collation<> has besides its list: the name Connector/C++ 8 also
// gives utf8mb4_bin (a reference, so that it is the same object).
template <CharacterSet CS> struct collation_extra {};
template <> struct collation_extra<CharacterSet::utf8mb4> {
  static MYSQLX_EXPORT const CollationInfo& utf8mb4;
};
} // namespace detail

/// @cond
// The specializations of Collation<>, one per character set, declared from
// the lists (Doxygen does not expand these macros, hence @cond).
#define MYSQLX_COLLATION_MEMBER(CS, ID, COLL, CASE)                                                \
  static const CollationInfo COLL_CONST_NAME(COLL, CASE);
#define MYSQLX_COLLATION_CLASS(CS)                                                                 \
  template <>                                                                                      \
  struct MYSQLX_EXPORT Collation<CharacterSet::CS> : detail::collation_extra<CharacterSet::CS> {   \
    COLLATIONS_##CS(MYSQLX_COLLATION_MEMBER)                                                       \
  };
CDK_CS_LIST(MYSQLX_COLLATION_CLASS)
#undef MYSQLX_COLLATION_CLASS
#undef MYSQLX_COLLATION_MEMBER
/// @endcond

MYSQLX_NAMESPACE_END
