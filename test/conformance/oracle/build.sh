#!/usr/bin/env bash
# Builds Oracle's X DevAPI tests (devapi: the C++ API's; xapi: the C API's)
# against a connector (a ctest fixture step).
#   build.sh devapi|xapi <tests tarball> <work dir> ours|official <install prefix> [compiler launcher]
# A missing tarball fails: a conformance suite that is not built is not a pass.
set -euo pipefail
suite=$1 tarball=$2 work=$3 against=$4 prefix=$5 launcher=${6:-}
[ -f "$tarball" ] || { echo "build.sh: no test tarball at $tarball" >&2; exit 1; }
src=$work/src
if [ ! -d "$src/$suite/tests" ]; then
  rm -rf "$src" && mkdir -p "$src"
  tar -xzf "$tarball" -C "$src" --strip-components=1
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cmake -S "$here/project" -B "$work/$against" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS=-O1 ${launcher:+-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher} \
  -DORACLE_SRC="$src" -DSUITE="$suite" -DAGAINST="$against" -DCONNECTOR_PREFIX="$prefix" >/dev/null
cmake --build "$work/$against"
