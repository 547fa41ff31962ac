// Statements in flight: executeAsync() sends a statement and returns a
// mysqlx::Future at once, as std::async returns a std::future. The server
// answers requests in order, so a loop that sends first and collects later
// pays about one round trip for the whole batch instead of one per
// statement: what matters when the database is a few milliseconds away.
//
//   async mysqlx://user:password@host:33060
#include <chrono>
#include <iostream>
#include <mysqlx/xdevapi.h>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: async mysqlx://user:password@host:port\n";
    return 2;
  }
  try {
    mysqlx::Session session(argv[1]);
    mysqlx::Schema db = session.createSchema("async_example", true);
    db.dropCollection("orders");
    mysqlx::Collection orders = db.createCollection("orders");

    // 100 adds in flight: each future's result has its own generated id.
    const auto start = std::chrono::steady_clock::now();
    std::vector<mysqlx::Future<mysqlx::Result>> adds;
    adds.reserve(100);
    for (int i = 0; i < 100; ++i)
      adds.push_back(
          orders.add("{\"item\": \"pen\", \"n\": " + std::to_string(i) + "}").executeAsync());
    std::vector<std::string> ids;
    ids.reserve(adds.size());
    for (auto& f : adds) ids.push_back(f.get().getGeneratedIds().front());
    std::cout << "added " << ids.size() << " documents in flight; the first id " << ids.front()
              << ", the last " << ids.back() << "\n";

    // Finds by _id in flight, collected in order.
    std::vector<mysqlx::Future<mysqlx::DocResult>> finds;
    finds.reserve(ids.size());
    for (const auto& id : ids)
      finds.push_back(orders.find("_id = :id").bind("id", id).executeAsync());
    int found = 0;
    for (auto& f : finds) found += f.get().fetchOne().isNull() ? 0 : 1;
    std::cout << "found " << found << " of them by _id in flight\n";

    // One failure fails only its own future; the statements after it ran.
    auto dup = orders.add("{\"_id\": \"" + ids.front() + "\"}").executeAsync();
    auto count = session.sql("SELECT COUNT(*) FROM async_example.orders").executeAsync();
    try {
      dup.get();
    } catch (const mysqlx::Error& e) {
      std::cout << "the duplicate failed alone: " << e.what() << "\n";
    }
    std::cout << "documents: " << count.get().fetchOne()[0].get<int>() << "\n";

    // wait_for() as with std::future.
    auto slow = session.sql("SELECT SLEEP(0.3)").executeAsync();
    if (slow.wait_for(std::chrono::milliseconds(10)) == mysqlx::future_status::timeout)
      std::cout << "SLEEP(0.3) still running after 10 ms\n";
    slow.get();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::cout << "done in " << took.count() << " s\n";
    db.dropCollection("orders");
  } catch (const mysqlx::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
