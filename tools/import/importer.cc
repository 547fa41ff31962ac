#include "importer.h"

#include "document_check.h"
#include "json_input.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <iomanip>
#include <iterator>
#include <map>
#include <mutex>
#include <ostream>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>

namespace mysqlx_import {

namespace {

using clock_type = std::chrono::steady_clock;

// Bad entries listed one by one before the rest are only counted.
constexpr std::uint64_t max_listed_invalid = 100;

struct position {
  std::string file;
  std::uint64_t line = 0;
};

std::string where(const position& p) {
  return p.file + ":" + std::to_string(p.line);
}

// "1 document", "2 documents": messages count as users do.
std::string count(std::uint64_t n, const std::string& noun, const std::string& nouns = {}) {
  return std::to_string(n) + " " + (n == 1 ? noun : nouns.empty() ? noun + "s" : nouns);
}

// An _id as messages show it: quoted, with quotes, backslashes and control
// characters escaped so that the id cannot break the line.
std::string quoted(const std::string& id) {
  std::string q = "\"";
  for (const unsigned char c : id) {
    if (c == '"' || c == '\\') {
      q += '\\';
      q += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char hex[] = "0123456789abcdef";
      q += "\\u00";
      q += hex[c >> 4];
      q += hex[c & 15];
    } else {
      q += static_cast<char>(c);
    }
  }
  return q + "\"";
}

struct batch {
  std::uint64_t seq = 0;
  std::vector<std::string> docs;
  std::vector<std::string> ids;     // each document's string _id ("" when none or not a string)
  std::vector<std::uint64_t> lines; // each document's line in its input
  std::vector<std::pair<std::size_t, std::string>> files; // (first document, input) of each input
  bool any_id = false; // with --replace: some document has an _id
  std::uint64_t without_id = 0;
  std::uint64_t entries_end = 0; // entries [.., entries_end) of the input are in or before it
  std::size_t bytes = 0;         // of its documents
  std::uint64_t input_bytes = 0; // of the input since the previous batch (progress)
  position first, last;

  std::string range() const {
    if (first.file == last.file) {
      return first.line == last.line ? where(first)
                                     : where(first) + "-" + std::to_string(last.line);
    }
    return where(first) + " to " + where(last);
  }
  // Where document i of the batch (0-based) is in the input.
  position at(std::size_t i) const {
    auto f = files.begin();
    while (std::next(f) != files.end() && std::next(f)->first <= i) ++f;
    return {f->second, lines[i]};
  }
};

// Batches from the reader to the sessions; bounded, so that a fast reader
// holds at most a few batches per session in memory.
class batch_queue {
public:
  explicit batch_queue(std::size_t capacity) : m_capacity(capacity) {}

  // False when the import stopped and the batch was not queued.
  bool push(batch&& b) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_not_full.wait(lock, [&] { return m_stopped || m_items.size() < m_capacity; });
    if (m_stopped) return false;
    m_items.push_back(std::move(b));
    m_not_empty.notify_one();
    return true;
  }
  std::optional<batch> pop() {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_not_empty.wait(lock, [&] { return m_stopped || m_closed || !m_items.empty(); });
    if (m_stopped || m_items.empty()) return std::nullopt;
    batch b = std::move(m_items.front());
    m_items.pop_front();
    m_not_full.notify_one();
    return b;
  }
  // No more batches will come; the queued ones are still handed out.
  void close() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_closed = true;
    m_not_empty.notify_all();
  }
  // A batch failed: queued batches are dropped, nothing more is taken.
  void stop() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stopped = true;
    m_items.clear();
    m_not_empty.notify_all();
    m_not_full.notify_all();
  }
  bool stopped() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_stopped;
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_not_empty, m_not_full;
  std::deque<batch> m_items;
  std::size_t m_capacity;
  bool m_closed = false, m_stopped = false;
};

// Which batches the server confirmed, and so how far the input is stored
// without a gap (batches finish out of order when there are several sessions).
class ledger {
public:
  explicit ledger(std::uint64_t start) : m_prefix(start) {}

  void stored(const batch& b, std::uint64_t replaced = 0) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_documents += b.docs.size();
    m_replaced += replaced;
    m_without_id += b.without_id;
    m_done[b.seq] = b.entries_end;
    while (!m_done.empty() && m_done.begin()->first == m_next) {
      m_prefix = m_done.begin()->second;
      m_done.erase(m_done.begin());
      ++m_next;
    }
    m_documents_atomic.store(m_documents, std::memory_order_relaxed);
    m_input_bytes.fetch_add(b.input_bytes, std::memory_order_relaxed);
  }
  // The first failure wins; later ones are consequences of the stop.
  // `entry` is the failure told from the entry at fault ("file:line: why"),
  // when the tool could find it; then nothing of the batch was stored.
  void failed(const batch& b, const mysqlx::Error& e, const std::string& entry) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_failure) return;
    std::ostringstream msg;
    if (entry.empty()) {
      msg << b.range() << ": the batch of " << count(b.docs.size(), "document")
          << " failed: " << e.what();
      if (e.code() != 0) msg << " (error " << e.code() << ")";
    } else {
      msg << entry;
      if (e.code() != 0) msg << " (error " << e.code() << ")";
      msg << "; so its batch of " << count(b.docs.size(), "document") << " (" << b.range()
          << ") was not stored";
    }
    m_failure = msg.str();
    m_located = !entry.empty();
    m_duplicate = m_located && e.code() == 5116;
    // A batch whose request went out without a reply: stored or not, the
    // connector cannot know (for --replace batches, only the COMMIT's is).
    m_uncertain = e.mayHaveBeenApplied() ? b.docs.size() : 0;
    if (m_uncertain && !e.getGeneratedIds().empty()) {
      // Client-made ids: the first one tells afterwards whether the batch
      // (atomic) was stored.
      m_probe_id = e.getGeneratedIds().front();
      m_uncertain_batch = b;
    }
  }
  // The uncertain batch and the id that tells whether it was stored, if any.
  std::optional<std::pair<batch, std::string>> probe() {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_uncertain_batch) return std::nullopt;
    return std::make_pair(*m_uncertain_batch, m_probe_id);
  }
  // The probe answered: the uncertain batch is stored, or not.
  void resolved(const batch& b, bool was_stored) {
    if (was_stored) stored(b);
    std::lock_guard<std::mutex> lock(m_mutex);
    m_uncertain = 0;
    m_uncertain_batch.reset();
  }

  std::uint64_t documents() const { return m_documents_atomic.load(std::memory_order_relaxed); }
  // Input bytes whose documents are stored: what progress shows (bytes read
  // run ahead by the batches queued).
  std::uint64_t input_bytes() const { return m_input_bytes.load(std::memory_order_relaxed); }
  template <typename F> void read(F&& f) {
    std::lock_guard<std::mutex> lock(m_mutex);
    f(m_documents, m_without_id, m_prefix, m_failure, m_uncertain);
  }
  std::uint64_t replaced() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_replaced;
  }
  bool located() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_located;
  }
  bool duplicate() {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_duplicate;
  }

private:
  std::mutex m_mutex;
  std::uint64_t m_documents = 0, m_without_id = 0, m_replaced = 0;
  bool m_located = false, m_duplicate = false; // the failure names its entry; a duplicate _id
  std::atomic<std::uint64_t> m_documents_atomic{0}, m_input_bytes{0};
  std::map<std::uint64_t, std::uint64_t> m_done; // seq -> entries_end, not yet in the prefix
  std::uint64_t m_next = 0;                      // the lowest seq not yet stored
  std::uint64_t m_prefix;
  std::optional<std::string> m_failure;
  std::uint64_t m_uncertain = 0;
  std::optional<batch> m_uncertain_batch;
  std::string m_probe_id;
};

// Adds a batch atomically; returns how many of its documents replaced a
// stored one (--replace). `call` is set to the batch indices of the
// documents of the add() in progress (empty: all of them), so that an error
// naming a document by its place in that add() can be traced to its line.
std::uint64_t add_batch(mysqlx::Session& session, mysqlx::Collection& coll, const batch& b,
                        bool replace, std::vector<std::size_t>& call) {
  call.clear();
  if (!replace || !b.any_id) {
    // One Insert: atomic by itself.
    coll.add(b.docs).execute();
    return 0;
  }
  // --replace: documents with an _id replace theirs one by one; one
  // transaction keeps the batch atomic all the same.
  std::uint64_t replaced = 0;
  session.startTransaction();
  try {
    std::vector<std::string> new_docs;
    std::vector<std::size_t> new_index;
    for (std::size_t i = 0; i < b.docs.size(); ++i) {
      if (b.ids[i].empty()) {
        new_docs.push_back(b.docs[i]);
        new_index.push_back(i);
        continue;
      }
      call.assign(1, i);
      // The server counts 1 row for an insert, 2 for a replaced row and 0
      // for one replaced by the same document (MySQL's ON DUPLICATE KEY
      // UPDATE): all but 1 mean the _id was there already.
      if (coll.addOrReplaceOne(b.ids[i], mysqlx::Value(b.docs[i])).getAffectedItemsCount() != 1)
        ++replaced;
    }
    call = new_index;
    if (!new_docs.empty()) coll.add(new_docs).execute();
    call.clear();
    session.commit();
  } catch (const mysqlx::Error& e) {
    if (!e.isConnectionError()) {
      try {
        session.rollback();
      } catch (const mysqlx::Error&) {
        // The batch's own error is the one worth reporting.
      }
    }
    throw;
  }
  return replaced;
}

// The entry of a batch refused for a duplicate _id (error 5116): the first,
// in input order, whose _id is already stored or repeats an earlier one of
// the batch. The batch stored nothing, so looking its ids up stores nothing
// twice and drops nothing. Empty when it cannot be told (an _id that is not a
// string, the connection gone).
std::string locate_duplicate(mysqlx::Collection& coll, const batch& b) {
  std::unordered_map<std::string, std::size_t> seen;
  try {
    for (std::size_t i = 0; i < b.docs.size(); ++i) {
      if (b.ids[i].empty()) continue;
      const auto [it, fresh] = seen.emplace(b.ids[i], i);
      const std::string head = where(b.at(i)) + ": duplicate _id " + quoted(b.ids[i]);
      if (!fresh) return head + ", the same _id as " + where(b.at(it->second));
      if (!coll.getOne(b.ids[i]).isNull())
        return head + ": a document with this _id is already stored";
    }
  } catch (const mysqlx::Error&) {
    // The batch's own error is still reported, without its entry.
  }
  return {};
}

// The library names a document by its place in the add(): "Document 10"
// (from 0) or "document 6 of 6" (from 1). Said here by its file and line,
// as every other message of the tool, or empty when the error names none.
std::string locate_named_document(const batch& b, const std::vector<std::size_t>& call,
                                  const std::string& what) {
  static const std::regex from_zero("^Document ([0-9]+)");
  static const std::regex from_one("document ([0-9]+) of ([0-9]+) in the add\\(\\)");
  const std::size_t in_call = call.empty() ? b.docs.size() : call.size();
  std::smatch m;
  std::size_t k = 0;
  if (std::regex_search(what, m, from_zero)) {
    k = std::stoul(m[1].str());
  } else if (std::regex_search(what, m, from_one) && std::stoul(m[2].str()) == in_call &&
             std::stoul(m[1].str()) >= 1) {
    k = std::stoul(m[1].str()) - 1;
  } else {
    return {};
  }
  if (k >= in_call) return {};
  const std::size_t i = call.empty() ? k : call[k];
  return where(b.at(i)) + ": " + m.prefix().str() + "the document" + m.suffix().str();
}

std::string locate_failure(mysqlx::Collection& coll, const batch& b,
                           const std::vector<std::size_t>& call, const mysqlx::Error& e) {
  if (e.code() == 5116) return locate_duplicate(coll, b);
  if (e.mayHaveBeenApplied()) return {};
  return locate_named_document(b, call, e.what());
}

std::string megabytes(std::uint64_t bytes) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / 1e6 << " MB";
  return s.str();
}

// Progress on stderr: a bar redrawn in place on a terminal, a line every
// `interval` seconds otherwise.
class progress {
public:
  progress(std::ostream& err, bool bar, double interval, std::optional<std::uint64_t> total,
           const ledger& l)
      : m_err(err), m_bar(bar), m_interval(interval), m_total(total), m_ledger(l),
        m_start(clock_type::now()) {
    m_thread = std::thread([this] { loop(); });
  }
  ~progress() { finish(); }
  void finish() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (m_done) return;
      m_done = true;
    }
    m_cv.notify_all();
    m_thread.join();
    // The last state, so that even a short import shows one.
    if (m_bar)
      m_err << "\r" << line() << "\x1b[K\n" << std::flush;
    else
      m_err << line() << "\n" << std::flush;
  }

private:
  std::string line() const {
    const double secs = std::chrono::duration<double>(clock_type::now() - m_start).count();
    const std::uint64_t docs = m_ledger.documents();
    const std::uint64_t bytes = m_ledger.input_bytes();
    const double rate = secs > 0 ? static_cast<double>(docs) / secs : 0;
    std::ostringstream s;
    double fraction = -1;
    if (m_total && *m_total > 0)
      fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(*m_total));
    if (m_bar && fraction >= 0) {
      constexpr int width = 30;
      const int full = static_cast<int>(fraction * width);
      s << "[" << std::string(full, '#') << std::string(width - full, ' ') << "] ";
    }
    if (!m_bar) s << "mysqlx-import: ";
    if (fraction >= 0) s << static_cast<int>(fraction * 100) << "%, ";
    s << docs << " documents, " << megabytes(bytes) << ", " << static_cast<std::uint64_t>(rate)
      << " docs/s";
    if (fraction > 0 && fraction < 1) {
      const double eta = secs * (1 - fraction) / fraction;
      s << ", ETA " << static_cast<std::uint64_t>(eta + 0.5) << " s";
    }
    return s.str();
  }
  void loop() {
    const auto step =
        m_bar ? std::chrono::duration<double>(0.25) : std::chrono::duration<double>(m_interval);
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_cv.wait_for(lock, step, [&] { return m_done; })) {
      if (m_bar) {
        m_err << "\r" << line() << "\x1b[K" << std::flush;
      } else {
        m_err << line() << "\n" << std::flush;
      }
    }
  }

  std::ostream& m_err;
  bool m_bar;
  double m_interval;
  std::optional<std::uint64_t> m_total;
  const ledger& m_ledger;
  clock_type::time_point m_start;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  bool m_done = false;
  std::thread m_thread;
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

} // namespace

outcome run_import(const options& opts, std::ostream& out, std::ostream& err) {
  const auto start = clock_type::now();
  std::vector<std::string> inputs = opts.inputs;
  if (inputs.empty()) inputs.push_back("-");
  const unsigned parallel = std::max(1u, opts.parallel);

  // Sessions first: a bad URI or password fails before anything is read.
  mysqlx::SessionSettings settings(opts.uri);
  if (opts.docid_mode) settings.set(mysqlx::SessionOption::DOCID_MODE, *opts.docid_mode);
  std::vector<mysqlx::Session> sessions;
  sessions.reserve(parallel);
  sessions.emplace_back(settings);
  std::string schema_name = opts.schema;
  if (schema_name.empty()) schema_name = sessions[0].getDefaultSchemaName();
  if (schema_name.empty())
    throw mysqlx::ClientError(mysqlx::errc::USAGE, "no schema: give --schema or one in the URI");
  sessions[0].createSchema(schema_name, true).createCollection(opts.collection, true);
  for (unsigned i = 1; i < parallel; ++i) sessions.emplace_back(settings);
  std::vector<mysqlx::Collection> colls;
  for (auto& s : sessions) colls.push_back(s.getSchema(schema_name).getCollection(opts.collection));
  if (opts.on_session) {
    for (unsigned i = 0; i < parallel; ++i) opts.on_session(sessions[i], i);
  }

  outcome res;
  ledger book(opts.skip);
  batch_queue queue(2 * static_cast<std::size_t>(parallel));
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < parallel; ++i) {
    workers.emplace_back([&, i] {
      std::vector<std::size_t> call;
      while (auto b = queue.pop()) {
        try {
          const std::uint64_t replaced = add_batch(sessions[i], colls[i], *b, opts.replace, call);
          book.stored(*b, replaced);
        } catch (const mysqlx::Error& e) {
          book.failed(*b, e,
                      queue.stopped() ? std::string() : locate_failure(colls[i], *b, call, e));
          queue.stop();
          return;
        }
      }
    });
  }

  std::optional<progress> bar;
  bool use_bar = opts.progress == progress_style::bar;
  if (opts.progress == progress_style::automatic) use_bar = ::isatty(STDERR_FILENO) == 1;
  if (opts.progress != progress_style::none)
    bar.emplace(err, use_bar, opts.progress_interval, total_size(inputs), book);

  // The reader: this thread.
  std::optional<std::string> stop_reason; // an invalid entry without --skip-invalid
  // The stop is an input not in the format named: --skip-invalid cannot go past it.
  bool stop_fatal = false;
  std::uint64_t entries = 0, seq = 0, bytes_before = 0;
  std::uint64_t position = 0, flushed_position = 0; // in all inputs together
  std::uint64_t flushed_entries = 0; // entries [0, flushed_entries) are in queued batches
  batch cur;
  auto flush = [&] {
    flushed_entries = entries;
    if (cur.docs.empty()) return true;
    cur.seq = seq++;
    cur.entries_end = entries;
    cur.input_bytes = position - flushed_position;
    flushed_position = position;
    const bool queued = queue.push(std::move(cur));
    cur = batch{};
    return queued;
  };
  try {
    for (const auto& name : inputs) {
      if (stop_reason || queue.stopped()) break;
      input_file file(name);
      json_input in(file.fd(), file.name(), opts.max_document, opts.format);
      entry e;
      bool first_entry = true;
      while (in.next(e)) {
        if (e.fatal) {
          // Not the format the user named: the rest of this input cannot be
          // read as documents, --skip-invalid or not.
          const std::string at = file.name() + ":" + std::to_string(e.line);
          err << "mysqlx-import: " << at << ": " << e.error << "\n";
          stop_reason = at;
          stop_fatal = true;
          // Documents not yet sent are dropped: an input that is not the
          // array it was said to be (JSON lines with --json-array) is mostly
          // not stored at all, instead of its first line's elements.
          cur = batch{};
          entries = std::max(flushed_entries, std::min(entries, opts.skip));
          break;
        }
        const bool is_first = std::exchange(first_entry, false);
        position = bytes_before + in.consumed();
        const std::uint64_t index = entries++;
        if (index < opts.skip) continue;
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
            err << "mysqlx-import: " << at << ": " << reason << "\n";
            stop_reason = at;
            break;
          }
          if (res.invalid_skipped < max_listed_invalid)
            err << "mysqlx-import: " << at << ": skipped: " << reason << "\n";
          else if (res.invalid_skipped == max_listed_invalid)
            err << "mysqlx-import: further invalid entries are skipped and counted, not listed\n";
          ++res.invalid_skipped;
          continue;
        }
        if (opts.replace && c.has_id && !c.id_is_string) {
          err << "mysqlx-import: " << file.name() << ":" << e.line
              << ": --replace needs a string _id\n";
          if (!opts.skip_invalid) {
            --entries;
            stop_reason = file.name() + ":" + std::to_string(e.line);
            break;
          }
          ++res.invalid_skipped;
          continue;
        }
        if (cur.docs.empty()) cur.first = {file.name(), e.line};
        cur.last = {file.name(), e.line};
        if (cur.files.empty() || cur.files.back().second != file.name())
          cur.files.emplace_back(cur.docs.size(), file.name());
        cur.lines.push_back(e.line);
        cur.ids.push_back(c.id_is_string ? c.id : std::string());
        cur.bytes += e.text.size();
        if (!c.has_id) ++cur.without_id;
        cur.any_id = cur.any_id || c.has_id;
        cur.docs.push_back(std::move(e.text));
        e.text = std::string();
        if (cur.docs.size() >= opts.batch_size || cur.bytes >= opts.batch_bytes) {
          if (!flush()) break;
        }
      }
      bytes_before += in.bytes_read();
      position = bytes_before;
      if (!stop_reason && queue.stopped()) break;
    }
    flush();
  } catch (const std::runtime_error& e) {
    // A read error is a stop like an invalid entry: what came before is stored.
    err << "mysqlx-import: " << e.what() << "\n";
    flush();
    stop_reason = "a read error";
  }
  queue.close();
  for (auto& w : workers) w.join();
  if (bar) bar->finish();

  // A batch lost with its reply, whose client-made ids are known: a fresh
  // session looks one up, so the account below is exact.
  std::optional<bool> probed;
  if (auto p = book.probe()) {
    try {
      mysqlx::Session s(settings);
      mysqlx::Collection c = s.getSchema(schema_name).getCollection(opts.collection);
      probed = !c.getOne(p->second).isNull();
      book.resolved(p->first, *probed);
    } catch (const mysqlx::Error&) {
      // Unreachable still: the batch stays uncertain, and is reported so.
    }
  }

  res.entries = entries;
  std::optional<std::string> failure;
  book.read([&](std::uint64_t docs, std::uint64_t without_id, std::uint64_t prefix,
                const std::optional<std::string>& f, std::uint64_t uncertain) {
    res.documents = docs;
    res.ids_generated = without_id;
    res.stored_prefix = prefix;
    failure = f;
    res.uncertain_documents = uncertain;
  });
  res.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  if (failure) {
    res.ok = false;
    err << "mysqlx-import: " << *failure << "\n";
    if (probed) {
      err << "mysqlx-import: the connection broke before the server answered; looked up by its"
             " first client-made id on a new connection, that batch is "
          << (*probed ? "stored" : "not stored") << "\n";
    }
    if (res.uncertain_documents)
      err << "mysqlx-import: the connection broke before the server answered, so that batch may"
             " or may not be stored; documents with an _id of their own can be imported again"
             " with --replace\n";
    err << "mysqlx-import: stopped: " << count(res.documents, "document") << " stored; the first "
        << count(res.stored_prefix, "entry", "entries")
        << " of the input are all stored (resume with --skip " << res.stored_prefix;
    if (book.located())
      err << " once that entry is fixed or removed"
          << (book.duplicate() && !opts.replace
                  ? ", or with --replace to replace the stored document"
                  : "");
    err << ")\n";
  } else if (stop_reason) {
    res.ok = false;
    res.stored_prefix = entries;
    err << "mysqlx-import: stopped at " << *stop_reason << ": " << count(res.documents, "document")
        << " stored before it; " << (stop_fatal ? "once the input is fixed, " : "fix it and ")
        << "resume with --skip " << entries << (stop_fatal ? "" : ", or use --skip-invalid")
        << "\n";
  } else {
    res.stored_prefix = entries;
  }
  const double rate = res.seconds > 0 ? static_cast<double>(res.documents) / res.seconds : 0;
  res.replaced = book.replaced();
  out << "documents " << res.documents;
  if (opts.replace)
    out << " (added " << res.documents - res.replaced << ", replaced " << res.replaced << ")";
  out << ", ids generated " << res.ids_generated << ", invalid entries skipped "
      << res.invalid_skipped << ", seconds " << std::fixed << std::setprecision(2) << res.seconds
      << " (" << static_cast<std::uint64_t>(rate) << " docs/s)\n"
      << std::flush;
  return res;
}

} // namespace mysqlx_import
