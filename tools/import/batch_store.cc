#include "batch_store.h"

#include "printable.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <regex>
#include <stdexcept>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace mysqlx_import {

namespace {

// Refused entries listed one by one before the rest are only counted.
constexpr std::uint64_t max_listed_refusals = 100;

// --patch: adds the document, or, when its _id is stored already, merges it
// into the stored one (JSON merge patch, as Collection::modify().patch():
// its members replace or add the stored ones, a null member removes one;
// the server keeps the _id). True when it was merged. Adding first costs
// one statement for a new document; a failed statement inside a
// transaction undoes only itself.
bool patch_or_add(store_context& ctx, const std::string& id, const std::string& doc) {
  try {
    ctx.coll.add(doc).execute();
    return false;
  } catch (const mysqlx::Error& e) {
    if (!e.isServerError() || (e.code() != 5116 && e.code() != 1062)) throw;
  }
  ctx.coll.modify("_id = :id").patch(doc).bind("id", id).execute();
  return true;
}

// Adds documents [lo, hi) of `b` inside the caller's transaction and returns
// how many replaced a stored one (--replace). `call` is set to the batch
// indices of the documents of the add() in progress, so that an error
// naming a document by its place in that add() can be traced to its line.
std::uint64_t add_documents(store_context& ctx, const batch& b, std::size_t lo, std::size_t hi,
                            std::vector<std::size_t>& call) {
  call.clear();
  const auto first = b.docs.begin() + static_cast<std::ptrdiff_t>(lo);
  const auto last = b.docs.begin() + static_cast<std::ptrdiff_t>(hi);
  if ((!ctx.replace && !ctx.patch) || !b.any_id) {
    for (std::size_t i = lo; i < hi; ++i) call.push_back(i);
    ctx.coll.add(first, last).execute();
    return 0;
  }
  // --replace, --patch: documents with an _id go one by one.
  std::uint64_t replaced = 0;
  std::vector<std::string> new_docs;
  std::vector<std::size_t> new_index;
  for (std::size_t i = lo; i < hi; ++i) {
    if (b.ids[i].empty()) {
      new_docs.push_back(b.docs[i]);
      new_index.push_back(i);
      continue;
    }
    call.assign(1, i);
    if (ctx.patch) {
      replaced += patch_or_add(ctx, b.ids[i], b.docs[i]) ? 1 : 0;
      continue;
    }
    // The server counts 1 row for an insert, 2 for a replaced row and 0
    // for one replaced by the same document (MySQL's ON DUPLICATE KEY
    // UPDATE): all but 1 mean the _id was there already.
    if (ctx.coll.addOrReplaceOne(b.ids[i], mysqlx::Value(b.docs[i])).getAffectedItemsCount() != 1)
      ++replaced;
  }
  call = new_index;
  if (!new_docs.empty()) ctx.coll.add(new_docs).execute();
  return replaced;
}

// The library names a document by its place in the add(), counted from 1:
// "Document 10" or "document 6 of 6". Said here without that place, since
// the message names the entry by its file and line; empty when the error
// names no document of `call`.
std::string without_place(const std::vector<std::size_t>& call, std::size_t doc,
                          const std::string& what) {
  static const std::regex numbered("^Document ([0-9]+)");
  static const std::regex of_all("document ([0-9]+) of ([0-9]+) in the add\\(\\)");
  std::smatch m;
  const bool found =
      (std::regex_search(what, m, numbered) ||
       (std::regex_search(what, m, of_all) && std::stoul(m[2].str()) == call.size()));
  if (!found || std::stoul(m[1].str()) < 1) return {};
  const std::size_t k = std::stoul(m[1].str()) - 1;
  if (k >= call.size() || call[k] != doc) return {};
  return m.prefix().str() + "the document" + m.suffix().str();
}

// Why the server refused document `i` alone: "file:line: why (error N)".
std::string refusal(const batch& b, std::size_t i, const std::vector<std::size_t>& call,
                    const mysqlx::Error& e) {
  std::string why;
  if (e.code() == 5116 && !b.ids[i].empty()) {
    why = "duplicate _id " + quoted(b.ids[i]);
    std::size_t earlier = i;
    for (std::size_t j = 0; j < i; ++j) {
      if (b.ids[j] == b.ids[i]) {
        earlier = j;
        break;
      }
    }
    why += earlier < i ? ", the same _id as " + where(b.at(earlier))
                       : ": a document with this _id is already stored";
  } else {
    why = without_place(call, i, e.what());
    if (why.empty()) why = e.what();
    if (!b.ids[i].empty()) why = "_id " + quoted(b.ids[i]) + ": " + why;
  }
  if (e.code() != 0) why += " (error " + std::to_string(e.code()) + ")";
  return why;
}

struct range_counts {
  std::uint64_t documents = 0, without_id = 0;
};

range_counts counts(const batch& b, std::size_t lo, std::size_t hi) {
  range_counts c;
  c.documents = hi - lo;
  for (std::size_t i = lo; i < hi; ++i) c.without_id += b.without_id[i] ? 1 : 0;
  return c;
}

// The batch's skipped entries in [first, end), not yet dealt with, to
// --rejects; each is then `covered`. Called inside the transaction that
// records them, before its COMMIT: a write that fails rolls it back, so an
// entry is never recorded without being written (a COMMIT that fails after
// the write leaves it written and not recorded: a --resume writes it again).
void write_skipped(store_context& ctx, const batch& b, std::uint64_t first, std::uint64_t end,
                   std::vector<bool>& covered) {
  for (std::size_t k = 0; k < b.skipped.size(); ++k) {
    const skipped_entry& s = b.skipped[k];
    if (covered[k] || s.index < first || s.index >= end) continue;
    if (ctx.reject_file) ctx.reject_file->add(s.at, s.text, s.reason);
    covered[k] = true;
  }
}

void roll_back(store_context& ctx) {
  try {
    ctx.session.rollback();
  } catch (const mysqlx::Error&) {
    // The first error is the one worth reporting.
  }
}

// Documents [lo, hi) and their record, in one transaction, with the skipped
// entries among them (their record is the range's).
void store_range(store_context& ctx, const batch& b, std::size_t lo, std::size_t hi,
                 store_progress& done, std::vector<std::size_t>& call, std::vector<bool>& covered) {
  progress_log::range r;
  r.first = b.entries[lo];
  r.end = b.entries[hi - 1] + 1;
  r.documents = hi - lo;
  r.digest = progress_log::digest(b.docs[lo], b.docs[hi - 1]);
  const range_counts c = counts(b, lo, hi);
  ctx.session.startTransaction();
  bool adding = true;
  try {
    const std::uint64_t replaced = add_documents(ctx, b, lo, hi, call);
    adding = false;
    ctx.log.record(ctx.session, r);
    write_skipped(ctx, b, r.first, r.end, covered);
    done.in_commit = store_progress::pending{r, c.documents, replaced, c.without_id};
    ctx.session.commit();
    done.in_commit.reset();
    done.documents += c.documents;
    done.without_id += c.without_id;
    done.replaced += replaced;
  } catch (const mysqlx::Error& e) {
    // A failed COMMIT leaves the range uncertain, whatever the error: the
    // connection may have broken after the server applied it, and a server
    // error can come after the database made it durable (xserverd answers
    // 2013 when its MariaDB dies during the COMMIT). The record, read
    // afterwards, tells. Before the COMMIT nothing of the range is stored:
    // the server rolls back the transaction of a session that ended.
    if (!done.in_commit && !e.isConnectionError()) roll_back(ctx);
    // Only the documents' statements can refuse an entry: an error of the
    // record (a column it does not fit, a check on the table) is the
    // tool's or the table's, and bisecting would "skip" every entry.
    done.record_failed = !adding && !done.in_commit;
    throw;
  } catch (const rejects_error&) {
    roll_back(ctx); // nothing of the range stored: a --resume tries it again
    throw;
  }
}

// The skipped entries no range of the batch covers (before its first
// document, between two ranges of a bisected batch, all of a batch without
// documents): recorded one by one, 0 documents each, in one transaction.
void record_uncovered(store_context& ctx, const batch& b, std::vector<bool>& covered,
                      store_progress& done) {
  std::vector<std::size_t> left;
  for (std::size_t k = 0; k < b.skipped.size(); ++k)
    if (!covered[k]) left.push_back(k);
  if (left.empty()) return;
  ctx.session.startTransaction();
  try {
    for (const std::size_t k : left) {
      const skipped_entry& s = b.skipped[k];
      ctx.log.record(ctx.session, {s.index, s.index + 1, 0, s.digest});
      write_skipped(ctx, b, s.index, s.index + 1, covered);
    }
    ctx.session.commit();
  } catch (const mysqlx::Error& e) {
    if (!e.isConnectionError()) roll_back(ctx);
    done.record_failed = true; // never an entry's fault
    throw;
  } catch (const rejects_error&) {
    roll_back(ctx);
    throw;
  }
}

// An entry the server refused, alone: skipped and recorded as dealt with
// (--skip-invalid), or the end of this store.
void refuse(store_context& ctx, const batch& b, std::size_t i, const std::vector<std::size_t>& call,
            const mysqlx::Error& e, store_progress& done) {
  const std::string why = refusal(b, i, call, e);
  if (!ctx.skip_invalid) throw entry_refused{where(b.at(i)) + ": " + why, i};
  // Written before it is recorded: a write that fails stops the import with
  // the entry not recorded, so a --resume meets it again (a record that
  // fails after the write, the same, with the entry written twice).
  if (ctx.reject_file) ctx.reject_file->add(b.at(i), b.docs[i], why);
  try {
    const std::string d = progress_log::digest(b.docs[i], b.docs[i]);
    ctx.log.record(ctx.session, {b.entries[i], b.entries[i] + 1, 0, d});
  } catch (const mysqlx::Error&) {
    // The tool's own failure, not the entry's: the import stops.
    done.record_failed = true;
    throw;
  }
  ctx.messages.refused(where(b.at(i)) + ": skipped: " + why);
  ++done.refused;
}

void store_bisecting(store_context& ctx, const batch& b, std::size_t lo, std::size_t hi,
                     store_progress& done, std::vector<bool>& covered) {
  std::vector<std::size_t> call;
  try {
    store_range(ctx, b, lo, hi, done, call, covered);
    return;
  } catch (const mysqlx::Error& e) {
    // A failed COMMIT is never an entry's: its range is looked up instead.
    if (done.in_commit || done.record_failed || !refuses_an_entry(e)) throw;
    if (hi - lo == 1) {
      refuse(ctx, b, lo, call, e, done);
      return;
    }
  }
  // Nothing of [lo, hi) is stored: each half on its own, in input order, so
  // that a duplicate is found at its later occurrence.
  const std::size_t mid = lo + (hi - lo) / 2;
  store_bisecting(ctx, b, lo, mid, done, covered);
  store_bisecting(ctx, b, mid, hi, done, covered);
}

} // namespace

rejects::rejects(std::string path, bool append) : m_path(std::move(path)), m_append(append) {}

rejects::~rejects() {
  if (m_entries >= 0) ::close(m_entries);
  if (m_reasons >= 0) ::close(m_reasons);
}

void rejects::write(int fd, const std::string& name, const std::string& bytes) {
  std::size_t off = 0;
  while (off < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + off, bytes.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int e = n < 0 ? errno : EIO;
      m_failed = "--rejects " + m_path + ": cannot write" +
                 (name == m_path ? std::string() : " " + name) + ": " + std::strerror(e);
      throw rejects_error(*m_failed);
    }
    off += static_cast<std::size_t>(n);
  }
}

void rejects::open() {
  // Read back too when appending: its lines are counted.
  const int flags = O_CREAT | O_CLOEXEC | (m_append ? O_RDWR | O_APPEND : O_WRONLY | O_TRUNC);
  auto open_one = [&](const std::string& name) {
    const int fd = ::open(name.c_str(), flags, 0666);
    if (fd < 0) {
      m_failed = "--rejects " + m_path + ": cannot open " + name + ": " + std::strerror(errno);
      throw rejects_error(*m_failed);
    }
    return fd;
  };
  m_entries = open_one(m_path);
  if (m_append) {
    // Its lines go on from those of the runs this one resumes.
    char buf[1 << 16];
    for (off_t at = 0;;) {
      const ssize_t n = ::pread(m_entries, buf, sizeof buf, at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break; // a file that cannot be read back (a pipe) counts from 1
      for (ssize_t k = 0; k < n; ++k) m_earlier += buf[k] == '\n' ? 1 : 0;
      at += n;
    }
  }
}

void rejects::add(const position& at, const std::string& text, const std::string& reason) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_failed) throw rejects_error(*m_failed);
  if (m_entries < 0) open();
  // One entry per line: line breaks inside an entry (a pretty-printed
  // array element) are JSON white space, or it was not valid JSON anyway.
  std::string one_line = text;
  for (char& c : one_line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  write(m_entries, m_path, one_line + '\n');
  // Opened only once an entry is written: a rejects path that cannot be
  // written (/dev/full) leaves no .reasons file behind.
  if (m_reasons < 0) {
    const std::string reasons = m_path + ".reasons";
    m_reasons = ::open(reasons.c_str(),
                       O_WRONLY | O_CREAT | O_CLOEXEC | (m_append ? O_APPEND : O_TRUNC), 0666);
    if (m_reasons < 0) {
      m_failed = "--rejects " + m_path + ": cannot open " + reasons + ": " + std::strerror(errno);
      throw rejects_error(*m_failed);
    }
  }
  ++m_lines;
  write(m_reasons, m_path + ".reasons",
        m_path + ':' + std::to_string(m_earlier + m_lines) + ": " + printable(where(at)) + ": " +
            printable(reason) + '\n');
}

std::uint64_t rejects::written() {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_lines;
}

std::uint64_t rejects::earlier() {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_earlier;
}

void rejects::close() {
  std::lock_guard<std::mutex> lock(m_mutex);
  std::optional<std::string> failed;
  for (int* fd : {&m_entries, &m_reasons}) {
    if (*fd < 0) continue;
    const int rc = ::close(*fd);
    const int e = errno;
    *fd = -1;
    // A write that failed was reported when it did; this is the close's own.
    if (rc != 0 && e != EINTR && !m_failed && !failed)
      failed = "--rejects " + m_path + ": cannot write: " + std::strerror(e);
  }
  if (failed) {
    m_failed = failed;
    throw rejects_error(*failed);
  }
}

void message_sink::line(const std::string& text) {
  std::lock_guard<std::mutex> lock(m_mutex);
  // Messages echo the input (file names, server errors quoting a document):
  // no raw NUL, 0xFF or line break reaches the terminal.
  m_err << "mysqlx-import: " << printable(text) << '\n' << std::flush;
}

void message_sink::refused(const std::string& text) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (m_refused < max_listed_refusals)
    m_err << "mysqlx-import: " << printable(text) << '\n' << std::flush;
  else if (m_refused == max_listed_refusals)
    m_err << "mysqlx-import: further refused entries are skipped and counted, not listed\n"
          << std::flush;
  ++m_refused;
}

bool refuses_an_entry(const mysqlx::Error& e) {
  if (e.isConnectionError()) return false;
  if (e.isClientError())
    // A document the library refuses before sending it: not a JSON object,
    // nested too deep, two _ids, larger than the server takes (2020).
    return e.code() == mysqlx::errc::BAD_DOCUMENT || e.code() == 2020;
  switch (e.code()) {
  // MySQL's (mysqld_error.h): a row's value, not the statement.
  case 1048: // ER_BAD_NULL_ERROR
  case 1062: // ER_DUP_ENTRY
  case 1264: // ER_WARN_DATA_OUT_OF_RANGE
  case 1265: // WARN_DATA_TRUNCATED
  case 1292: // ER_TRUNCATED_WRONG_VALUE
  case 1366: // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
  case 1406: // ER_DATA_TOO_LONG (an _id above 32 bytes)
  case 3140: // ER_INVALID_JSON_TEXT
  case 3141: // ER_INVALID_JSON_TEXT_IN_PARAM
  case 3144: // ER_INVALID_JSON_CHARSET
  case 3146: // ER_INVALID_TYPE_FOR_JSON
  case 3151: // ER_JSON_KEY_TOO_BIG
  case 3157: // ER_JSON_DOCUMENT_TOO_DEEP
  case 3819: // ER_CHECK_CONSTRAINT_VIOLATED
  case 3903: // ER_INVALID_JSON_VALUE_FOR_FUNC_INDEX
  case 5116: // ER_X_DOC_ID_DUPLICATE
  case 5180: // ER_X_DOCUMENT_DOESNT_MATCH_EXPECTED_SCHEMA
  // MariaDB's, which xserverd passes on where MySQL has one of the above.
  case 4025: // ER_CONSTRAINT_FAILED
  case 4035: // ER_JSON_BAD_CHR (a lone surrogate escape)
  case 4036: // ER_JSON_NOT_JSON_CHR
  case 4037: // ER_JSON_EOS
  case 4038: // ER_JSON_SYNTAX
  case 4039: // ER_JSON_ESCAPING
  case 4040: // ER_JSON_DEPTH
    return true;
  default:
    return false;
  }
}

void store_batch(store_context& ctx, const batch& b, store_progress& done) {
  std::vector<bool> covered(b.skipped.size());
  if (!b.docs.empty()) store_bisecting(ctx, b, 0, b.docs.size(), done, covered);
  record_uncovered(ctx, b, covered, done);
}

} // namespace mysqlx_import
