// Checks made before the first connection, so that a command that cannot
// work stores nothing and touches no file: every input named can be opened
// and is no directory, and --rejects names none of the inputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mysqlx_import {

// Why an input ("-" is standard input) cannot be read, for the first that
// cannot; "NAME: cannot open: No such file or directory".
std::optional<std::string> unreadable_input(const std::vector<std::string>& inputs);

// Why `rejects` (or `rejects`.reasons) may not be written: it is one of the
// inputs, compared by device and inode (a hard link, another spelling of
// the path or standard input redirected from it are the same file). Only
// regular files are compared: /dev/null may be both.
std::optional<std::string> rejects_is_an_input(const std::string& rejects,
                                               const std::vector<std::string>& inputs);

} // namespace mysqlx_import
