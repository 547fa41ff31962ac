#!/usr/bin/env bash
# The API reference check (packaging/docs.sh) must fail when a function of
# <mysqlx/xapi.h> has no documentation, naming it, and when the header loses
# the @file comment without which Doxygen would check none of its functions.
# Each case runs docs.sh on a copy of the tree with one such change.
#   docs_catch.sh <source dir> <work dir>
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
src=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

# copy_tree DIR: what docs.sh reads (its Doxyfile, the main page, the
# headers, the version in CMakeLists.txt) under DIR.
copy_tree() {
  rm -rf "$1"
  mkdir -p "$1/packaging" "$1/include"
  cp "$src/CMakeLists.txt" "$1/"
  cp -r "$src/packaging/docs.sh" "$src/packaging/Doxyfile" "$src/packaging/docs" "$1/packaging/"
  cp -r "$src/include/mysqlx" "$1/include/"
}

# must_refuse DIR TEXT: docs.sh on DIR fails and says TEXT.
must_refuse() {
  local out rc=0
  out=$("$1/packaging/docs.sh" "$1/out" 2>&1) || rc=$?
  [ $rc -ne 0 ] || fail "docs.sh passed on $1 ($2 expected)"
  grep -qF -- "$2" <<<"$out" || { echo "$out" >&2; fail "docs.sh failed without saying '$2'"; }
  echo "refused, as it must: $(grep -F -- "$2" <<<"$out" | head -1)"
}

# The copy as it is passes: the cases below fail for their change alone.
copy_tree "$work/same"
"$work/same/packaging/docs.sh" "$work/same/out" >/dev/null || fail "docs.sh fails on the unchanged copy"

# 1. mysqlx_schema_create() without its comment.
copy_tree "$work/undocumented"
h=$work/undocumented/include/mysqlx/xapi.h
python3 - "$h" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
decl = s.index("MYSQLX_C_API int mysqlx_schema_create(")
start = s.rindex("/**", 0, decl)
assert s[start:decl].rstrip().endswith("*/"), "no comment right before the declaration"
open(p, "w").write(s[:start] + s[decl:])
PY
grep -q "MYSQLX_C_API int mysqlx_schema_create(" "$h" || fail "the declaration went too"
must_refuse "$work/undocumented" "mysqlx_schema_create"

# 2. xapi.h without @file.
copy_tree "$work/no_file"
sed -i '/^ \* @file xapi.h$/d' "$work/no_file/include/mysqlx/xapi.h"
grep -q '@file' "$work/no_file/include/mysqlx/xapi.h" && fail "@file is still there"
must_refuse "$work/no_file" "no page for xapi.h"
