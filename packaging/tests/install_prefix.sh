#!/usr/bin/env bash
# Setup fixture of the packaging tests: `cmake --install` of the runtime, dev and
# tools components into a fresh prefix, then checks of what landed there.
#   install_prefix.sh <build dir> <source dir> <prefix>
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
build=$1 src=$2 prefix=$3
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$prefix"
# The documented command; the .debs install the runtime and dev components.
cmake --install "$build" --prefix "$prefix"

so=$(find "$prefix" -name libmysqlx.so.1)
[ -n "$so" ] || fail "no libmysqlx.so.1 under $prefix"
libdir=$(dirname "$so")
echo "libdir: ${libdir#"$prefix"/}"
# libmysqlx.so -> libmysqlx.so.1 -> the real file, whose SONAME is libmysqlx.so.1.
[ -L "$libdir/libmysqlx.so" ] && [ "$(readlink "$libdir/libmysqlx.so")" = libmysqlx.so.1 ] ||
  fail "libmysqlx.so is not a link to libmysqlx.so.1"
[ -L "$so" ] && real=$(readlink -f "$so") && [ -f "$real" ] && [ ! -L "$real" ] ||
  fail "libmysqlx.so.1 is not a link to the real file"
soname=$(readelf -d "$real" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libmysqlx.so.1 ] || fail "SONAME of $(basename "$real") is '$soname'"
echo "libmysqlx.so -> libmysqlx.so.1 -> $(basename "$real") (SONAME $soname)"

# libmysqlx.a carries cdk and the protocol messages, not only the DevAPI.
archive=$libdir/libmysqlx.a
[ -f "$archive" ] || fail "no $archive"
for ns in 'mysqlx::' 'cdk::' 'Mysqlx::'; do
  n=$(nm -C --defined-only "$archive" 2>/dev/null | grep -c " T .*$ns" || true)
  [ "$n" -gt 0 ] || fail "libmysqlx.a defines no $ns functions"
  echo "libmysqlx.a: $n functions of $ns"
done

# Exactly the public headers.
headers() { (cd "$1" && find . -name '*.h' | sort); }
diff <(headers "$src/include/mysqlx") <(headers "$prefix/include/mysqlx") ||
  fail "the installed headers are not the public headers"
while IFS= read -r h; do
  cmp -s "$src/include/mysqlx/$h" "$prefix/include/mysqlx/$h" || fail "installed $h differs"
done < <(headers "$src/include/mysqlx")
echo "headers: $(find "$prefix/include/mysqlx" -name '*.h' | wc -l) files"

for f in mysqlxConfig.cmake mysqlxConfigVersion.cmake mysqlxTargets.cmake mysqlxStaticTargets.cmake; do
  [ -f "$libdir/cmake/mysqlx/$f" ] || fail "no $libdir/cmake/mysqlx/$f"
done
pc=$libdir/pkgconfig/mysqlx.pc
[ -f "$pc" ] || fail "no $pc"
grep -qx "prefix=$prefix" "$pc" || fail "$pc does not say prefix=$prefix"
# The tools, linked against libmysqlx.so.1 as a user program is.
for t in mysqlx-import docid-explain; do
  [ -x "$prefix/bin/$t" ] || fail "no $prefix/bin/$t"
done
readelf -d "$prefix/bin/mysqlx-import" | grep -q 'NEEDED.*\[libmysqlx\.so\.1\]' ||
  fail "mysqlx-import does not link libmysqlx.so.1"
# Captured first: grep -q stops reading at its match, and a help text longer
# than one stdio buffer then dies of SIGPIPE, which pipefail counts.
help=$(LD_LIBRARY_PATH=$libdir "$prefix/bin/mysqlx-import" --help) ||
  fail "the installed mysqlx-import does not run"
grep -q -- '--parallel' <<<"$help" || fail "the installed mysqlx-import --help lacks --parallel"
echo "tools: mysqlx-import, docid-explain"
echo "install into $prefix: ok"
