// A batch of documents on its way to the server, and how messages name its
// entries (file and line, counted from 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mysqlx_import {

struct position {
  std::string file;
  std::uint64_t line = 0;
};

// "file:line".
std::string where(const position& p);

// "1 document", "2 documents": messages count as users do.
std::string count(std::uint64_t n, const std::string& noun, const std::string& nouns = {});

// An _id as messages show it: quoted, with quotes, backslashes and control
// characters escaped so that the id cannot break the line.
std::string quoted(const std::string& id);

// An entry the reader skipped as invalid (--skip-invalid). It travels with
// the batch after it, so that it is recorded as dealt with (and written to
// --rejects) in the same transaction as a range of documents around it, or
// in one of its own when it lies between two ranges: a --resume never meets
// it again, and --rejects gets it once.
struct skipped_entry {
  std::uint64_t index = 0; // its entry number in the whole input
  position at;
  std::string text; // as read, when --rejects is to get it
  std::string reason;
  std::string digest; // progress_log::digest(text, text), for its record
};

struct batch {
  std::uint64_t seq = 0;
  std::vector<std::string> docs;
  std::vector<std::string> ids; // each document's string _id ("" when none or not a string)
  // Hashes of the documents' _id keys (check_result::id_key), for the order
  // of batches that share one (batch_queue).
  std::vector<std::uint64_t> id_hashes;
  std::vector<std::uint64_t> lines;   // each document's line in its input
  std::vector<std::uint64_t> entries; // each document's entry number in the whole input (from 0)
  std::vector<std::pair<std::size_t, std::string>> files; // (first document, input) of each input
  bool any_id = false;                // with --replace: some document has an _id
  std::vector<bool> without_id;       // each document: it has no _id (one will be made)
  std::uint64_t entries_end = 0;      // entries [.., entries_end) of the input are in or before it
  std::size_t bytes = 0;              // of its documents
  std::uint64_t input_bytes = 0;      // of the input since the previous batch (progress)
  std::vector<skipped_entry> skipped; // since the previous batch, in input order

  // "a.jsonl:3-9", or "a.jsonl:3 to b.jsonl:2" across inputs.
  std::string range() const;
  // Where document i of the batch (0-based) is in the input.
  position at(std::size_t i) const;
};

} // namespace mysqlx_import
