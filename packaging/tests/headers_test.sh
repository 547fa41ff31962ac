#!/usr/bin/env bash
# Every installed header compiles from the install prefix alone and pulls in
# nothing but other mysqlx headers and the C++ standard library: no protobuf,
# RapidJSON, OpenSSL, zlib or source-tree header.
#   headers_test.sh <prefix>
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
prefix=$(readlink -f "$1")
fail() { echo "FAIL: $*" >&2; exit 1; }
cxx=${CXX:-g++}
deps() { # the files a TU on stdin includes, one per line
  "$cxx" -std=c++17 -x c++ -M -MT x "$@" - | sed 's/\\$//' | tr ' ' '\n' | sed '/^$/d; /^x:$/d; /^-$/d' |
    xargs -r readlink -f | sort -u
}
# The standard library's own headers (and the libc headers it uses).
# (<bits/stdc++.h> has every standard header; the C names of the C headers
# come through libstdc++'s wrappers.)
allowed=$(printf '#include <%s>\n' bits/stdc++.h assert.h ctype.h errno.h float.h limits.h \
  math.h stdarg.h stddef.h stdint.h stdio.h stdlib.h string.h time.h wchar.h | deps)
[ -n "$allowed" ] || fail "cannot list the standard library headers"

count=0
while IFS= read -r header; do
  rel=${header#"$prefix/include/"}
  list=$(echo "#include <$rel>" | deps -I "$prefix/include") || fail "$rel does not compile alone"
  bad=""
  while IFS= read -r dep; do
    case "$dep" in "$prefix"/include/mysqlx/*) continue ;; esac
    grep -qxF "$dep" <<<"$allowed" || bad+=" $dep"
  done <<<"$list"
  [ -z "$bad" ] || fail "$rel includes headers from outside mysqlx and the standard library:$bad"
  count=$((count + 1))
done < <(find "$prefix/include/mysqlx" -name '*.h' | sort)
[ $count -gt 0 ] || fail "no headers under $prefix/include/mysqlx"
echo "$count headers: only mysqlx and standard headers"
