#!/usr/bin/env bash
# Builds the Debian packages libmysqlx1, libmysqlx-dev and mysqlx-tools from an already
# built tree (${MYSQLX_BUILD_DIR}) into ${MYSQLX_BUILD_DIR}/packages (or $1).
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${MYSQLX_BUILD_DIR:-$ROOT/build}
OUT=${1:-$BUILD/packages}

[ -f "$BUILD/CMakeCache.txt" ] ||
  { echo "package.sh: $BUILD is not a configured build tree" >&2; exit 1; }
if [ ! -f "$BUILD/CPackConfig.cmake" ]; then
  # A tree configured before packaging/ existed: nothing made CMake look
  # again, so configure it now and build what the packages hold.
  cmake "$BUILD" >/dev/null
  cmake --build "$BUILD" --target mysqlx mysqlx_bundle mysqlx-import docid-explain >/dev/null
fi
# cpack installs from the build tree and does not build: ./dev package builds
# first. (The packaging_deb test runs this script too, on the tree ctest tests.)
# (packaged_files.txt: the libraries and tools, written by packaging/CMakeLists.txt.)
while IFS= read -r f; do
  [ -e "$f" ] || { echo "package.sh: $f is not built (cmake --build $BUILD)" >&2; exit 1; }
done <"$BUILD/packaging/packaged_files.txt"

mkdir -p "$OUT"
rm -f "$OUT"/*.deb
rm -rf "$OUT/_CPack_Packages"
cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$OUT" >"$OUT/cpack.log" 2>&1 ||
  { cat "$OUT/cpack.log" >&2; echo "package.sh: cpack failed" >&2; exit 1; }
rm -rf "$OUT/_CPack_Packages"

shopt -s nullglob
debs=("$OUT"/*.deb)
[ ${#debs[@]} -eq 3 ] || { echo "package.sh: expected 3 packages, got ${#debs[@]}" >&2; exit 1; }
for deb in "${debs[@]}"; do
  echo "$deb"
  dpkg-deb -f "$deb" Package Version Depends | sed 's/^/  /'
done
