// The baseline mysqlx-import is measured against: what a program gets from
// the library alone, adding the same documents in batches of the same size
// with one session per thread and nothing else (no file, no checks).
//
//   bench_import_baseline write FILE N           the N documents as JSON lines
//   bench_import_baseline add URI SCHEMA COLL N BATCH PARALLEL [docid-mode]
//
// `add` prints one line: documents, seconds, docs/s. compare.sh runs both.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <string>
#include <thread>
#include <vector>

namespace {

// Document i, exactly 120 bytes of JSON: the size the issue measures.
std::string document(std::uint64_t i) {
  char buf[160];
  const int n =
      std::snprintf(buf, sizeof buf,
                    R"({"customer":"c-%09llu","city":"Springfield","amount":%llu.%02llu,)"
                    R"("tags":["new","web"],"pad":")",
                    static_cast<unsigned long long>(i), static_cast<unsigned long long>(i % 100000),
                    static_cast<unsigned long long>(i % 100));
  std::string doc(buf, static_cast<std::size_t>(n));
  doc.append(120 - doc.size() - 2, 'x');
  doc += "\"}";
  return doc;
}

int usage() {
  std::cerr
      << "usage: bench_import_baseline write FILE N\n"
         "       bench_import_baseline add URI SCHEMA COLL N BATCH PARALLEL [auto|server|client]\n";
  return 2;
}

} // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "write") {
    std::ofstream out(argv[2], std::ios::binary);
    const std::uint64_t n = std::strtoull(argv[3], nullptr, 10);
    for (std::uint64_t i = 0; i < n; ++i) out << document(i) << '\n';
    return out ? 0 : 1;
  }
  if ((argc != 8 && argc != 9) || std::string(argv[1]) != "add") return usage();
  const std::string uri = argv[2], schema = argv[3], coll_name = argv[4];
  const std::uint64_t n = std::strtoull(argv[5], nullptr, 10);
  const std::size_t batch = std::strtoull(argv[6], nullptr, 10);
  const unsigned parallel = static_cast<unsigned>(std::strtoul(argv[7], nullptr, 10));
  if (n == 0 || batch == 0 || parallel == 0) return usage();
  mysqlx::SessionSettings settings(uri);
  if (argc == 9) {
    const std::string m = argv[8];
    settings.set(mysqlx::SessionOption::DOCID_MODE, m == "client"   ? mysqlx::DocIdMode::CLIENT
                                                    : m == "server" ? mysqlx::DocIdMode::SERVER
                                                                    : mysqlx::DocIdMode::AUTO);
  }
  std::vector<mysqlx::Session> sessions;
  sessions.emplace_back(settings);
  sessions[0].createSchema(schema, true).createCollection(coll_name, true);
  for (unsigned i = 1; i < parallel; ++i) sessions.emplace_back(settings);

  // Batches are handed out in order, as the tool's reader does.
  std::atomic<std::uint64_t> next{0};
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < parallel; ++t) {
    threads.emplace_back([&, t] {
      mysqlx::Collection coll = sessions[t].getSchema(schema).getCollection(coll_name);
      std::vector<std::string> docs;
      for (;;) {
        const std::uint64_t first = next.fetch_add(batch);
        if (first >= n) return;
        docs.clear();
        for (std::uint64_t i = first; i < n && i < first + batch; ++i) docs.push_back(document(i));
        coll.add(docs).execute();
      }
    });
  }
  for (auto& t : threads) t.join();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("documents %llu, seconds %.2f (%.0f docs/s)\n", static_cast<unsigned long long>(n),
              secs, static_cast<double>(n) / secs);
  return 0;
}
