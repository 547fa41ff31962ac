#include "preflight.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace mysqlx_import {

std::optional<std::string> unreadable_input(const std::vector<std::string>& inputs) {
  for (const auto& name : inputs) {
    if (name == "-") continue; // main() has made sure descriptor 0 is open
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0 || ::access(name.c_str(), R_OK) != 0)
      return name + ": cannot open: " + std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return name + ": is a directory, not a file of documents";
  }
  return std::nullopt;
}

std::optional<std::string> rejects_is_an_input(const std::string& rejects,
                                               const std::vector<std::string>& inputs) {
  for (const std::string& path : {rejects, rejects + ".reasons"}) {
    struct stat out {};
    if (::stat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) continue;
    for (const auto& name : inputs) {
      struct stat in {};
      const int rc = name == "-" ? ::fstat(STDIN_FILENO, &in) : ::stat(name.c_str(), &in);
      if (rc == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
        return "--rejects " + rejects + ": " + path + " is an input of the import (" +
               (name == "-" ? std::string("standard input") : name) +
               "); skipped entries would overwrite it: name another file";
    }
  }
  return std::nullopt;
}

} // namespace mysqlx_import
