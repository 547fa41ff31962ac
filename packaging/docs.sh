#!/usr/bin/env bash
# Builds the API reference of include/mysqlx/ with Doxygen into
# ${MYSQLX_BUILD_DIR}/docs/html (or into $1), and fails on any Doxygen warning.
#
# An undocumented public member is a warning too, so it fails the build
# (MYSQLX_DOCS_WARN_UNDOCUMENTED=YES, the default). NO leaves undocumented
# members out of the check, for a look at headers still being written.
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${MYSQLX_BUILD_DIR:-$ROOT/build}
OUT=${1:-$BUILD/docs}

command -v doxygen >/dev/null || { echo "docs.sh: doxygen is not installed (./dev deps)" >&2; exit 1; }
version=$(sed -n 's/^project(mysqlx VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")
[ -n "$version" ] || { echo "docs.sh: no version in $ROOT/CMakeLists.txt" >&2; exit 1; }

rm -rf "$OUT/html"
mkdir -p "$OUT"
log="$OUT/warnings.log"
rc=0
MYSQLX_SOURCE_DIR=$ROOT MYSQLX_DOCS_DIR=$OUT MYSQLX_VERSION=$version \
  MYSQLX_DOCS_WARN_UNDOCUMENTED=${MYSQLX_DOCS_WARN_UNDOCUMENTED:-YES} \
  doxygen "$ROOT/packaging/Doxyfile" || rc=$?
# WARN_AS_ERROR=FAIL_ON_WARNINGS sets the exit status; the log is checked
# too, so that a warning can never pass unseen.
if [ $rc -ne 0 ] || [ -s "$log" ]; then
  cat "$log" >&2
  echo "docs.sh: Doxygen reported $(wc -l <"$log") warning(s) (exit status $rc)" >&2
  exit 1
fi
[ -f "$OUT/html/index.html" ] || { echo "docs.sh: no $OUT/html/index.html" >&2; exit 1; }
echo "API reference: $OUT/html/index.html"
