#!/usr/bin/env bash
# TLS records are OpenSSL's alone: libmysqlx.so may call SSL_read/SSL_write,
# but it may not import what a record layer of its own would need, so that
# one cannot come back unnoticed (issue 23).
#   check_tls_imports.sh <libmysqlx.so>
#   check_tls_imports.sh --must-refuse <lib> <symbol>...   (the check's own test:
#     passes only when <lib> is refused and every <symbol> is named)
#
# Refused imports (nm -D --undefined-only):
#   the key log callback and other ways to take secrets out of a session
#     (SSL_CTX_set_keylog_callback, SSL_export_keying_material,
#     SSL_SESSION_get_master_key, SSL_get_client_random, ...);
#   key derivation: anything with HKDF or EVP_KDF in its name, EVP_PKEY_derive;
#   symmetric ciphers: EVP_Cipher*, EVP_Encrypt*, EVP_Decrypt*, EVP_CIPHER*,
#     EVP_aes_*, EVP_chacha20*.
# The connector's own uses of libcrypto (digests for MYSQL41 and
# SHA256_MEMORY, random bytes, error strings) are none of these.
set -euo pipefail
if [ "${1:-}" = --must-refuse ]; then
  shift
  lib=${1:?usage: check_tls_imports.sh --must-refuse <lib> <symbol>...}
  shift
  if out=$("$0" "$lib"); then
    echo "FAIL: the check passed $lib, which it must refuse:"
    echo "$out"
    exit 1
  fi
  echo "$out"
  for sym in "$@"; do
    grep -qw -- "$sym" <<<"$out" || { echo "FAIL: the refusal does not name $sym"; exit 1; }
  done
  echo "OK: refused, naming $*"
  exit 0
fi
lib=${1:?usage: check_tls_imports.sh <libmysqlx.so>}
imports=$(nm -D --undefined-only "$lib" | awk '{print $NF}' | sed 's/@.*//') ||
  { echo "FAIL: nm failed on $lib" >&2; exit 1; }
[ -n "$imports" ] || { echo "FAIL: $lib imports nothing: not a dynamic library?" >&2; exit 1; }
grep -q '^SSL_read' <<<"$imports" ||
  { echo "FAIL: $lib does not import SSL_read*: is TLS linked at all?" >&2; exit 1; }
pattern='keylog|HKDF|hkdf|EVP_KDF|EVP_PKEY_derive|^SSL_export_keying_material|^SSL_SESSION_get_master_key'
pattern+='|^SSL_get_(client|server)_random|^EVP_Cipher|^EVP_Encrypt|^EVP_Decrypt|^EVP_CIPHER|^EVP_aes_|^EVP_chacha20'
bad=$(grep -E "$pattern" <<<"$imports" || true)
if [ -n "$bad" ]; then
  echo "FAIL: $lib imports what only a TLS record layer of its own would need:"
  sed 's/^/  /' <<<"$bad"
  exit 1
fi
echo "OK: $(wc -l <<<"$imports") imports, none of them key extraction, key derivation or ciphers"
