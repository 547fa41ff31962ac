// The InnoDB insert curve (`./dev bench ids`): N documents of about 120 bytes
// added in batches, once per id scheme, timing every batch. Ordered ids
// (the server's, the connector's UUIDv7-style ones, AUTO_INCREMENT) append at
// the right edge of the primary-key B-tree; random UUIDv4 ids land all over
// it, so once the table outgrows the buffer pool every insert waits for a
// page read, and the pages split half full (a bigger table).
//
//   bench_insert_curve [--uri URI] [--docs N] [--batch B] [--out DIR]
//                      [--schemes server_ids,client_ids,random_uuid4,auto_increment]
//
// Without --uri it starts a local xserverd (MariaDB with a 64 MiB buffer
// pool). Writes DIR/insert_curve.csv (scheme,rows,seconds_per_batch) and
// DIR/insert_curve.png (gnuplot), and prints a JSON summary on stdout.
#include "random_uuid4.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mysqlx/xdevapi.h>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

struct options {
  std::string uri;
  long docs = 1500000;
  int batch = 10000;
  std::string out = MYSQLX_BENCH_BUILD_DIR "/insert_curve";
  std::vector<std::string> schemes = {"server_ids", "client_ids", "random_uuid4", "auto_increment"};
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "bench_insert_curve: %s\n"
               "usage: bench_insert_curve [--uri URI] [--docs N] [--batch B] [--out DIR]\n"
               "         [--schemes server_ids,client_ids,random_uuid4,auto_increment]\n",
               why);
  std::exit(2);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) usage(("option " + a + " needs a value").c_str());
    std::string v = argv[++i];
    if (a == "--uri") {
      o.uri = v;
    } else if (a == "--docs") {
      o.docs = std::atol(v.c_str());
    } else if (a == "--batch") {
      o.batch = std::atoi(v.c_str());
    } else if (a == "--out") {
      o.out = v;
    } else if (a == "--schemes") {
      o.schemes.clear();
      std::stringstream in(v);
      for (std::string s; std::getline(in, s, ',');) o.schemes.push_back(s);
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  if (o.docs <= 0 || o.batch <= 0) usage("--docs and --batch must be positive");
  return o;
}

int local_port() {
  const char* p = std::getenv("MYSQLX_BENCH_IDS_PORT");
  return p && *p ? std::atoi(p) : 33188;
}

int xserverctl(const std::string& args) {
  const std::string cmd =
      "MYSQLX_BUILD_DIR=" MYSQLX_BENCH_BUILD_DIR " " MYSQLX_BENCH_XSERVERCTL " " + args +
      " --name insertcurve --xserverd " MYSQLX_BENCH_XSERVERD " >/dev/null";
  return std::system(cmd.c_str());
}

// About 120 bytes of JSON, different per document.
std::string document(long n) {
  char buf[160];
  std::snprintf(buf, sizeof buf,
                R"({"customer": "c%06ld", "item": "fountain pen", "qty": %ld, "price": %ld.25, )"
                R"("note": "insert curve"})",
                n % 1000000, n % 7 + 1, n % 90 + 10);
  return buf;
}

struct curve {
  std::vector<std::pair<long, double>> points; // rows after the batch, seconds
  double total_seconds = 0;
  std::int64_t table_bytes = 0;
};

void progress(const std::string& scheme, long rows, long total, double secs) {
  static const bool tty = isatty(STDERR_FILENO);
  static auto last = clock_type::now();
  const auto now = clock_type::now();
  if (!tty && rows < total && now - last < std::chrono::seconds(10)) return;
  last = now;
  std::fprintf(stderr, "%s%-15s %9ld / %ld rows  %8.0f docs/s%s", tty ? "\r" : "", scheme.c_str(),
               rows, total, secs > 0 ? rows / secs : 0.0, tty && rows < total ? "" : "\n");
}

curve run_scheme(const options& o, const std::string& scheme) {
  const bool table = scheme == "auto_increment";
  std::string uri = o.uri;
  if (scheme == "client_ids" || scheme == "random_uuid4")
    uri += (uri.find('?') == std::string::npos ? "?" : "&") + std::string("docid-mode=client");
  mysqlx::Session s(uri);
  s.createSchema("insert_curve", true);
  mysqlx::Schema db = s.getSchema("insert_curve");
  s.sql("DROP TABLE IF EXISTS insert_curve.`" + scheme + "`").execute();
  if (table)
    s.sql("CREATE TABLE insert_curve.auto_increment (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
          "doc JSON) ENGINE=InnoDB")
        .execute();
  else
    db.createCollection(scheme);
  if (scheme == "random_uuid4") {
    std::mt19937_64 rng(std::random_device{}());
    s.setDocIdGenerator([rng]() mutable { return bench::random_uuid4(rng); });
  }
  curve c;
  long rows = 0;
  while (rows < o.docs) {
    const long n = std::min<long>(o.batch, o.docs - rows);
    std::vector<std::string> docs;
    docs.reserve(n);
    for (long k = 0; k < n; ++k) docs.push_back(document(rows + k));
    const auto t0 = clock_type::now();
    if (table) {
      mysqlx::TableInsert ins = db.getTable(scheme).insert("doc");
      for (auto& d : docs) ins.values(d);
      ins.execute();
    } else {
      db.getCollection(scheme).add(docs).execute();
    }
    const double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
    rows += n;
    c.total_seconds += secs;
    c.points.emplace_back(rows, secs);
    progress(scheme, rows, o.docs, c.total_seconds);
  }
  // The table's size on disk once written (InnoDB's own numbers).
  s.sql("ANALYZE TABLE insert_curve.`" + scheme + "`").execute();
  c.table_bytes = s.sql("SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES WHERE "
                        "TABLE_SCHEMA = 'insert_curve' AND TABLE_NAME = '" +
                        scheme + "'")
                      .execute()
                      .fetchOne()[0]
                      .get<std::int64_t>();
  return c;
}

std::string mib(std::int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / 1048576.0);
  return buf;
}

} // namespace

int main(int argc, char** argv) {
  options o = parse(argc, argv);
  bool started = false;
  if (o.uri.empty()) {
    const std::string port = std::to_string(local_port());
    std::fprintf(stderr, "bench_insert_curve: starting a local xserverd on port %s\n",
                 port.c_str());
    if (xserverctl("start --fresh --port " + port) != 0) {
      std::fprintf(stderr, "bench_insert_curve: the local server did not start\n");
      return 1;
    }
    started = true;
    o.uri = "mysqlx://xtest:xtest-pw@127.0.0.1:" + port;
  }
  std::system(("mkdir -p '" + o.out + "'").c_str());
  const std::string csv_path = o.out + "/insert_curve.csv";
  const std::string png_path = o.out + "/insert_curve.png";
  std::map<std::string, curve> curves;
  int rc = 0;
  try {
    for (const auto& scheme : o.schemes) curves[scheme] = run_scheme(o, scheme);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "\nbench_insert_curve: %s\n", e.what());
    rc = 1;
  }
  if (started) xserverctl("stop");
  if (rc) return rc;

  std::ofstream csv(csv_path);
  csv << "scheme,rows,seconds_per_batch\n";
  for (const auto& scheme : o.schemes)
    for (const auto& [rows, secs] : curves[scheme].points)
      csv << scheme << ',' << rows << ',' << secs << '\n';
  csv.close();

  // The plot: batch time against rows, one line per scheme, the rate and the
  // table's size in the legend.
  const std::string gp_path = o.out + "/insert_curve.gp";
  std::ofstream gp(gp_path);
  gp << "set terminal pngcairo size 1100,650 font ',11' noenhanced\n"
     << "set output '" << png_path << "'\n"
     << "set datafile separator ','\n"
     << "set title '" << o.docs << " documents of ~120 bytes, batches of " << o.batch
     << "; InnoDB through xserverd'\n"
     << "set xlabel 'documents in the collection'\nset ylabel 'seconds per batch'\n"
     << "set format x '%.1s%c'\nset logscale y\nset grid\nset key top left box opaque\n"
     << "plot ";
  std::printf("[\n");
  bool first = true;
  for (const auto& scheme : o.schemes) {
    const curve& c = curves[scheme];
    const double rate = o.docs / c.total_seconds;
    std::printf("%s  {\"scheme\": \"%s\", \"docs\": %ld, \"docs_per_s\": %.0f, "
                "\"first_batch_s\": %.3f, \"last_batch_s\": %.3f, \"table_bytes\": %lld}",
                first ? "" : ",\n", scheme.c_str(), o.docs, rate, c.points.front().second,
                c.points.back().second, static_cast<long long>(c.table_bytes));
    gp << (first ? "" : ", ") << "'" << csv_path << "' using (strcol(1) eq '" << scheme
       << "' ? $2 : NaN):3 skip 1 with lines lw 2 title '" << scheme << ": "
       << static_cast<long>(rate) << " docs/s, table " << mib(c.table_bytes) << "'";
    first = false;
  }
  std::printf("\n]\n");
  gp << "\n";
  gp.close();
  if (std::system(("gnuplot '" + gp_path + "'").c_str()) != 0) {
    std::fprintf(stderr, "bench_insert_curve: gnuplot failed; the CSV is %s\n", csv_path.c_str());
    return 1;
  }
  std::fprintf(stderr, "bench_insert_curve: wrote %s and %s\n", csv_path.c_str(), png_path.c_str());
  return 0;
}
