#!/usr/bin/env bash
# A before/after check of our own client (issue 34: "the async benchmark
# numbers do not drop"): two builds of bench_async, A (say, the last commit
# before a change) and B, run alternately against one xserverd through one
# xdelay, so that a machine that gets busier or quieter weighs on both alike.
# Prints, per workload and mode, the median statements per second of each,
# B/A, and each one's range; writes every run to OUTDIR/ab.jsonl.
#
#   ab.sh A_BENCH_ASYNC B_BENCH_ASYNC OUTDIR [REPS] [ROUND_TRIP_MS]
#
# REPS (default 10): runs of each program; ROUND_TRIP_MS default 2. Build A
# from a worktree at the older commit (`cmake --build build --target
# bench_async`). Environment: MYSQLX_BUILD_DIR (xserverd's and xdelay's
# build, default ./build), MYSQLX_BENCH_PORT (default 23360, the proxy takes
# the next one), MYSQLX_BENCH_OPS (statements per run, default 1000).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BUILD=${MYSQLX_BUILD_DIR:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
PORT=${MYSQLX_BENCH_PORT:-23360}
OPS=${MYSQLX_BENCH_OPS:-1000}

die() { printf 'ab.sh: %s\n' "$*" >&2; exit 1; }
[ $# -ge 3 ] && [ $# -le 5 ] || die "usage: ab.sh A_BENCH_ASYNC B_BENCH_ASYNC OUTDIR [REPS] [ROUND_TRIP_MS]"
A=$1 B=$2 OUT=$3 REPS=${4:-10} RTT=${5:-2}
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "REPS: a positive number"
[ -x "$A" ] || die "$A is not a program"
[ -x "$B" ] || die "$B is not a program"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

NAME=bench_async_ab
DELAYS=("$(python3 -c "print($RTT / 2)")")
# shellcheck source=../proxied_server.sh
. "$ROOT/test/bench/proxied_server.sh"

echo "load average before: $(load)"
ctl start --name "$NAME" --port "$PORT" --fresh >/dev/null
uri=$(ctl proxy start --name "${NAME}_0" --port $((PORT + 1)) --target-port "$PORT" \
  --delay-ms "${DELAYS[0]}" 2>/dev/null)
: >"$OUT/ab.jsonl"
for rep in $(seq 1 "$REPS"); do
  order=(A B)
  [ $((rep % 2)) -eq 0 ] && order=(B A)
  for which in "${order[@]}"; do
    prog=$A
    [ "$which" = B ] && prog=$B
    echo "run $rep/$REPS: $which" >&2
    "$prog" --uri "$uri" --rtt-ms "$RTT" --ops "$OPS" 2>/dev/null | grep -v '"mode":"summary"' |
      sed "s/^{/{\"ab\":\"$which\",/" >>"$OUT/ab.jsonl"
  done
done
echo "load average after: $(load)"

python3 - "$OUT/ab.jsonl" <<'EOF'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["mode"] != "ping":
        runs.setdefault((r["workload"], r["mode"], r["ab"]), []).append(r["ops_per_s"])
print("| workload | mode | A | B | B/A | A's range | B's range |\n|---|---|---|---|---|---|---|")
for w in ("find", "add", "txadd"):
    for m in ("plain", "async"):
        a, b = runs[(w, m, "A")], runs[(w, m, "B")]
        ma, mb = statistics.median(a), statistics.median(b)
        print(f"| {w} | {m} | {ma:,.0f} | {mb:,.0f} | {mb / ma:.2f} | "
              f"{min(a):,.0f}-{max(a):,.0f} | {min(b):,.0f}-{max(b):,.0f} |")
print(f"\nStatements per second, medians of {len(a)} runs each (A and B alternating).")
EOF
