// User guide, "Single Document Operations": getOne, replaceOne,
// addOrReplaceOne, removeOne; the id given wins.
//
//   guide-single-doc mysqlx://user:pw@host:33060
#include <iostream>
#include <mysqlx/xdevapi.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: guide-single-doc mysqlx://user:password@host[:port]\n";
    return 2;
  }
  try {
    mysqlx::Session sess(argv[1]);
    mysqlx::Schema db = sess.createSchema("guide_single", true);
    db.dropCollection("c");
    mysqlx::Collection c = db.createCollection("c");
    c.add(R"({"_id": "1", "name": "Ana"})").execute();

    c.replaceOne("1", R"({"name": "Ana Lucia"})");
    std::cout << "getOne(1): " << c.getOne("1")["name"] << "\n";
    c.addOrReplaceOne("2", R"({"name": "Bo"})"); // no document 2 yet: added
    std::cout << "getOne(2): " << c.getOne("2")["name"] << "\n";
    try {
      c.replaceOne("1", R"({"_id": "3", "name": "X"})"); // ids differ: refused
    } catch (const mysqlx::Error& e) {
      std::cout << "refused: " << e.what() << "\n";
    }
    std::cout << "removeOne(2): " << c.removeOne("2").getAffectedItemsCount() << "\n";
    std::cout << "left " << c.count() << "\n";
  } catch (const mysqlx::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
