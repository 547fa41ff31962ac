// User guide, "Collection CRUD Function Overview": add, find (fields, sort,
// limit, bind), modify (set, arrayAppend, patch), remove.
//
//   guide-crud mysqlx://user:pw@host:33060
#include <iostream>
#include <mysqlx/xdevapi.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: guide-crud mysqlx://user:password@host[:port]\n";
    return 2;
  }
  try {
    mysqlx::Session sess(argv[1]);
    mysqlx::Schema db = sess.createSchema("guide_crud", true);
    db.dropCollection("people");
    mysqlx::Collection people = db.createCollection("people");

    people.add(R"({"name": "Laurie", "age": 19, "hobbies": ["chess"]})")
        .add(R"({"name": "Nadya", "age": 54})", R"({"name": "Lukas", "age": 32})")
        .execute();

    mysqlx::DocResult found = people.find("age > :min")
                                  .fields("name", "age")
                                  .sort("age DESC")
                                  .limit(2)
                                  .bind("min", 20)
                                  .execute();
    for (mysqlx::DbDoc doc : found) std::cout << "found " << doc << "\n";

    people.modify("name = 'Laurie'").set("age", 20).arrayAppend("hobbies", "go").execute();
    people.modify("name = 'Lukas'").patch(R"({"city": "Graz"})").execute();
    std::cout << "modified " << people.find("name = 'Laurie'").execute().fetchOne() << "\n";
    std::cout << "patched " << people.find("name = 'Lukas'").execute().fetchOne()["city"] << "\n";

    mysqlx::Result removed = people.remove("age > 50").execute();
    std::cout << "removed " << removed.getAffectedItemsCount() << ", left " << people.count()
              << "\n";
  } catch (const mysqlx::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
