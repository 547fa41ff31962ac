#!/usr/bin/env bash
# libmysqlx.a stands on its own: every member of it links, with only the
# system libraries mysqlx.pc names for a static link (--whole-archive and
# --no-undefined make the linker resolve all of it, not only what a program
# happens to use).
#   static_archive_test.sh <prefix> <work dir>
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
prefix=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
archive=$(find "$prefix" -name libmysqlx.a -print -quit)
[ -n "$archive" ] || fail "no libmysqlx.a under $prefix"
export PKG_CONFIG_PATH=$(dirname "$archive")/pkgconfig
# The system part of the static link line, from mysqlx.pc.
libs=$(pkg-config --static --libs mysqlx | sed 's/-L[^ ]*//g; s/-lmysqlx\b//')
echo "system libraries: $libs"
rm -rf "$work"
mkdir -p "$work"
# shellcheck disable=SC2086
g++ -shared -o "$work/whole.so" -Wl,--whole-archive "$archive" -Wl,--no-whole-archive \
  $libs -Wl,--no-undefined || fail "libmysqlx.a does not link on its own"
echo "$(ar t "$archive" | wc -l) members of libmysqlx.a link with: $libs"
