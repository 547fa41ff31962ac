// Issue 3: xserverd inserting documents in batches of 1,000 reaches at least
// 70% of the throughput of the same INSERTs sent straight to MariaDB.
//
// Starts its own xserverd (8.0 mode) on port 33185, creates two collections
// through it (same table, triggers and CHECK), then per round inserts
// `batches` x 1,000 documents of 100 bytes:
//  (x)      through xserverd with the public API: Collection::add() of 1,000
//           JSON strings, one Crud.Insert per execute() (server-generated ids;
//           TLS and compression off, since the direct path has neither);
//  (direct) over MariaDB's Unix socket with libmariadb: the INSERT xserverd
//           builds for such a batch, rendered by xserverd's own
//           render_document() with ids in the server's format, built before
//           the clock starts (xserverd's per-insert
//           `SELECT @@auto_increment_offset, ...` is not sent: it is part of
//           xserverd's overhead, not of the INSERT).
// Each collection gets the same number of rows, the paths alternate which
// goes first per round, and round 0 is a warm-up. Prints JSON: docs/s (wall)
// per round and median, the ratio, and the CPU seconds per 1,000 documents of
// the client, xserverd and mariadbd over the measured rounds (the machine may
// be shared, so CPU is the steadier figure).
//
// Usage: bench_xserver_insert [rounds] [batches]   (defaults 6 and 10;
// Google Benchmark flags passed by ./dev bench are ignored)
#include "test/bench/xserver/bench_server.h"
#include "test/xserver/doc_render.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <mysql.h>
#include <mysqlx/xdevapi.h>
#include <sys/resource.h>

namespace {

constexpr int k_port = 33185;
constexpr unsigned k_batch = 1000;

double self_cpu_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
         static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

struct cpu_snapshot {
  double client, xserverd, mariadbd;
};

struct path_totals {
  std::vector<double> docs_per_s;
  double client = 0, xserverd = 0, mariadbd = 0, docs = 0;
};

class direct_path {
public:
  explicit direct_path(const std::string& socket) : m_db(mysql_init(nullptr)) {
    if (!mysql_real_connect(m_db, nullptr, "root", nullptr, "bench", 0, socket.c_str(), 0))
      throw std::runtime_error(std::string("MariaDB connect: ") + mysql_error(m_db));
  }
  ~direct_path() { mysql_close(m_db); }
  direct_path(const direct_path&) = delete;
  direct_path& operator=(const direct_path&) = delete;

  // The INSERT xserverd renders for these documents, ids included. The ids
  // have the server's format (4 prefix + 8 time + 16 serial hex digits) with
  // their own prefix, increasing like the server's.
  std::string render(const std::vector<std::string>& docs) {
    std::string sql = "INSERT INTO `bench`.`direct` (doc) VALUES ";
    const auto quote = [this](std::string_view text) {
      std::string out(text.size() * 2 + 3, '\0');
      out[0] = '\'';
      const auto n = mysql_real_escape_string(m_db, &out[1], text.data(), text.size());
      out.resize(n + 1);
      return out + '\'';
    };
    const std::function<std::string()> make_id = [this] {
      char id[29];
      std::snprintf(id, sizeof id, "ffff%08x%016" PRIx64, 0x65000000U, ++m_serial);
      return std::string(id);
    };
    google::protobuf::RepeatedPtrField<Mysqlx::Datatypes::Scalar> no_args;
    bool first = true;
    for (const auto& d : docs) {
      Mysqlx::Expr::Expr e;
      e.set_type(Mysqlx::Expr::Expr::LITERAL);
      e.mutable_literal()->set_type(Mysqlx::Datatypes::Scalar::V_OCTETS);
      e.mutable_literal()->mutable_v_octets()->set_value(d);
      e.mutable_literal()->mutable_v_octets()->set_content_type(2); // JSON
      auto r = xserver::render_document(e, no_args, quote, &make_id);
      if (!r.ok()) throw std::runtime_error("render_document failed");
      sql += first ? "(" : ",(";
      sql += r.value().sql;
      sql += ')';
      first = false;
    }
    return sql;
  }
  void run(const std::string& sql) {
    if (mysql_real_query(m_db, sql.data(), sql.size()) != 0)
      throw std::runtime_error(std::string("INSERT: ") + mysql_error(m_db));
    if (mysql_affected_rows(m_db) != k_batch) throw std::runtime_error("INSERT: wrong row count");
  }

private:
  MYSQL* m_db;
  std::uint64_t m_serial = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void print_path(const char* name, const path_totals& t, bool last) {
  const double k = 1000.0 / t.docs;
  std::printf("    \"%s\": {\"docs_per_s_median\": %.0f, \"docs_per_s_rounds\": [", name,
              median(t.docs_per_s));
  for (std::size_t i = 0; i < t.docs_per_s.size(); ++i)
    std::printf("%s%.0f", i ? ", " : "", t.docs_per_s[i]);
  std::printf("], \"cpu_s_per_1000_docs\": {\"client\": %.4f, \"xserverd\": %.4f, "
              "\"mariadbd\": %.4f}}%s\n",
              t.client * k, t.xserverd * k, t.mariadbd * k, last ? "" : ",");
}

int run(int rounds, int batches) {
  bench_server::server srv("bench_xserver_insert", k_port, "8.0");
  const int xpid = srv.pid_of("xserverd.pid"), mpid = srv.pid_of("mariadb.pid");
  mysqlx::Session s(srv.uri() + "?ssl-mode=disabled&compression=disabled");
  mysqlx::Schema schema = s.createSchema("bench", true);
  mysqlx::Collection via_x = schema.createCollection("via_x", true);
  schema.createCollection("direct", true);
  direct_path direct(srv.mariadb_socket());

  const auto snap = [&] {
    return cpu_snapshot{self_cpu_seconds(), bench_server::process_cpu_seconds(xpid),
                        bench_server::process_cpu_seconds(mpid)};
  };
  path_totals x_tot, d_tot;
  unsigned next_doc = 0;
  for (int round = 0; round <= rounds; ++round) {
    // Everything either path needs is built before its clock starts.
    std::vector<std::vector<std::string>> x_docs;
    std::vector<std::string> d_sql;
    for (int b = 0; b < batches; ++b) {
      x_docs.push_back(bench_server::documents(next_doc, k_batch));
      d_sql.push_back(direct.render(bench_server::documents(next_doc, k_batch)));
      next_doc += k_batch;
    }
    const auto measure = [&](path_totals& tot, auto&& body) {
      const cpu_snapshot c0 = snap();
      const auto t0 = std::chrono::steady_clock::now();
      body();
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - t0;
      const cpu_snapshot c1 = snap();
      if (round == 0) return; // warm-up
      const double docs = static_cast<double>(batches) * k_batch;
      tot.docs_per_s.push_back(docs / wall.count());
      tot.docs += docs;
      tot.client += c1.client - c0.client;
      tot.xserverd += c1.xserverd - c0.xserverd;
      tot.mariadbd += c1.mariadbd - c0.mariadbd;
    };
    const auto run_x = [&] {
      measure(x_tot, [&] {
        for (const auto& docs : x_docs)
          if (via_x.add(docs).execute().getAffectedItemsCount() != k_batch)
            throw std::runtime_error("add: wrong count");
      });
    };
    const auto run_direct = [&] {
      measure(d_tot, [&] {
        for (const auto& sql : d_sql) direct.run(sql);
      });
    };
    if (round % 2 == 0) {
      run_x();
      run_direct();
    } else {
      run_direct();
      run_x();
    }
  }
  std::vector<double> per_round;
  for (std::size_t i = 0; i < x_tot.docs_per_s.size(); ++i)
    per_round.push_back(x_tot.docs_per_s[i] / d_tot.docs_per_s[i]);
  const double ratio = median(x_tot.docs_per_s) / median(d_tot.docs_per_s);
  const double x_cpu = x_tot.client + x_tot.xserverd + x_tot.mariadbd;
  const double d_cpu = d_tot.client + d_tot.mariadbd;
  double load[3] = {};
  (void)getloadavg(load, 3);
  std::printf("{\n  \"bench_xserver_insert\": {\n    \"batch\": %u, \"doc_bytes\": 100, "
              "\"rounds\": %d, \"batches_per_round\": %d, \"loadavg_1min\": %.2f,\n",
              k_batch, rounds, batches, load[0]);
  print_path("xserverd", x_tot, false);
  print_path("direct_mariadb", d_tot, false);
  std::printf("    \"ratio_median_docs_per_s\": %.3f, \"ratio_per_round_median\": %.3f,\n"
              "    \"ratio_by_total_cpu\": %.3f, \"target_ratio\": 0.70, \"target_met\": %s\n"
              "  }\n}\n",
              ratio, median(per_round), d_cpu / x_cpu, ratio >= 0.70 ? "true" : "false");
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  int args[2] = {6, 10};
  int n = 0;
  for (int i = 1; i < argc && n < 2; ++i)
    if (argv[i][0] != '-') args[n++] = std::max(1, std::atoi(argv[i]));
  try {
    return run(args[0], args[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_xserver_insert: %s\n", e.what());
    return 1;
  }
}
