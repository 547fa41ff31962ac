// User guide, "Indexing Collections": createIndex with a JSON definition
// (plain, multi-field, required), the index used by a find, dropIndex.
//
//   guide-indexing mysqlx://user:pw@host:33060
#include <iostream>
#include <mysqlx/xdevapi.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: guide-indexing mysqlx://user:password@host[:port]\n";
    return 2;
  }
  try {
    mysqlx::Session sess(argv[1]);
    mysqlx::Schema db = sess.createSchema("guide_indexing", true);
    db.dropCollection("people");
    mysqlx::Collection people = db.createCollection("people");
    people
        .add(R"({"name": "Ana", "age": 31, "city": "Porto"})",
             R"({"name": "Bo", "age": 17, "city": "Graz"})",
             R"({"name": "Cy", "age": 45, "city": "Porto"})")
        .execute();

    // An index on one field: an INTEGER taken from $.age.
    people.createIndex("by_age", R"({"fields": [{"field": "$.age", "type": "INT"}]})");
    // Several fields, one of them required (documents without it are refused).
    people.createIndex("by_city_name",
                       R"j({"fields": [{"field": "$.city", "type": "TEXT(20)", "required": true},
                                       {"field": "$.name", "type": "TEXT(20)"}]})j");
    std::cout << "indexes created\n";

    for (mysqlx::DbDoc d : people.find("age > :min").bind("min", 18).sort("age").execute())
      std::cout << "adult: " << d["name"] << "\n";
    try {
      people.add(R"({"name": "Di"})").execute(); // no $.city, which is required
    } catch (const mysqlx::Error& e) {
      std::cout << "refused without city: error " << e.code() << "\n";
    }

    people.dropIndex("by_city_name");
    people.dropIndex("by_city_name"); // already gone: nothing happens
    std::cout << "after drop: " << people.add(R"({"name": "Di"})").execute().getAffectedItemsCount()
              << " added\n";
  } catch (const mysqlx::Error& e) {
    std::cerr << "error " << e.code() << ": " << e.what() << "\n";
    return 1;
  }
  return 0;
}
