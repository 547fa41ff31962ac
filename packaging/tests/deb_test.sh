#!/usr/bin/env bash
# Setup fixture: builds the .debs with package.sh into <out>, checks their
# names, Depends and contents, checks with apt (simulation only) that they
# install on this system, and unpacks them with `dpkg -x` into <root> for the
# consumer tests. Nothing is installed into the real system.
#   deb_test.sh <build dir> <out dir> <root>
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
build=$1 out=$2 root=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

MYSQLX_BUILD_DIR=$build "$here/../package.sh" "$out"
runtime=$(ls "$out"/libmysqlx1_*.deb 2>/dev/null) || fail "no libmysqlx1 package"
dev=$(ls "$out"/libmysqlx-dev_*.deb 2>/dev/null) || fail "no libmysqlx-dev package"
tools=$(ls "$out"/mysqlx-tools_*.deb 2>/dev/null) || fail "no mysqlx-tools package"

field() { dpkg-deb -f "$1" "$2"; }
# has_dep "<Depends field>" <package>: the package is one of the relations.
has_dep() { tr ',' '\n' <<<"$1" | awk '{print $1}' | grep -qxF "$2"; }
version=$(field "$runtime" Version)
depends=$(field "$runtime" Depends)
dev_depends=$(field "$dev" Depends)
echo "libmysqlx1 $version Depends: $depends"
echo "libmysqlx-dev $(field "$dev" Version) Depends: $dev_depends"
[ "$(field "$dev" Version)" = "$version" ] || fail "the two packages have different versions"

# Runtime contents: the library and its SONAME link, nothing for developers.
rt_files=$(dpkg-deb -c "$runtime" | awk '{print $6}' | grep -v '/$')
echo "$rt_files" | grep -qx './usr/lib/[^/]*/libmysqlx.so.1' || fail "libmysqlx1 lacks libmysqlx.so.1"
echo "$rt_files" | grep -E '\.h$|\.a$|\.pc$|\.cmake$|/libmysqlx\.so$' && fail "libmysqlx1 has development files"
# Depends covers the package of every library libmysqlx.so.1 needs (found
# here with dpkg -S, independently of dpkg-shlibdeps).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$runtime" "$tmp"
lib=$(find "$tmp" -name 'libmysqlx.so.1')
[ -n "$lib" ] || fail "cannot unpack libmysqlx1"
# Read once: `ldconfig -p | awk '...; exit'` fails under pipefail whenever
# awk exits before ldconfig has written everything (SIGPIPE).
cache=$(ldconfig -p)
for needed in $(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  path=$(awk -v n="$needed" '$1 == n && /x86-64|x86_64/ {print $NF; exit}' <<<"$cache")
  [ -n "$path" ] || path=$(awk -v n="$needed" '$1 == n {print $NF; exit}' <<<"$cache")
  [ -n "$path" ] || fail "cannot find $needed on this system"
  pkg=""
  real=$(readlink -f "$path")
  # With merged /usr, dpkg knows a file by the path its package shipped.
  for candidate in "$real" "$path" "${real#/usr}" "${path#/usr}"; do
    pkg=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  [ -n "$pkg" ] || fail "no package owns $path ($needed)"
  echo "NEEDED $needed -> $pkg"
  has_dep "$depends" "$pkg" || fail "Depends of libmysqlx1 lacks $pkg (for $needed)"
done
dpkg-deb -I "$runtime" shlibs | grep -q '^libmysqlx 1 libmysqlx1' || fail "no shlibs entry"
dpkg-deb -I "$runtime" postinst | grep -q ldconfig || fail "postinst does not run ldconfig"

# Dev contents and Depends.
dev_files=$(dpkg-deb -c "$dev" | awk '{print $6}')
for f in './usr/include/mysqlx/xdevapi.h' './usr/lib/[^/]*/libmysqlx.a' \
         './usr/lib/[^/]*/libmysqlx.so' './usr/lib/[^/]*/pkgconfig/mysqlx.pc' \
         './usr/lib/[^/]*/cmake/mysqlx/mysqlxConfig.cmake'; do
  echo "$dev_files" | grep -qx "$f" || fail "libmysqlx-dev lacks $f"
done
grep -q "libmysqlx1 (= $version)" <<<"$dev_depends" || fail "libmysqlx-dev does not depend on libmysqlx1 (= $version)"
# libstdc++-dev: a C program links libmysqlx.a with libstdc++.so named.
for p in libprotobuf-dev libssl-dev zlib1g-dev libzstd-dev liblz4-dev libstdc++-dev; do
  has_dep "$dev_depends" "$p" || fail "libmysqlx-dev does not depend on $p"
done

# Tools contents and Depends: the programs, on this very libmysqlx1.
tools_files=$(dpkg-deb -c "$tools" | awk '{print $6}' | grep -v '/$')
for f in ./usr/bin/mysqlx-import ./usr/bin/docid-explain; do
  echo "$tools_files" | grep -qx "$f" || fail "mysqlx-tools lacks $f"
done
echo "$tools_files" | grep -E '\.h$|\.a$|\.so' && fail "mysqlx-tools has library or development files"
echo "$rt_files$dev_files" | grep -E '/bin/' && fail "a library package has programs"
tools_depends=$(field "$tools" Depends)
echo "mysqlx-tools $(field "$tools" Version) Depends: $tools_depends"
grep -q "libmysqlx1 (= $version)" <<<"$tools_depends" || fail "mysqlx-tools does not depend on libmysqlx1 (= $version)"
has_dep "$tools_depends" libstdc++6 || fail "mysqlx-tools does not depend on libstdc++6 (dpkg-shlibdeps)"

# Installable here: apt resolves their dependencies (simulation, no change).
if command -v apt-get >/dev/null; then
  apt-get install --simulate --no-install-recommends "$runtime" "$dev" "$tools" >"$tmp/apt.log" 2>&1 ||
    { cat "$tmp/apt.log" >&2; fail "apt cannot install the packages"; }
  grep -E '^Inst (libmysqlx|mysqlx-tools)' "$tmp/apt.log" || fail "apt would not install them"
fi

rm -rf "$root"
mkdir -p "$root"
dpkg-deb -x "$runtime" "$root"
dpkg-deb -x "$dev" "$root"
dpkg-deb -x "$tools" "$root"
# The unpacked programs run on the unpacked library (no RPATH: /usr/lib/<triplet>
# is on the loader's path once installed).
readelf -d "$root/usr/bin/mysqlx-import" | grep -q 'RUNPATH\|RPATH' && fail "mysqlx-import has an RPATH"
# Captured first: grep -q stops reading at its match, and a help text longer
# than one stdio buffer then dies of SIGPIPE, which pipefail counts.
help=$(LD_LIBRARY_PATH=$(dirname "$(find "$root" -name libmysqlx.so.1)") \
  "$root/usr/bin/mysqlx-import" --help) || fail "mysqlx-import --help does not run"
grep -q -- '--skip-invalid' <<<"$help" || fail "mysqlx-import --help lacks --skip-invalid"
"$root/usr/bin/docid-explain" 00006075f6810000000000000006 | grep -Eq 'serial +6' ||
  fail "docid-explain does not run"
grep -qx 'prefix=/usr' "$root"/usr/lib/*/pkgconfig/mysqlx.pc || fail "mysqlx.pc in the .deb is not for /usr"
echo "unpacked into $root"
