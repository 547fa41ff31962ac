// A program in the style of Connector/C++ 8's samples: it includes only
// <iostream> and <mysqlx/xdevapi.h>, and uses std::stringstream, std::list,
// std::map, std::set, std::vector and the std:: algorithms without including
// their headers, as code written against the official umbrella header does.
// packaging_official_style builds it against the installed headers and runs
// it against xserverd.
//
//   official_style mysqlx://user:pw@host:port
#include <iostream>
#include <mysqlx/xdevapi.h>

using namespace mysqlx;

int main(int argc, const char* argv[]) {
  if (argc != 2) {
    std::cerr << "usage: official_style mysqlx://user:password@host[:port]\n";
    return 2;
  }
  try {
    Session sess(argv[1]);
    Schema db = sess.createSchema("official_style", true);
    db.dropCollection("people");
    Collection people = db.createCollection("people");

    std::list<std::string> names{"ada", "grace", "edsger", "barbara"};
    std::map<std::string, int> ages{{"ada", 36}, {"grace", 85}, {"edsger", 72}, {"barbara", 88}};
    for (const auto& name : names) {
      std::stringstream doc;
      doc << R"({"name": ")" << name << R"(", "age": )" << ages[name] << "}";
      people.add(doc.str()).execute();
    }

    std::set<std::string> found;
    std::vector<int> found_ages;
    DocResult docs = people.find("age > :min").bind("min", 50).execute();
    for (DbDoc doc : docs) {
      found.insert(doc["name"].get<std::string>());
      found_ages.push_back(static_cast<int>(doc["age"]));
    }
    std::sort(found_ages.begin(), found_ages.end());

    const std::set<std::string> expected{"barbara", "edsger", "grace"};
    const bool names_ok = found == expected;
    const bool ages_ok =
        std::equal(found_ages.begin(), found_ages.end(), std::vector<int>{72, 85, 88}.begin());
    std::ostringstream summary;
    std::for_each(found.begin(), found.end(), [&](const std::string& n) { summary << n << ' '; });
    std::cout << "older than 50: " << summary.str() << "\n";
    db.dropCollection("people");
    if (!names_ok || !ages_ok || found_ages.size() != 3) {
      std::cerr << "unexpected result\n";
      return 1;
    }
    return 0;
  } catch (const Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
