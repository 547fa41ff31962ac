// mysqlx-import's work, as a library the tool's main() and its tests share:
// read the inputs as a stream, check each entry, group documents into
// batches and add each batch with one Collection::add() on one of
// `parallel` sessions. Only the public mysqlx API is used.
#pragma once

#include "json_input.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <string>
#include <vector>

namespace mysqlx_import {

enum class progress_style { automatic, bar, lines, none };

struct options {
  std::string uri;
  std::string schema;                              // default: the URI's schema
  std::string collection;                          // required
  std::vector<std::string> inputs;                 // files; "-" (or none at all) is standard input
  input_format format = input_format::json_lines;  // every input's: the user's word, not a guess
  std::size_t batch_size = 1000;                   // documents per add()
  std::size_t batch_bytes = std::size_t{16} << 20; // a batch also ends here
  std::optional<mysqlx::DocIdMode> docid_mode;     // unset: the URI's (default auto)
  bool replace = false; // documents with an _id: addOrReplaceOne, in the batch's transaction
  bool patch = false;   // documents with an _id: merged into the stored one, else added
  // Report and skip entries that are not JSON objects, and those the server
  // refuses (bisecting their batch), instead of stopping at the first.
  bool skip_invalid = false;
  std::string rejects; // --rejects: where skipped entries go (and `rejects`.reasons)
  // Store exactly the entries the job's progress records do not name
  // (progress_log.h); without it, records left by a stopped run of the same
  // job refuse the import. `restart` forgets them first.
  bool resume = false;
  bool restart = false;
  unsigned parallel = 1;  // sessions adding batches at the same time
  std::uint64_t skip = 0; // entries at the start of the input not imported
  progress_style progress = progress_style::automatic;
  double progress_interval = 10; // seconds between plain progress lines
  std::size_t max_document = std::size_t{64} << 20;
  // Called with each session once it is connected and the collection
  // exists, before any document is sent (tests switch faults on here).
  std::function<void(mysqlx::Session&, unsigned worker)> on_session;
  // Set (to the signal's number) by a SIGINT or SIGTERM handler: the import
  // stops reading, finishes the batches in flight and reports. Only the
  // calling thread should take those signals: run_import() blocks them in
  // the threads it starts, so that a blocking read of the input is the one
  // interrupted.
  const std::atomic<int>* interrupted = nullptr;
};

struct outcome {
  bool ok = true;
  std::uint64_t entries = 0;       // entries read, those passed over by --skip included
  std::uint64_t documents = 0;     // documents stored (batches the server confirmed)
  std::uint64_t ids_generated = 0; // of them, documents that had no _id
  // With --replace, of `documents`: those that replaced a stored document
  // with the same _id (one stored earlier by the same input included), so
  // `documents - replaced` is how many the collection gained; with --patch,
  // those merged into a stored document.
  std::uint64_t replaced = 0;
  std::uint64_t invalid_skipped = 0; // entries not JSON objects, and those the server refused
  // --resume: entries recorded as dealt with by earlier runs, passed over,
  // and how many documents those runs stored.
  std::uint64_t resumed_entries = 0;
  std::uint64_t resumed_documents = 0;
  // The first `stored_prefix` entries of the input are all stored by this
  // run (or were invalid and skipped), counting from --skip.
  std::uint64_t stored_prefix = 0;
  // Documents whose COMMIT's reply never came and whose progress record
  // could not be looked up afterwards (the server still gone): --resume
  // will know. Not counted in `documents`.
  std::uint64_t uncertain_documents = 0;
  int signal = 0; // the SIGINT or SIGTERM that stopped the import
  double seconds = 0;
};

// Runs one import. Messages (bad entries, progress, the reason of a stop)
// go to `err`, the summary to `out`. Throws mysqlx::Error only when the
// first connection or the collection cannot be had; every later failure is
// reported in `err` and in the outcome.
outcome run_import(const options& opts, std::ostream& out, std::ostream& err);

} // namespace mysqlx_import
