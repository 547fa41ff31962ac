// User guide, "Working with Collections": create, list, check, drop.
//
//   guide-collections mysqlx://user:pw@host:33060
#include <iostream>
#include <mysqlx/xdevapi.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: guide-collections mysqlx://user:password@host[:port]\n";
    return 2;
  }
  try {
    mysqlx::Session sess(argv[1]);
    mysqlx::Schema db = sess.createSchema("guide_collections", true);
    db.createCollection("my_collection", true); // reuse if it exists
    db.createCollection("other", true);
    for (const std::string& name : db.getCollectionNames())
      std::cout << "collection " << name << "\n";
    mysqlx::Collection c = db.getCollection("my_collection", true); // checked
    std::cout << "exists: " << std::boolalpha << c.existsInDatabase() << "\n";
    db.dropCollection("other");
    std::cout << "after drop: " << db.getCollections().size() << " collection(s)\n";
    sess.dropSchema("guide_collections");
  } catch (const mysqlx::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
