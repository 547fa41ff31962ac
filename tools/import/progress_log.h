// What an import has stored, kept by the server next to the documents: each
// batch is committed in one transaction together with a row of the table
// `mysqlx_import_progress` of the target schema that names the batch's
// entries. So what is stored and what is recorded can never disagree,
// however the import ends (an error, a signal, SIGKILL, a server that dies
// during a COMMIT), and `--resume` stores exactly the entries not recorded.
//
// A job is one import of the same inputs (as named on the command line,
// files made absolute) into the same schema and collection. Each row also keeps a digest of its
// first and last entries' text, so that a resumed import whose input changed under it (a line
// removed, shifting every entry after it) stops instead of storing shifted entries. When the job
// completes, its rows become one row that says so (first_entry = 2^64 - 1).
#pragma once

#include <cstdint>
#include <mysqlx/xdevapi.h>
#include <string>
#include <string_view>
#include <vector>

namespace mysqlx_import {

class progress_log {
public:
  // A range of entries [first, end) recorded as dealt with: its documents
  // stored (`documents` of them) or, for a refused entry skipped with
  // --skip-invalid, none.
  struct range {
    std::uint64_t first = 0, end = 0, documents = 0;
    std::string digest;
  };

  progress_log(const std::string& schema, const std::string& collection,
               const std::vector<std::string>& inputs);

  const std::string& job() const { return m_job; }
  // "shop.orders <- /data/a.jsonl", for people reading the table.
  const std::string& source() const { return m_source; }

  // Creates the table when it is missing.
  void prepare(mysqlx::Session& s) const;
  // The job's ranges, ordered by `first`, and whether it completed (a run
  // that stored everything leaves only a row saying so, so that a --resume
  // after it, even after a SIGKILL right at its end, stores nothing again).
  struct state {
    std::vector<range> ranges;
    bool completed = false;
  };
  state load(mysqlx::Session& s) const;
  // Records a range; call it inside the transaction that stores it.
  void record(mysqlx::Session& s, const range& r) const;
  // Whether the range starting at `first` is recorded (after a COMMIT whose
  // reply was lost: the record tells whether it was applied).
  bool recorded(mysqlx::Session& s, std::uint64_t first) const;
  // Forgets the job (--restart, or a new import of a completed one).
  void clear(mysqlx::Session& s) const;
  // The job completed: its ranges become one row that says so, in one
  // transaction.
  void complete(mysqlx::Session& s) const;

  // The digest of a range from the text of its first and last entries.
  static std::string digest(std::string_view first_text, std::string_view last_text);

private:
  std::string m_table; // `schema`.`mysqlx_import_progress`
  std::string m_job, m_source;
};

} // namespace mysqlx_import
