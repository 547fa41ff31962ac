// mysqlx-import: imports JSON documents into a collection (see usage()).
#include "importer.h"
#include "printable.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace {

const char* const usage_text =
    R"(usage: mysqlx-import [OPTION]... -c COLLECTION [FILE]...
Imports JSON documents into a collection over the X Protocol. Each FILE (or
standard input when no FILE is given, or for "-") holds JSON lines (one
document per line; empty lines are ignored), or with --json-array one JSON
array of documents. The format is never guessed from the input's first bytes.
Inputs are read as streams: memory stays bounded whatever their size.

  -u, --uri URI           mysqlx://user:password@host:port/schema?option=value
                          (default: the MYSQLX_URI environment variable, which
                          keeps the password out of the process list)
  -s, --schema NAME       the schema (default: the URI's); created if missing
  -c, --collection NAME   the collection (required); created if missing
      --json-array        every input is one JSON array of documents: its first
                          non-blank byte must be '[' and the array must close
                          at its end, else the import stops there
  -b, --batch-size N      documents per batch (default 1000); a batch also
                          ends once it holds 16 MB
      --docid-mode MODE   who makes the _id of a document that has none:
                          auto (the server where it can), server or client
                          (default: the URI's docid-mode, else auto)
      --replace           a document with an _id replaces the stored document
                          with that _id (addOrReplaceOne) instead of failing
                          with a duplicate key; its _id must be a string.
                          The final line then says how many documents were
                          added and how many replaced one already stored
                          (an earlier document of the input with the same
                          _id included)
      --patch             a document with an _id is merged into the stored
                          document with that _id (JSON merge patch, RFC 7396:
                          its members replace or add the stored ones, a null
                          member removes one), or added when none is stored;
                          its _id must be a string. The final line then says
                          how many were added and how many patched.
                          With -j, entries that share an _id are stored in
                          input order (a batch waits for an earlier one
                          with the same _id), so, as with -j 1,
                          the later entry of the input wins with --replace
                          and --patch, and is the duplicate without them
      --skip-invalid      report each entry that is not a JSON object, or that
                          the server refuses (file, line, _id, reason), and
                          go on: every other entry of its batch is stored;
                          without it the import stops at the first one
      --rejects FILE      write every skipped entry, as it was, to FILE (one
                          per line) and why to FILE.reasons, to fix and
                          import them again. The files are made at the
                          first skipped entry (anew, unless --resume);
                          --resume appends to them: the entries that the
                          earlier runs skipped stay. FILE may
                          not be an input (the same file by any name); a
                          write that fails stops the import
      --resume            go on with a stopped import of the same inputs into
                          the same collection: store exactly the entries it
                          did not store
      --restart           forget a stopped import of the same inputs and
                          import everything again
      --skip N            do not import the first N entries of the input
                          (counting invalid ones, not empty lines)
  -j, --parallel N        sessions adding batches at the same time, each with
                          its own connection (default 1, at most 256, and
                          not more than the server's mysqlx_max_connections)
      --progress MODE     auto (a bar on a terminal, else lines), bar, lines
                          or none; progress goes to standard error
      --progress-interval SECONDS
                          seconds between progress lines (default 10)
      --max-document-size BYTES
                          a larger document is an invalid entry, named by
                          its file and line (default 67108864); the rest of
                          its line (or array element) is read and dropped,
                          so an entry never holds more than BYTES and 64 KiB
                          of white space
  -h, --help              show this text

At the end it prints one line on standard output: documents stored, ids
generated (documents that had no _id), invalid entries skipped, seconds.
Messages name an entry by its file and line, counted from 1 (the first line
of a file is line 1, as in editors); an offset inside an entry counts bytes
from 0. A document whose _id is already stored, or repeats an earlier one,
is named with its _id. Bytes of the input that are not printable UTF-8 are
shown as \xNN.

Resuming: every batch is stored in one transaction together with a record
of which entries it holds, in the table mysqlx_import_progress of the
schema, so what is stored and what is recorded never disagree, whatever
stops the import: an error, Ctrl-C, SIGTERM, SIGKILL, a server that dies.
Run the same command again with --resume to store exactly the rest, with
any --parallel. A batch the server refuses because of an entry in it is
split until that entry is found; everything else in it is stored. Without
--resume or --restart, an import whose inputs have records left by a
stopped one refuses to start. When an import completes, its records become
one row that says so: a --resume then stores nothing. --resume needs the same input: each recorded range's first and
last entries are checked, and it stops at one that changed (fix a bad
entry in place, keeping its line).

SIGINT (Ctrl-C) and SIGTERM stop reading, finish the batches in flight and
print the final line and the advice; a second one ends the tool at once.

Exit status: 0 when every entry was imported or skipped with --skip-invalid,
1 when the import stopped or could not start, 2 for a bad command line,
130 after SIGINT and 143 after SIGTERM.
)";

// Sessions at most: each is a connection and a thread, and a server takes
// 100 X Protocol connections by default (mysqlx_max_connections).
constexpr std::uint64_t max_parallel = 256;

// Set by the first SIGINT or SIGTERM; the import polls it.
std::atomic<int> interrupted{0};

extern "C" void on_signal(int sig) {
  interrupted.store(sig);
  // A second one ends the tool at once: the default action again.
  std::signal(sig, SIG_DFL);
}

void catch_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0; // no SA_RESTART: a blocking read of the input returns EINTR
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// Opens /dev/null onto each of descriptors 0-2 that is closed, before
// anything else opens a file or a socket: with standard input closed, the
// connection would otherwise get descriptor 0 and be read as the input
// (with standard output closed, the summary would be written into it).
// Returns whether standard input was closed.
bool standard_descriptors_open() {
  bool stdin_closed = false;
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == 0) stdin_closed = true;
    const int opened = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (opened != fd) std::_Exit(1); // the lowest free descriptor is `fd`; no way to say it
  }
  return stdin_closed;
}

[[noreturn]] void bad_usage(const std::string& why) {
  std::cerr << "mysqlx-import: " << why << "\n"
            << "Try 'mysqlx-import --help'.\n";
  std::exit(2);
}

std::uint64_t number(const std::string& opt, const std::string& text, std::uint64_t min) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-' || v < min)
    bad_usage(opt + " needs a whole number of at least " + std::to_string(min) + ", not '" + text +
              "'");
  return v;
}

} // namespace

int main(int argc, char** argv) {
  const bool stdin_closed = standard_descriptors_open();
  mysqlx_import::options opts;
  if (const char* env = std::getenv("MYSQLX_URI")) opts.uri = env;
  bool only_files = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_files || arg == "-" || arg.empty() || arg[0] != '-') {
      opts.inputs.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    std::string value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
      has_value = true;
    }
    auto take = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) bad_usage(arg + " needs a value");
      return argv[++i];
    };
    auto flag = [&] {
      if (has_value) bad_usage(arg + " takes no value");
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << usage_text;
      return 0;
    } else if (arg == "-u" || arg == "--uri") {
      opts.uri = take();
    } else if (arg == "-s" || arg == "--schema") {
      opts.schema = take();
    } else if (arg == "-c" || arg == "--collection") {
      opts.collection = take();
    } else if (arg == "-b" || arg == "--batch-size") {
      opts.batch_size = number(arg, take(), 1);
    } else if (arg == "--docid-mode") {
      const std::string m = take();
      if (m == "auto")
        opts.docid_mode = mysqlx::DocIdMode::AUTO;
      else if (m == "server")
        opts.docid_mode = mysqlx::DocIdMode::SERVER;
      else if (m == "client")
        opts.docid_mode = mysqlx::DocIdMode::CLIENT;
      else
        bad_usage("--docid-mode is auto, server or client, not '" + m + "'");
    } else if (arg == "--json-array") {
      flag();
      opts.format = mysqlx_import::input_format::json_array;
    } else if (arg == "--replace") {
      flag();
      opts.replace = true;
    } else if (arg == "--skip-invalid") {
      flag();
      opts.skip_invalid = true;
    } else if (arg == "--patch") {
      flag();
      opts.patch = true;
    } else if (arg == "--rejects") {
      opts.rejects = take();
    } else if (arg == "--resume") {
      flag();
      opts.resume = true;
    } else if (arg == "--restart") {
      flag();
      opts.restart = true;
    } else if (arg == "--skip") {
      opts.skip = number(arg, take(), 0);
    } else if (arg == "-j" || arg == "--parallel") {
      const std::string v = take();
      const std::uint64_t n = number(arg, v, 1);
      if (n > max_parallel)
        bad_usage("--parallel (-j) takes at most " + std::to_string(max_parallel) +
                  " sessions, not " + v);
      opts.parallel = static_cast<unsigned>(n);
    } else if (arg == "--progress") {
      const std::string m = take();
      using mysqlx_import::progress_style;
      if (m == "auto")
        opts.progress = progress_style::automatic;
      else if (m == "bar")
        opts.progress = progress_style::bar;
      else if (m == "lines")
        opts.progress = progress_style::lines;
      else if (m == "none")
        opts.progress = progress_style::none;
      else
        bad_usage("--progress is auto, bar, lines or none, not '" + m + "'");
    } else if (arg == "--progress-interval") {
      opts.progress_interval = static_cast<double>(number(arg, take(), 1));
    } else if (arg == "--max-document-size") {
      opts.max_document = number(arg, take(), 2);
    } else {
      bad_usage("unknown option " + arg);
    }
  }
  if (opts.uri.empty()) bad_usage("no URI: give --uri or set MYSQLX_URI");
  if (opts.collection.empty()) bad_usage("no collection: give --collection");
  if (opts.resume && opts.restart) bad_usage("--resume and --restart exclude each other");
  if (opts.replace && opts.patch) bad_usage("--replace and --patch exclude each other");
  if (stdin_closed && (opts.inputs.empty() || std::find(opts.inputs.begin(), opts.inputs.end(),
                                                        "-") != opts.inputs.end())) {
    std::cerr << "mysqlx-import: standard input is closed: name the input FILEs, or give the"
                 " input on standard input\n";
    return 1;
  }

  catch_signals();
  opts.interrupted = &interrupted;
  try {
    const mysqlx_import::outcome res = mysqlx_import::run_import(opts, std::cout, std::cerr);
    if (res.signal != 0) return 128 + res.signal;
    return res.ok ? 0 : 1;
  } catch (const mysqlx::Error& e) {
    // Connection, authentication or DDL: nothing was imported.
    std::cerr << "mysqlx-import: " << mysqlx_import::printable(e.what());
    if (e.code() != 0) std::cerr << " (error " << e.code() << ")";
    std::cerr << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "mysqlx-import: " << mysqlx_import::printable(e.what()) << "\n";
    return 1;
  }
}
