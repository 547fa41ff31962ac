#!/usr/bin/env bash
# mysqlx-import against the library baseline (bench_import_baseline add) on
# the same 120-byte documents, same batch size, same id scheme, for each
# --parallel; each run into a fresh collection of one fresh xserverd.
#   compare.sh [N] [BATCH] [PARALLEL...]     (defaults: 1000000 1000 1 2 4)
# MYSQLX_BUILD_DIR (default ./build), MYSQLX_BENCH_PORT (default 33230),
# MYSQLX_BENCH_DOCID_MODE (default auto: the server's ids), MYSQLX_BENCH_ROUNDS
# (default 4, even so that each side goes first as often): each round runs both, in alternating order (the server slows
# as it fills and flushes the previous run's pages), and the median round of
# each is printed. Each --parallel value gets a fresh server.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BUILD=${MYSQLX_BUILD_DIR:-$ROOT/build}
PORT=${MYSQLX_BENCH_PORT:-33230}
MODE=${MYSQLX_BENCH_DOCID_MODE:-auto}
ROUNDS=${MYSQLX_BENCH_ROUNDS:-4}
N=${1:-1000000}
BATCH=${2:-1000}
shift $(( $# > 2 ? 2 : $# ))
PARALLEL=("$@")
[ ${#PARALLEL[@]} -gt 0 ] || PARALLEL=(1 2 4)
base=$BUILD/test/bench/import/bench_import_baseline
tool=$BUILD/tools/mysqlx-import
for f in "$base" "$tool"; do
  [ -x "$f" ] || { echo "compare.sh: $f is not built" >&2; exit 1; }
done
ctl() { MYSQLX_BUILD_DIR=$BUILD "$ROOT/test/xserver/xserverctl" "$@"; }
work=$(mktemp -d)
trap 'ctl stop --name bench_import >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
"$base" write "$work/docs.jsonl" "$N"
echo "documents $N x $(head -1 "$work/docs.jsonl" | tr -d '\n' | wc -c) bytes, batch $BATCH, docid-mode $MODE"
rate() { sed -n 's/.*(\([0-9]*\) docs\/s).*/\1/p'; }
median() {
  tr ' ' '\n' | grep . | sort -n |
    awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : int((v[NR/2] + v[NR/2+1]) / 2)}'
}
for p in "${PARALLEL[@]}"; do
  ctl stop --name bench_import >/dev/null 2>&1 || true
  uri=$(ctl start --name bench_import --port "$PORT" --fresh 2>/dev/null | tail -1)
  bs="" ts=""
  for r in $(seq 1 "$ROUNDS"); do
    run_base() { "$base" add "$uri" bench_import "base_${p}_$r" "$N" "$BATCH" "$p" "$MODE" | rate; }
    run_tool() {
      MYSQLX_URI=$uri "$tool" -s bench_import -c "tool_${p}_$r" -b "$BATCH" -j "$p" \
        --docid-mode "$MODE" --progress none "$work/docs.jsonl" | rate
    }
    if [ $((r % 2)) -eq 1 ]; then b=$(run_base); t=$(run_tool); else t=$(run_tool); b=$(run_base); fi
    echo "  parallel $p round $r: baseline $b docs/s, mysqlx-import $t docs/s"
    bs="$bs $b" ts="$ts $t"
  done
  b=$(median <<<"$bs") t=$(median <<<"$ts")
  echo "parallel $p: baseline $b docs/s, mysqlx-import $t docs/s ($(( 100 * t / b ))%) (medians of $ROUNDS)"
done
