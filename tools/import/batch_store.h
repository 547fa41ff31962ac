// Stores one batch: one transaction holding its documents and its progress
// record. A batch the server (or the library) refuses because of an entry
// in it is bisected down to the entries at fault, so that every other entry
// of the batch is stored: with --skip-invalid each refused entry is reported
// (file, line, _id, the reason) and recorded as dealt with; without it the
// store stops at the first one, everything before it stored.
#pragma once

#include "batch.h"
#include "progress_log.h"

#include <cstdint>
#include <mutex>
#include <mysqlx/xdevapi.h>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace mysqlx_import {

// --rejects F: each skipped entry as it was in the input, one per line, in
// F; and in F.reasons one line per entry: "F:<its line>: <input>:<line>:
// <reason>". Shared by the reader and every session. The files are opened
// at the first skipped entry, so a run that skips none touches nothing; a
// --resume appends to what the runs it resumes wrote, any other run starts
// them anew. Each skipped entry is written in the transaction that records
// it as dealt with, before its COMMIT, so that a --resume does not meet it
// (nor write it) again. run_import() checks first that neither file is an
// input.
// Every write is checked: add() throws rejects_error when one fails, and
// the import stops as it does for an entry it cannot store.
struct rejects_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class rejects {
public:
  rejects(std::string path, bool append);
  rejects(const rejects&) = delete;
  rejects& operator=(const rejects&) = delete;
  ~rejects();
  void add(const position& at, const std::string& text, const std::string& reason);
  // Entries written by this run, and those the files held before it.
  std::uint64_t written();
  std::uint64_t earlier();
  // Closes the files; throws rejects_error when closing fails (the last
  // writes may be lost).
  void close();

private:
  void open(); // with m_mutex held
  void write(int fd, const std::string& name, const std::string& bytes);

  std::mutex m_mutex;
  std::string m_path;
  bool m_append;
  int m_entries = -1, m_reasons = -1;
  std::uint64_t m_earlier = 0, m_lines = 0;
  std::optional<std::string> m_failed; // the first write error: no more writes
};

// Messages of several sessions, one whole line at a time.
class message_sink {
public:
  explicit message_sink(std::ostream& err) : m_err(err) {}
  void line(const std::string& text);
  // Refused entries are listed up to a limit, then only counted.
  void refused(const std::string& text);

private:
  std::mutex m_mutex;
  std::ostream& m_err;
  std::uint64_t m_refused = 0;
};

struct store_context {
  mysqlx::Session& session;
  mysqlx::Collection& coll;
  const progress_log& log;
  bool replace = false;
  bool patch = false; // --patch: merge into the stored document with the same _id
  bool skip_invalid = false;
  rejects* reject_file = nullptr; // --rejects, or none
  message_sink& messages;
};

// What a batch's store did, also when it threw part of the way.
struct store_progress {
  // replaced: with --replace, documents that replaced a stored one; with
  // --patch, documents merged into a stored one.
  std::uint64_t documents = 0, replaced = 0, without_id = 0;
  std::uint64_t refused = 0; // entries refused and skipped (--skip-invalid)
  // A range whose COMMIT went out without its reply: stored or not, the
  // progress record tells (progress_log::recorded()).
  struct pending {
    progress_log::range range;
    std::uint64_t documents = 0, replaced = 0, without_id = 0;
  };
  std::optional<pending> in_commit;
  // The failure was the batch's progress record, not its documents: never
  // an entry's fault, whatever the error.
  bool record_failed = false;
};

// Without --skip-invalid: an entry of the batch was refused. The entries
// before it are stored; it and those after it are not.
struct entry_refused {
  std::string message; // "file:line: why (error N)"
  std::size_t doc = 0; // its index in the batch
};

// Whether an error is about an entry of the add (a bad or duplicate
// document) rather than the session, the statement or the server as a whole.
bool refuses_an_entry(const mysqlx::Error& e);

// Stores `b`, and records (and writes to --rejects) its skipped entries.
// Throws entry_refused (above), the mysqlx::Error of a failure that is not
// an entry's (nothing more of the batch stored; a progress record the
// server refuses is never an entry's), or rejects_error.
void store_batch(store_context& ctx, const batch& b, store_progress& done);

} // namespace mysqlx_import
