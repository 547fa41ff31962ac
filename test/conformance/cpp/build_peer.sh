#!/usr/bin/env bash
# Builds and installs the official MySQL Connector/C++ 8.3 (X DevAPI part) from
# its source tarball into a build tree, as a conformance and benchmark peer.
# It is a test peer only: nothing here is linked into libmysqlx.
#
#   build_peer.sh TARBALL WORKDIR
#
# WORKDIR gets src/ (the extracted tarball), build/ and install/ (the prefix:
# install/include/mysqlx/..., install/lib64/libmysqlcppconn8.so). When
# install/.mysqlx-peer-stamp holds the tarball's sha256 the whole build is
# skipped, so a build tree pays for the peer once.
#
# Environment: MYSQLX_PEER_LAUNCHER (compiler launcher, e.g. ccache; empty: none),
# MYSQLX_PEER_JOBS (parallel jobs, default: ninja's).
set -euo pipefail

die() { printf 'build_peer: %s\n' "$*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: build_peer.sh TARBALL WORKDIR"
tarball=$1
work=$2
[ -f "$tarball" ] || die "$tarball not found: the official Connector/C++ peer cannot be built.
CI expects the shared/ directory beside the repo (shared/peers/mysql-connector-cpp-8.3.0-lib.tar.gz);
set -DMYSQLX_PEER_TARBALL=<path> when it is elsewhere."

sum=$(sha256sum "$tarball" | cut -d' ' -f1)
prefix=$work/install
stamp=$prefix/.mysqlx-peer-stamp
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
   [ -f "$prefix/include/mysqlx/xdevapi.h" ] && ls "$prefix"/lib*/libmysqlcppconn8.so >/dev/null 2>&1; then
  echo "build_peer: up to date ($prefix, tarball sha256 $sum)"
  exit 0
fi

for tool in cmake ninja tar; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is required"
done
# Its CMake looks for lz4frame.h even with WITH_LZ4=system (./dev deps installs liblz4-dev).
[ -f /usr/include/lz4frame.h ] || die "lz4frame.h not found: install liblz4-dev (./dev deps)"

start=$(date +%s)
rm -rf "$work/src" "$work/build" "$prefix"
mkdir -p "$work/src"
tar -xzf "$tarball" -C "$work/src"
src=$(find "$work/src" -mindepth 2 -maxdepth 2 -name version.cmake -printf '%h\n' | head -n1)
[ -n "$src" ] || die "$tarball does not hold a Connector/C++ source tree (no version.cmake)"

launcher=()
if [ -n "${MYSQLX_PEER_LAUNCHER:-}" ]; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$MYSQLX_PEER_LAUNCHER"
            -DCMAKE_CXX_COMPILER_LAUNCHER="$MYSQLX_PEER_LAUNCHER")
fi
jobs=()
[ -n "${MYSQLX_PEER_JOBS:-}" ] && jobs=(-j "$MYSQLX_PEER_JOBS")

echo "build_peer: configuring $src"
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DWITH_JDBC=OFF -DWITH_TESTS=OFF -DWITH_SSL=system -DWITH_PROTOBUF=system -DWITH_ZLIB=system \
  -DWITH_ZSTD=system -DWITH_LZ4=system -DCMAKE_INSTALL_PREFIX="$prefix" "${launcher[@]}" \
  >"$work/configure.log" 2>&1 || { tail -n 40 "$work/configure.log" >&2; die "configure failed (see $work/configure.log)"; }
echo "build_peer: building"
cmake --build "$work/build" "${jobs[@]}" >"$work/build.log" 2>&1 ||
  { tail -n 60 "$work/build.log" >&2; die "build failed (see $work/build.log)"; }
cmake --install "$work/build" >"$work/install.log" 2>&1 ||
  { tail -n 20 "$work/install.log" >&2; die "install failed (see $work/install.log)"; }
ls "$prefix"/lib*/libmysqlcppconn8.so >/dev/null 2>&1 || die "no libmysqlcppconn8.so under $prefix"
echo "$sum" >"$stamp"
echo "build_peer: installed into $prefix in $(( $(date +%s) - start )) s"
