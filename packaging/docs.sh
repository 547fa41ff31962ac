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
# Doxygen documents (and checks) the functions of a C header only when the
# header has a @file comment: without it, an undocumented function of
# <mysqlx/xapi.h> would pass unseen. So its page must exist and list every
# function the header declares.
page="$OUT/html/xapi_8h.html"
[ -f "$page" ] || { echo "docs.sh: no page for xapi.h (has it lost its @file comment?)" >&2; exit 1; }
for f in $(sed -n 's/^MYSQLX_C_API[^(]*[ *]\(mysqlx_[a-z0-9_]*\)(.*/\1/p' "$ROOT/include/mysqlx/xapi.h"); do
  grep -q ">$f<" "$page" || { echo "docs.sh: xapi.h's page lacks $f" >&2; exit 1; }
done
echo "API reference: $OUT/html/index.html"
