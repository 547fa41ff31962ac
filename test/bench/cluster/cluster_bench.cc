// Cluster write throughput: W writers (1, 2 or 3), each adding batches of
// 100 documents of about 120 bytes through its own member of a three-member
// Galera cluster, for DOCS documents per writer, once per id scheme: the
// servers' ids, the connector's (docid-mode=client) and random UUIDv4 ids from
// an application generator. Prints one JSON object per run and a summary.
// Every member certifies and applies every write, so the cluster's rate is
// bounded by one member's apply rate; ordered ids keep each member's B-tree
// inserts at the right edge, random ones scatter them.
#include "random_uuid4.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mysqlx/xdevapi.h>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

const int base_port = env_int("MYSQLX_BENCH_CLUSTER_PORT", 33220);
constexpr int batch_size = 100;

int run(const std::string& args) {
  const std::string cmd = "MYSQLX_BUILD_DIR=" MYSQLX_BENCH_BUILD_DIR
                          " XSERVERD=" MYSQLX_BENCH_XSERVERD " " MYSQLX_BENCH_XSERVERCTL
                          " cluster " +
                          args + " --name benchcluster >/dev/null";
  return std::system(cmd.c_str());
}

std::string member_uri(int i, const char* query) {
  return "mysqlx://xtest:xtest-pw@127.0.0.1:" + std::to_string(base_port + i - 1) + query;
}

struct scheme {
  const char* name;
  const char* query;
  bool random_ids;
};
const scheme schemes[] = {{"server_ids", "", false},
                          {"client_ids", "?docid-mode=client", false},
                          {"random_uuid4", "?docid-mode=client", true}};

// Galera applies DDL on the other members a moment after the member that
// ran it: wait until each has the collection's table and both triggers.
void sync_members(const std::string& coll) {
  for (int i = 1; i <= 3; ++i) {
    mysqlx::Session s(member_uri(i, ""));
    for (int tries = 0;; ++tries) {
      auto n = s.sql("SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE "
                     "EVENT_OBJECT_SCHEMA = 'bench' AND EVENT_OBJECT_TABLE = '" +
                     coll + "'")
                   .execute()
                   .fetchOne()[0]
                   .get<int>();
      if (n == 2) break;
      if (tries == 200) throw std::runtime_error("member " + std::to_string(i) + " lacks " + coll);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

// Returns documents per second over all writers.
double measure(const scheme& sc, int writers, int docs_per_writer, const std::string& coll) {
  std::vector<std::string> docs;
  for (int k = 0; k < batch_size; ++k)
    docs.push_back(R"({"customer": "c)" + std::to_string(k) +
                   R"(", "item": "pen", "qty": 3, "price": 1.25, "note": "cluster write bench, )"
                   R"(about 120 bytes"})");
  std::vector<std::thread> threads;
  std::vector<std::string> errors(writers);
  const auto start = std::chrono::steady_clock::now();
  for (int w = 0; w < writers; ++w)
    threads.emplace_back([&, w] {
      try {
        mysqlx::Session s(member_uri(w + 1, sc.query));
        if (sc.random_ids) {
          std::mt19937_64 rng(std::random_device{}());
          s.setDocIdGenerator([rng]() mutable { return bench::random_uuid4(rng); });
        }
        mysqlx::Collection c = s.getSchema("bench").getCollection(coll);
        for (int done = 0; done < docs_per_writer; done += batch_size) c.add(docs).execute();
      } catch (const std::exception& e) {
        errors[w] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& e : errors)
    if (!e.empty()) {
      std::fprintf(stderr, "bench_cluster_write: %s\n", e.c_str());
      return -1;
    }
  return writers * static_cast<double>(docs_per_writer) / secs;
}

} // namespace

int main() {
  const int docs = env_int("MYSQLX_BENCH_CLUSTER_DOCS", 20000);
  std::fprintf(stderr, "bench_cluster_write: starting a 3-member cluster on ports %d-%d\n",
               base_port, base_port + 2);
  if (run("start --fresh --port " + std::to_string(base_port)) != 0) {
    std::fprintf(stderr, "bench_cluster_write: the cluster did not start\n");
    return 1;
  }
  int rc = 0;
  try {
    mysqlx::Session admin(member_uri(1, ""));
    admin.createSchema("bench", true);
    std::printf("[\n");
    bool first = true;
    for (const scheme& sc : schemes)
      for (int writers = 1; writers <= 3; ++writers) {
        const std::string coll = std::string(sc.name) + "_" + std::to_string(writers);
        admin.getSchema("bench").createCollection(coll, true);
        sync_members(coll);
        const double rate = measure(sc, writers, docs, coll);
        if (rate < 0) rc = 1;
        std::printf("%s  {\"scheme\": \"%s\", \"writing_members\": %d, \"docs\": %d, "
                    "\"docs_per_s\": %.0f}",
                    first ? "" : ",\n", sc.name, writers, writers * docs, rate);
        std::fflush(stdout);
        first = false;
        admin.getSchema("bench").dropCollection(coll);
      }
    std::printf("\n]\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cluster_write: %s\n", e.what());
    rc = 1;
  }
  run("stop");
  return rc;
}
