// User guide, "Working with Documents" and "Understanding Document IDs":
// reading DbDoc fields, nested documents and arrays; the ids add() made.
//
//   guide-documents mysqlx://user:pw@host:33060
#include <iostream>
#include <mysqlx/xdevapi.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: guide-documents mysqlx://user:password@host[:port]\n";
    return 2;
  }
  try {
    mysqlx::Session sess(argv[1]);
    mysqlx::Schema db = sess.createSchema("guide_documents", true);
    db.dropCollection("c");
    mysqlx::Collection c = db.createCollection("c");
    mysqlx::Result r =
        c.add(R"({"name": "Ana", "address": {"city": "Porto"}, "tags": ["a", "b"]})").execute();
    for (const std::string& id : r.getGeneratedIds())
      std::cout << "generated id " << id << " (" << id.size() << " characters)\n";

    mysqlx::DbDoc doc = c.find().execute().fetchOne();
    std::cout << "name: " << doc["name"].get<std::string>() << "\n";
    std::cout << "city: " << doc["address"]["city"].get<std::string>() << "\n";
    std::cout << "tags: " << doc["tags"].elementCount() << " element(s)\n";
    for (const mysqlx::Field& f : doc) std::cout << "field " << f << "\n";
  } catch (const mysqlx::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
