#!/usr/bin/env bash
# Builds a consumer program against an installed mysqlx the way a user would,
# checks how it is linked, and runs it.
#
#   consumer_test.sh --via cmake|pkg-config --link shared|static
#                    --prefix P --work DIR --source FILE [--sysroot R]
#                    [--lang c] [-- program arguments]
#
# --lang c  the program is C: a C-only CMake project (consumer/ with
#           CONSUMER_LANGUAGE=C), or gcc
#           -std=c99 -Wall -Werror -pedantic with mysqlx.pc's flags
# --prefix  where mysqlx is installed (P/include, P/lib/<triplet>, ...)
# --sysroot the prefix is R/usr from `dpkg -x` of the .debs: pkg-config
#           reads R/usr/lib/<triplet>/pkgconfig with PKG_CONFIG_SYSROOT_DIR
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
via="" link="" prefix="" work="" source="" sysroot="" lang=cxx
while [ $# -gt 0 ]; do
  case "$1" in
    --via) via=$2; shift 2 ;;
    --link) link=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --source) source=$2; shift 2 ;;
    --sysroot) sysroot=$2; shift 2 ;;
    --lang) lang=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "consumer_test.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "$via" ] && [ -n "$link" ] && [ -d "$prefix" ] && [ -n "$work" ] && [ -f "$source" ] ||
  fail "missing or bad arguments (is the install fixture there? prefix=$prefix)"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The one libmysqlx.so.1 / libmysqlx.a of the prefix: the consumer must use these.
so=$(find "$prefix" -name libmysqlx.so.1 -print -quit)
archive=$(find "$prefix" -name libmysqlx.a -print -quit)
[ -n "$so" ] && [ -n "$archive" ] || fail "no libmysqlx.so.1 / libmysqlx.a under $prefix"
libdir=$(dirname "$so")

rm -rf "$work"
mkdir -p "$work"
exe="$work/consumer"
case "$via" in
  cmake)
    language=CXX
    if [ "$lang" = c ]; then language=C; fi
    cmake -S "$here/consumer" -B "$work/build" -DCONSUMER_LANGUAGE=$language -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_SOURCE="$source" -DMYSQLX_LINK="$link" \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
    cmake --build "$work/build" --verbose
    cp "$work/build/consumer" "$exe"
    # The compile line may name only the prefix's include directory.
    for dir in $(grep -o -- '-\(I\|isystem \)[^ "]*' "$work/build/compile_commands.json" |
                 sed 's/^-I//; s/^-isystem //'); do
      case "$(readlink -f "$dir")" in
        "$(readlink -f "$prefix")"/*) ;;
        *) fail "the consumer is compiled with include directory $dir, outside $prefix" ;;
      esac
    done
    ;;
  pkg-config)
    if [ -n "$sysroot" ]; then
      export PKG_CONFIG_SYSROOT_DIR=$sysroot
    fi
    export PKG_CONFIG_PATH=$libdir/pkgconfig
    pkg-config --exists --print-errors mysqlx
    if [ "$link" = static ]; then
      # --static adds Libs.private and Requires.private; -l:libmysqlx.a makes
      # the linker take the archive although libmysqlx.so sits next to it.
      libs=$(pkg-config --static --libs mysqlx | sed 's/-lmysqlx\b/-l:libmysqlx.a/')
    else
      libs=$(pkg-config --libs mysqlx)
    fi
    cflags=$(pkg-config --cflags mysqlx)
    echo "cflags: $cflags"
    echo "libs:   $libs"
    # Only what mysqlx.pc says: no -I for protobuf, RapidJSON or OpenSSL.
    # shellcheck disable=SC2086
    if [ "$lang" = c ]; then
      gcc -std=c99 -Wall -Werror -pedantic -o "$exe" "$source" $cflags $libs
    else
      g++ -std=c++17 -o "$exe" "$source" $cflags $libs
    fi
    ;;
  *) fail "--via must be cmake or pkg-config" ;;
esac
if [ "$lang" = c ] && [ "$via" = cmake ]; then
  # A C project: compiled and linked by the C driver, C++ never enabled.
  grep -q '^rule C_EXECUTABLE_LINKER__consumer' "$work/build/CMakeFiles/rules.ninja" ||
    fail "the C consumer is not linked by the C compiler driver"
  if grep -q '^rule CXX_' "$work/build/CMakeFiles/rules.ninja"; then fail "the C consumer enabled C++"; fi
fi

needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
echo "NEEDED: $needed"
if [ "$link" = static ]; then
  case " $needed " in *" libmysqlx.so"*) fail "static consumer needs libmysqlx.so" ;; esac
  if [ "$via" = cmake ]; then
    grep -qF "$archive" "$work/build/build.ninja" || fail "the consumer is not linked with $archive"
  fi
else
  case " $needed " in *" libmysqlx.so.1 "*) ;; *) fail "consumer does not need libmysqlx.so.1" ;; esac
  # The pkg-config build has no RPATH, as usual: the loader is told where.
  export LD_LIBRARY_PATH=$libdir
  resolved=$(ldd "$exe" | sed -n 's/^[[:space:]]*libmysqlx\.so\.1 => \([^ ]*\).*/\1/p')
  [ "$(readlink -f "$resolved")" = "$(readlink -f "$so")" ] ||
    fail "libmysqlx.so.1 resolves to '$resolved', not to $so"
  echo "libmysqlx.so.1 => $resolved"
fi
echo "--- running $(basename "$source") $*"
"$exe" "$@"
