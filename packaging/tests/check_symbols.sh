#!/usr/bin/env bash
# ABI hygiene: libmysqlx.so exports the public API (namespace mysqlx) and
# nothing of its internals or private dependencies.
#   check_symbols.sh <libmysqlx.so> [--strict]
#
# Each dynamic symbol it defines (nm -D --defined-only -C) is one of:
#   public   mysqlx::..., and the typeinfo, vtables and thunks of mysqlx classes;
#            the C functions of <mysqlx/xapi.h> (text symbols mysqlx_*);
#   version  the symbol version node (MYSQLX_1) of a linker version script;
#   std      weak (W, V) or unique (u) instantiations of standard library
#            templates (std::vector<std::string>::_M_realloc_insert, ...),
#            which g++ exports from any library that instantiates them;
#            listed, and an error with --strict or once the library has a
#            version script (a MYSQLX_ version node);
#   leak     everything else: cdk, xserver, protobuf (google::protobuf,
#            Mysqlx::), RapidJSON, OpenSSL, zlib, or any other global symbol.
# A name that mentions an internal namespace or a private dependency anywhere,
# even inside template arguments, is a leak whatever its kind.
set -euo pipefail
trap 'echo "${BASH_SOURCE[0]##*/}: line $LINENO: \"$BASH_COMMAND\" failed" >&2' ERR
lib=$1 strict=${2:-}
syms=$(nm -D --defined-only -C "$lib") || { echo "FAIL: nm failed on $lib" >&2; exit 1; }
awk -v strict="$strict" '
  {
    type = $2
    name = $0
    sub(/^[0-9a-fA-F]* *[A-Za-z] /, "", name)
    kind = "leak"
    if (name ~ /cdk::|xserver|google::protobuf|Mysqlx::|rapidjson|RAPIDJSON/) kind = "leak"
    else if (name ~ /^((typeinfo|typeinfo name|vtable|VTT|construction vtable|guard variable) for |(non-|covariant return )?virtual thunk to )?mysqlx::/) kind = "public"
    else if (type == "T" && name ~ /^mysqlx_[a-z0-9_]+(@@?MYSQLX_[0-9.]+)?$/) kind = "public"
    else if (type == "A" && name ~ /^MYSQLX_[0-9.]+$/) kind = "version"
    else if (type ~ /^[WVu]$/ && name ~ /^((typeinfo|typeinfo name|vtable) for )?(std::|__gnu_cxx::|void std::|[a-z_:<>, ]* std::)/) kind = "std"
    count[kind]++
    if (kind != "public" && kind != "version") list[kind] = list[kind] "  " type " " name "\n"
  }
  END {
    printf "%d public, %d std template instantiations, %d leaked\n",
           count["public"], count["std"], count["leak"]
    if (count["std"] > 0) printf "std template instantiations exported:\n%s", list["std"]
    if (count["leak"] > 0) printf "LEAKED (not public API):\n%s", list["leak"]
    if (count["public"] < 50) { print "FAIL: fewer than 50 public symbols: is MYSQLX_EXPORT applied?"; exit 1 }
    if (count["leak"] > 0) { print "FAIL: internal or third-party symbols are exported"; exit 1 }
    # A library with a version script (a MYSQLX_ version node) decides what
    # it exports, so std instantiations are then refused too.
    if ((strict == "--strict" || count["version"] > 0) && count["std"] > 0) {
      print "FAIL: std template instantiations are exported (strict: --strict or a version script)"; exit 1
    }
  }' <<<"$syms"
