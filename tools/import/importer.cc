#include "importer.h"

#include "batch.h"
#include "batch_queue.h"
#include "batch_store.h"
#include "document_check.h"
#include "json_input.h"
#include "preflight.h"
#include "printable.h"
#include "progress_display.h"
#include "progress_log.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <iomanip>
#include <map>
#include <mutex>
#include <ostream>
#include <pthread.h>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace mysqlx_import {

namespace {

using clock_type = std::chrono::steady_clock;

// Bad entries listed one by one before the rest are only counted.
constexpr std::uint64_t max_listed_invalid = 100;

bool is_set(const std::atomic<int>* flag) {
  return flag != nullptr && flag->load() != 0;
}

// What stopped the sessions, for the advice: an entry refused (fix it, or
// skip it), --rejects that could not be written, anything else.
enum class fault { other, entry, rejects };

// What the sessions stored, and how far the input is stored without a gap
// (batches finish out of order when there are several sessions).
class ledger {
public:
  explicit ledger(std::uint64_t start) : m_prefix(start) {}

  void add(const store_progress& p) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_documents += p.documents;
    m_replaced += p.replaced;
    m_without_id += p.without_id;
    m_refused += p.refused;
    documents.store(m_documents, std::memory_order_relaxed);
  }
  // Batch `b` is dealt with up to entry `end` (its entries_end when whole).
  void done(const batch& b, std::uint64_t end) { done(b.seq, end, b.entries_end, b.input_bytes); }
  void done(std::uint64_t seq, std::uint64_t end, std::uint64_t batch_end,
            std::uint64_t batch_bytes) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_done[seq] = {end, end == batch_end};
    while (!m_done.empty() && m_done.begin()->first == m_next && !m_gap) {
      m_prefix = m_done.begin()->second.first;
      m_gap = !m_done.begin()->second.second;
      m_done.erase(m_done.begin());
      ++m_next;
    }
    if (end == batch_end) input_bytes.fetch_add(batch_bytes, std::memory_order_relaxed);
  }
  // The first failure wins; later ones are consequences of the stop.
  void failed(const std::string& message, fault kind) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_failure) return;
    m_failure = message;
    m_fault = kind;
  }
  // A range of batch `b` whose COMMIT's reply was lost: if it is stored,
  // the batch is dealt with up to its end.
  struct doubt {
    store_progress::pending range;
    std::uint64_t seq = 0, end = 0, batch_end = 0, batch_bytes = 0;
  };
  void in_doubt(const store_progress::pending& p, const batch& b) {
    std::lock_guard<std::mutex> lock(m_mutex);
    const bool last = p.range.end == b.entries.back() + 1;
    m_in_doubt.push_back(
        {p, b.seq, last ? b.entries_end : p.range.end, b.entries_end, b.input_bytes});
  }
  std::vector<doubt> take_in_doubt() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return std::move(m_in_doubt);
  }

  template <typename F> void read(F&& f) {
    std::lock_guard<std::mutex> lock(m_mutex);
    f(m_documents, m_without_id, m_replaced, m_refused, m_prefix, m_failure, m_fault);
  }

  std::atomic<std::uint64_t> documents{0};
  // Input bytes whose documents are stored: what progress shows (bytes read
  // run ahead by the batches queued).
  std::atomic<std::uint64_t> input_bytes{0};

private:
  std::mutex m_mutex;
  std::uint64_t m_documents = 0, m_without_id = 0, m_replaced = 0, m_refused = 0;
  std::map<std::uint64_t, std::pair<std::uint64_t, bool>> m_done; // seq -> (end, whole)
  std::uint64_t m_next = 0; // the lowest seq not yet in the prefix
  bool m_gap = false;       // a batch stopped part of the way: the prefix ends there
  std::uint64_t m_prefix;
  std::optional<std::string> m_failure;
  fault m_fault = fault::other;
  std::vector<doubt> m_in_doubt;
};

// An open input; closes what it opened.
class input_file {
public:
  explicit input_file(const std::string& name) : m_name(name == "-" ? "<stdin>" : name) {
    if (name == "-") {
      m_fd = STDIN_FILENO;
      return;
    }
    m_fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) throw std::runtime_error(name + ": cannot open: " + std::strerror(errno));
    m_owned = true;
  }
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;
  ~input_file() {
    if (m_owned) ::close(m_fd);
  }
  int fd() const { return m_fd; }
  const std::string& name() const { return m_name; }

private:
  std::string m_name;
  int m_fd = -1;
  bool m_owned = false;
};

// The inputs' total size when every one is a regular file (for percent and
// ETA); unknown for a pipe or terminal.
std::optional<std::uint64_t> total_size(const std::vector<std::string>& inputs) {
  std::uint64_t total = 0;
  for (const auto& name : inputs) {
    struct stat st {};
    const int rc = name == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(name.c_str(), &st);
    if (rc != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    total += static_cast<std::uint64_t>(st.st_size);
  }
  return total;
}

// Threads started while this lives do not take SIGINT or SIGTERM: the
// thread reading the input does, so that its blocking read() is the call
// interrupted.
class signals_blocked {
public:
  signals_blocked() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, &m_old);
  }
  signals_blocked(const signals_blocked&) = delete;
  signals_blocked& operator=(const signals_blocked&) = delete;
  ~signals_blocked() { pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }

private:
  sigset_t m_old{};
};

// The entries of earlier runs (--resume) as the reader meets them: passed
// over, with the first and last of each range checked against its digest.
class resumed_ranges {
public:
  explicit resumed_ranges(std::vector<progress_log::range> ranges) : m_ranges(std::move(ranges)) {}

  // Whether entry `index` is recorded; `mismatch` set when it ends a range
  // whose digest the input no longer gives.
  bool covers(std::uint64_t index, const std::string& text, bool& mismatch) {
    mismatch = false;
    while (m_next < m_ranges.size() && m_ranges[m_next].end <= index) ++m_next;
    if (m_next == m_ranges.size() || m_ranges[m_next].first > index) return false;
    const progress_log::range& r = m_ranges[m_next];
    if (index == r.first) m_first_text = text;
    if (index + 1 == r.end) {
      mismatch = progress_log::digest(m_first_text, text) != r.digest;
      if (!mismatch) m_documents += r.documents;
    }
    return true;
  }
  // Whether a recorded range starts at `index` (a batch must not span one).
  bool starts_at(std::uint64_t index) const {
    return m_next < m_ranges.size() && m_ranges[m_next].first == index;
  }
  std::uint64_t documents() const { return m_documents; }

private:
  std::vector<progress_log::range> m_ranges;
  std::size_t m_next = 0;
  std::string m_first_text;
  std::uint64_t m_documents = 0;
};

// --resume over regular files: every recorded range is checked against the
// input before anything is stored, so an input changed since the stopped
// run (a line removed shifts every entry after it) stores nothing at all.
// Returns where the first difference is ("file:line"), if any. A pipe can
// be read only once: it is checked as it is imported instead.
std::optional<std::string> changed_entry(const std::vector<std::string>& inputs,
                                         const std::vector<progress_log::range>& ranges,
                                         const options& opts) {
  resumed_ranges check(ranges);
  std::uint64_t entries = 0;
  for (const auto& name : inputs) {
    input_file file(name);
    // Regular files: a read never blocks, so the flag is what a signal
    // stops it with (read_interrupted).
    json_input in(file.fd(), file.name(), opts.max_document, opts.format, opts.interrupted);
    entry e;
    while (in.next(e)) {
      if (e.fatal) return std::nullopt; // the import itself stops there and says why
      const std::uint64_t index = entries++;
      bool mismatch = false;
      if (index >= opts.skip && check.covers(index, e.text, mismatch) && mismatch)
        return file.name() + ":" + std::to_string(e.line);
    }
  }
  return std::nullopt;
}

// The server's mysqlx_max_connections, when it says (X Plugin 5.7 and 8.0,
// xserverd); nothing when it cannot be read.
std::optional<std::uint64_t> max_connections(mysqlx::Session& s) {
  try {
    mysqlx::Row row = s.sql("SELECT @@mysqlx_max_connections").execute().fetchOne();
    if (row && row[0].getType() != mysqlx::Value::VNULL) return row[0].get<std::uint64_t>();
  } catch (const mysqlx::Error&) {
    // Not an X Plugin variable here: the limit is not checked beforehand.
  }
  return std::nullopt;
}

// Why the server refused session `i` (from 0) of `n`: a server at its
// mysqlx_max_connections closes a new connection at once, before its
// greeting (the X Plugin, xserverd), which the library reports as a lost
// connection.
std::string refused_session(unsigned i, unsigned n, const mysqlx::Error& e,
                            std::optional<std::uint64_t> limit) {
  std::ostringstream msg;
  msg << "the server closed connection " << i + 1 << " of " << n << " while it was being set up ("
      << e.what();
  if (e.code() != 0) msg << ", error " << e.code();
  msg << "): that is how a server refuses a connection when it already serves"
         " mysqlx_max_connections";
  if (limit) msg << " = " << *limit;
  msg << " X Protocol connections (other clients' sessions count); use a smaller -j, or raise"
         " mysqlx_max_connections. Nothing was stored";
  return msg.str();
}

const char* signal_name(int sig) {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

} // namespace

outcome run_import(const options& opts, std::ostream& out, std::ostream& err) {
  const auto start = clock_type::now();
  std::vector<std::string> inputs = opts.inputs;
  if (inputs.empty()) inputs.push_back("-");
  const unsigned parallel = std::max(1u, opts.parallel);
  outcome res;

  // Before any connection: a missing input stops nothing half-way (its
  // job's key is the same once it exists, but a run that can store
  // everything is better), and --rejects must name no input.
  std::optional<std::string> cannot = unreadable_input(inputs);
  if (!cannot && !opts.rejects.empty()) cannot = rejects_is_an_input(opts.rejects, inputs);
  if (cannot) {
    err << "mysqlx-import: " << printable(*cannot) << "\n";
    res.ok = false;
    return res;
  }

  // Sessions first: a bad URI or password fails before anything is read.
  mysqlx::SessionSettings settings(opts.uri);
  if (opts.docid_mode) settings.set(mysqlx::SessionOption::DOCID_MODE, *opts.docid_mode);
  // The URI's schema is the default of --schema, and created if missing as
  // that one is: the sessions connect without it (the server refuses a
  // connection whose schema does not exist, 1049), and every name the tool
  // uses is qualified by the schema.
  std::string schema_name = opts.schema;
  if (settings.has_option(mysqlx::SessionOption::DB)) {
    if (schema_name.empty())
      schema_name = settings.find(mysqlx::SessionOption::DB).get<std::string>();
    settings.erase(mysqlx::SessionOption::DB);
  }
  std::vector<mysqlx::Session> sessions;
  sessions.reserve(parallel);
  sessions.emplace_back(settings);
  if (schema_name.empty())
    throw mysqlx::ClientError(mysqlx::errc::USAGE, "no schema: give --schema or one in the URI");
  // -j above what the server takes at all is said before anything is done.
  std::optional<std::uint64_t> limit;
  if (parallel > 1) limit = max_connections(sessions[0]);
  if (limit && parallel > *limit) {
    err << "mysqlx-import: -j " << parallel << " needs " << parallel
        << " connections, and the server takes at most " << *limit
        << " (mysqlx_max_connections), the sessions of other clients included: use a smaller -j,"
           " or raise mysqlx_max_connections\n";
    res.ok = false;
    return res;
  }
  sessions[0].createSchema(schema_name, true).createCollection(opts.collection, true);

  const progress_log log(schema_name, opts.collection, inputs);
  log.prepare(sessions[0]);
  if (opts.restart) log.clear(sessions[0]);
  progress_log::state job = log.load(sessions[0]);
  std::vector<progress_log::range> earlier = std::move(job.ranges);
  if (opts.resume && earlier.empty() && job.completed) {
    err << "mysqlx-import: --resume: the import of these inputs into " << schema_name << "."
        << opts.collection << " completed: nothing to resume\n";
    out << "documents 0, ids generated 0, invalid entries skipped 0, seconds 0.00 (0 docs/s)\n"
        << std::flush;
    return res;
  }
  if (!earlier.empty() && !opts.resume) {
    std::uint64_t docs = 0;
    for (const auto& r : earlier) docs += r.documents;
    err << "mysqlx-import: an earlier import of these inputs into " << schema_name << "."
        << opts.collection << " stopped after storing " << count(docs, "document")
        << " (its progress is in " << schema_name
        << ".mysqlx_import_progress): run the same command with --resume to store exactly the"
           " rest, or with --restart to forget it and import everything again\n";
    res.ok = false;
    return res;
  }
  if (opts.resume && earlier.empty())
    err << "mysqlx-import: --resume: no earlier import of these inputs into " << schema_name << "."
        << opts.collection << " is recorded; importing everything\n";
  // A new import of inputs imported before: that job's row goes, so that
  // this run's own records are all there is.
  if (job.completed && !opts.resume) log.clear(sessions[0]);
  if (!earlier.empty() && total_size(inputs)) {
    std::optional<std::string> at;
    try {
      at = changed_entry(inputs, earlier, opts);
    } catch (const read_interrupted&) {
      res.signal = opts.interrupted->load();
      err << "mysqlx-import: interrupted (" << signal_name(res.signal)
          << ") while the input was checked against the import being resumed: nothing stored\n";
      res.ok = false;
      return res;
    }
    if (at) {
      err << "mysqlx-import: " << printable(*at)
          << ": not the entry the import being resumed stored here: the input changed since"
             " (--resume needs the same input; restore it, or --restart to import everything"
             " again)\n";
      res.ok = false;
      return res;
    }
  }
  resumed_ranges resumed(std::move(earlier));

  // Opened at the first skipped entry; a --resume appends to the rejects of
  // the runs it resumes (their entries are recorded, never met again).
  std::optional<rejects> reject_file;
  if (!opts.rejects.empty()) reject_file.emplace(opts.rejects, opts.resume);
  message_sink messages(err);

  for (unsigned i = 1; i < parallel; ++i) {
    try {
      sessions.emplace_back(settings);
    } catch (const mysqlx::Error& e) {
      if (!e.isConnectionError() && e.code() != 2013) throw;
      messages.line(refused_session(i, parallel, e, limit ? limit : max_connections(sessions[0])));
      res.ok = false;
      return res;
    }
  }
  std::vector<mysqlx::Collection> colls;
  colls.reserve(parallel);
  for (auto& s : sessions) colls.push_back(s.getSchema(schema_name).getCollection(opts.collection));
  if (opts.on_session) {
    for (unsigned i = 0; i < parallel; ++i) opts.on_session(sessions[i], i);
  }

  ledger book(opts.skip);
  batch_queue queue(2 * static_cast<std::size_t>(parallel), opts.interrupted);
  std::vector<std::thread> workers;
  std::optional<progress_display> bar;
  {
    const signals_blocked blocked;
    for (unsigned i = 0; i < parallel; ++i) {
      workers.emplace_back([&, i] {
        store_context ctx{sessions[i],
                          colls[i],
                          log,
                          opts.replace,
                          opts.patch,
                          opts.skip_invalid,
                          reject_file ? &*reject_file : nullptr,
                          messages};
        while (auto b = queue.pop()) {
          // Leaves the in-flight set last, after a failure has stopped the
          // queue: a batch waiting for this one's _ids is then dropped.
          struct in_flight {
            batch_queue& q;
            const batch& b;
            ~in_flight() { q.finished(b); }
          } guard{queue, *b};
          if (!queue.wait_turn(*b)) return;
          store_progress p;
          try {
            store_batch(ctx, *b, p);
            book.add(p);
            book.done(*b, b->entries_end);
          } catch (const entry_refused& r) {
            book.add(p);
            book.done(*b, b->entries[r.doc]);
            book.failed(r.message, fault::entry);
            queue.stop();
            return;
          } catch (const mysqlx::Error& e) {
            book.add(p);
            if (p.in_commit) book.in_doubt(*p.in_commit, *b);
            std::ostringstream msg;
            msg << b->range() << ": the batch of " << count(b->docs.size(), "document")
                << " failed";
            if (p.documents || p.refused)
              msg << " after " << count(p.documents, "document") << " of it were stored";
            if (p.record_failed) msg << ": its progress record was refused";
            msg << ": " << e.what();
            if (e.code() != 0) msg << " (error " << e.code() << ")";
            book.failed(msg.str(), fault::other);
            queue.stop();
            return;
          } catch (const rejects_error& e) {
            // A skipped entry that could not be written: as lost as an
            // entry not stored, so the import stops (it is not recorded).
            book.add(p);
            book.failed(e.what(), fault::rejects);
            queue.stop();
            return;
          }
        }
      });
    }
    bool use_bar = opts.progress == progress_style::bar;
    if (opts.progress == progress_style::automatic) use_bar = ::isatty(STDERR_FILENO) == 1;
    if (opts.progress != progress_style::none)
      bar.emplace(err, use_bar, opts.progress_interval, total_size(inputs), book.documents,
                  book.input_bytes);
  }

  // The reader: this thread.
  std::optional<std::string> stop_reason; // where the reader stopped
  // Why, for the advice: an invalid entry without --skip-invalid (fix it or
  // skip it); an input not in the format named, or not the input being
  // resumed, or one that cannot be read (--skip-invalid cannot go past
  // those).
  enum class stop_kind { entry, input, unreadable } stop = stop_kind::entry;
  std::string current_input;
  std::uint64_t entries = 0, seq = 0, bytes_before = 0;
  std::uint64_t offset = 0, flushed_offset = 0; // in all inputs together
  std::uint64_t flushed_entries = 0; // entries [0, flushed_entries) are in queued batches
  batch cur;
  auto flush = [&] {
    flushed_entries = entries;
    if (cur.docs.empty() && cur.skipped.empty()) return true;
    cur.seq = seq++;
    cur.entries_end = entries;
    cur.input_bytes = offset - flushed_offset;
    flushed_offset = offset;
    const bool queued = queue.push(std::move(cur));
    cur = batch{};
    return queued;
  };
  // Skips invalid entry `index`: said now, recorded (and written to
  // --rejects) with the batch it goes with. False when that batch could not
  // be queued (the import stops).
  auto invalid = [&](std::uint64_t index, const position& at, const std::string& reason,
                     std::string text) {
    if (res.invalid_skipped < max_listed_invalid)
      messages.line(where(at) + ": skipped: " + reason);
    else if (res.invalid_skipped == max_listed_invalid)
      messages.line("further invalid entries are skipped and counted, not listed");
    ++res.invalid_skipped;
    skipped_entry s{index, at, {}, reason, progress_log::digest(text, text)};
    if (reject_file) s.text = std::move(text);
    cur.bytes += s.text.size();
    cur.skipped.push_back(std::move(s));
    // Bounded like documents: a long run of invalid entries ends batches too.
    if (cur.skipped.size() >= opts.batch_size || cur.bytes >= opts.batch_bytes) return flush();
    return true;
  };
  try {
    for (const auto& name : inputs) {
      if (stop_reason || queue.stopped() || is_set(opts.interrupted)) break;
      current_input = name == "-" ? "<stdin>" : name;
      input_file file(name);
      json_input in(file.fd(), file.name(), opts.max_document, opts.format, opts.interrupted);
      entry e;
      bool first_entry = true;
      while (in.next(e)) {
        if (e.fatal) {
          // Not the format the user named: the rest of this input cannot be
          // read as documents, --skip-invalid or not.
          const std::string at = file.name() + ":" + std::to_string(e.line);
          messages.line(at + ": " + e.error);
          stop_reason = at;
          stop = stop_kind::input;
          // Documents not yet sent are dropped: an input that is not the
          // array it was said to be (JSON lines with --json-array) is mostly
          // not stored at all, instead of its first line's elements.
          cur = batch{};
          entries = std::max(flushed_entries, std::min(entries, opts.skip));
          break;
        }
        if (is_set(opts.interrupted)) break;
        const bool is_first = std::exchange(first_entry, false);
        offset = bytes_before + in.consumed();
        const std::uint64_t index = entries++;
        if (index < opts.skip) continue;
        if (resumed.starts_at(index) && !flush()) break;
        bool mismatch = false;
        if (resumed.covers(index, e.text, mismatch)) {
          ++res.resumed_entries;
          if (mismatch) {
            const std::string at = file.name() + ":" + std::to_string(e.line);
            messages.line(at + ": not the entry the import being resumed stored here: the input"
                               " changed since (--resume needs the same input)");
            stop_reason = at;
            stop = stop_kind::input;
            cur = batch{};
            entries = flushed_entries;
            break;
          }
          continue;
        }
        check_result c;
        if (e.error.empty()) c = check_document(e.text);
        if (!e.error.empty() || !c.ok) {
          std::string reason = e.error.empty() ? c.reason : e.error;
          if (is_first && opts.format == input_format::json_lines &&
              e.text.find_first_not_of(" \t") != std::string::npos &&
              e.text[e.text.find_first_not_of(" \t")] == '[')
            // Said, not guessed: the user may have meant one JSON array.
            reason += " (an input that is one JSON array of documents needs --json-array)";
          const std::string at = file.name() + ":" + std::to_string(e.line);
          if (!opts.skip_invalid) {
            --entries; // the bad entry is not before the stop
            messages.line(at + ": " + std::move(reason));
            stop_reason = at;
            break;
          }
          if (!invalid(index, {file.name(), e.line}, reason, std::move(e.text))) break;
          continue;
        }
        if ((opts.replace || opts.patch) && c.has_id && !c.id_is_string) {
          const std::string at = file.name() + ":" + std::to_string(e.line);
          const std::string why =
              opts.replace ? "--replace needs a string _id" : "--patch needs a string _id";
          if (!opts.skip_invalid) {
            --entries;
            std::string line = at;
            line += ": ";
            line += why;
            messages.line(line);
            stop_reason = at;
            break;
          }
          if (!invalid(index, {file.name(), e.line}, why, std::move(e.text))) break;
          continue;
        }
        if (cur.files.empty() || cur.files.back().second != file.name())
          cur.files.emplace_back(cur.docs.size(), file.name());
        cur.lines.push_back(e.line);
        cur.entries.push_back(index);
        cur.ids.push_back(c.id_is_string ? c.id : std::string());
        if (!c.id_key.empty()) cur.id_hashes.push_back(std::hash<std::string>{}(c.id_key));
        cur.bytes += e.text.size();
        cur.without_id.push_back(!c.has_id);
        cur.any_id = cur.any_id || c.has_id;
        cur.docs.push_back(std::move(e.text));
        e.text = std::string();
        if (cur.docs.size() >= opts.batch_size || cur.bytes >= opts.batch_bytes) {
          if (!flush()) break;
        }
      }
      bytes_before += in.bytes_read();
      offset = bytes_before;
      if (!stop_reason && queue.stopped()) break;
    }
    if (!is_set(opts.interrupted)) flush();
  } catch (const read_interrupted&) {
    // The signal's flag is set: the batch being filled is not sent.
  } catch (const std::runtime_error& e) {
    // An input that cannot be opened or read stops the import: what came
    // before it is stored.
    messages.line(e.what());
    flush();
    stop_reason = current_input;
    stop = stop_kind::unreadable;
  }
  res.signal = opts.interrupted ? opts.interrupted->load() : 0;
  if (res.signal) queue.stop(); // what is queued is not in flight yet
  queue.close();
  for (auto& w : workers) w.join();
  if (bar) bar->finish();
  // The skipped entries' files closed before the import is called complete:
  // a close that fails may have lost the last of them.
  if (reject_file) {
    try {
      reject_file->close();
    } catch (const rejects_error& e) {
      book.failed(e.what(), fault::rejects);
    }
  }

  // COMMITs whose reply was lost: the progress record, read on a new
  // session, tells whether each was applied.
  std::uint64_t looked_up = 0;
  store_progress found;
  for (const auto& d : book.take_in_doubt()) {
    const store_progress::pending& p = d.range;
    try {
      mysqlx::Session s(settings);
      if (log.recorded(s, p.range.first)) {
        found.documents += p.documents;
        found.replaced += p.replaced;
        found.without_id += p.without_id;
        book.done(d.seq, d.end, d.batch_end, d.batch_bytes);
      }
      ++looked_up;
    } catch (const mysqlx::Error& e) {
      res.uncertain_documents += p.documents;
      messages.line("cannot look up whether the " + count(p.documents, "document") +
                    " committed when the connection broke are stored: " + e.what());
    }
  }
  book.add(found);

  res.entries = entries;
  res.resumed_documents = resumed.documents();
  std::optional<std::string> failure;
  fault failure_kind = fault::other;
  std::uint64_t refused = 0;
  book.read([&](std::uint64_t docs, std::uint64_t without_id, std::uint64_t replaced,
                std::uint64_t ref, std::uint64_t prefix, const std::optional<std::string>& f,
                fault kind) {
    res.documents = docs;
    res.ids_generated = without_id;
    res.replaced = replaced;
    refused = ref;
    res.stored_prefix = prefix;
    failure = f;
    failure_kind = kind;
  });
  res.invalid_skipped += refused;
  res.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  const char* const resume_advice = "run the same command with --resume to store exactly the rest";
  if (failure || stop_reason || res.signal) {
    res.ok = false;
    if (failure) messages.line(*failure);
    if (looked_up)
      messages.line("the connection broke while a batch was being committed; its progress"
                    " record, looked up on a new connection, tells what was stored, and the"
                    " count below includes it");
    if (res.uncertain_documents)
      messages.line("the connection broke during a COMMIT, so " +
                    count(res.uncertain_documents, "document") +
                    " may or may not be stored: --resume will know (their progress record is"
                    " committed with them)");
    std::ostringstream msg;
    if (res.signal)
      msg << "interrupted (" << signal_name(res.signal) << "): finished the batches in flight; ";
    else if (failure)
      msg << "stopped: ";
    else
      msg << "stopped at " << *stop_reason << ": ";
    msg << count(res.documents, "document") << " stored";
    if (res.resumed_entries) msg << " by this run";
    if (stop_reason && !failure && !res.signal) msg << " before it";
    if (!failure && !res.signal) res.stored_prefix = entries;
    if (!opts.resume && res.signal == 0)
      msg << "; the first " << count(res.stored_prefix, "entry", "entries")
          << " of the input are all stored";
    msg << "; ";
    if (stop == stop_kind::input && stop_reason)
      msg << "once the input is fixed, " << resume_advice;
    else if (stop == stop_kind::unreadable && stop_reason && !failure)
      msg << "once the input can be read, " << resume_advice;
    else if (failure && failure_kind == fault::rejects)
      msg << "once --rejects " << opts.rejects << " can be written, " << resume_advice;
    else if ((failure && failure_kind == fault::entry) || (stop_reason && !failure && !res.signal))
      msg << "fix that entry in place (keeping its line) and " << resume_advice
          << ", or add --skip-invalid to skip it"
          << (failure && failure->find("(error 5116)") != std::string::npos && !opts.replace &&
                      !opts.patch
                  ? ", or --replace or --patch to replace or patch the stored document"
                  : "");
    else
      msg << resume_advice;
    messages.line(msg.str());
  } else {
    res.stored_prefix = entries;
    // Complete: the job's records become one row that says so.
    try {
      log.complete(sessions[0]);
    } catch (const mysqlx::Error& e) {
      messages.line(std::string("every entry is stored, but its progress records could not be"
                                " marked complete (a later import of the same inputs will ask"
                                " for --resume, which stores nothing more, or --restart): ") +
                    e.what());
    }
  }
  if (reject_file && reject_file->written()) {
    const std::uint64_t n = reject_file->written(), before = reject_file->earlier();
    messages.line(count(n, "skipped entry", "skipped entries") + " written to " + opts.rejects +
                  (before ? " after the " + std::to_string(before) + " of earlier runs" : "") +
                  ", " + (n == 1 ? "its reason" : "their reasons") + " in " + opts.rejects +
                  ".reasons");
  }
  const double rate = res.seconds > 0 ? static_cast<double>(res.documents) / res.seconds : 0;
  out << "documents " << res.documents;
  if (opts.replace || opts.patch)
    out << " (added " << res.documents - res.replaced << ", "
        << (opts.replace ? "replaced " : "patched ") << res.replaced << ")";
  out << ", ids generated " << res.ids_generated << ", invalid entries skipped "
      << res.invalid_skipped << ", seconds " << std::fixed << std::setprecision(2) << res.seconds
      << " (" << static_cast<std::uint64_t>(rate) << " docs/s)";
  if (res.resumed_entries)
    out << "; resumed: " << count(res.resumed_entries, "entry", "entries")
        << " stored or skipped by earlier runs (" << count(res.resumed_documents, "document")
        << ")";
  out << "\n" << std::flush;
  return res;
}

} // namespace mysqlx_import
