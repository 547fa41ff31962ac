#!/usr/bin/env bash
# Issue 27: executeAsync() against a loop of execute(), ours and the official
# Connector/C++ 8.3 side by side, through xdelay at round trips of 0, 0.5 and
# 2 ms. Starts one fresh xserverd and an xdelay per delay, runs bench_async
# and bench_async_peer against each in turn (alternating which goes first),
# and writes to OUTDIR:
#   results.jsonl  every timed run (JSON lines of both programs)
#   table.md       medians in ops/s, and the ratios
#   async.png      the same as a plot (gnuplot)
#
#   run.sh OUTDIR [REPS]          (REPS default 3: runs of each program per delay)
#
# Environment: MYSQLX_BUILD_DIR (default ./build), MYSQLX_BENCH_PORT (default
# 23350: the server; its proxies take the next three), MYSQLX_BENCH_OPS
# (statements per run, default 1000), BENCH_ASYNC and BENCH_ASYNC_PEER (the
# programs; default: the build's). Build them first:
#   cmake --build build --target bench_async mysqlx_peer
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BUILD=${MYSQLX_BUILD_DIR:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
PORT=${MYSQLX_BENCH_PORT:-23350}
OPS=${MYSQLX_BENCH_OPS:-1000}
OURS=${BENCH_ASYNC:-$BUILD/test/bench/async/bench_async}
PEER=${BENCH_ASYNC_PEER:-$BUILD/test/bench/async/bench_async_peer}
DELAYS=(0 0.25 1) # one way: round trips of 0, 0.5 and 2 ms

die() { printf 'run.sh: %s\n' "$*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: run.sh OUTDIR [REPS]"
OUT=$1
REPS=${2:-3}
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "REPS: a positive number"
[ -x "$OURS" ] || die "$OURS is not built (cmake --build build --target bench_async)"
[ -x "$PEER" ] || die "$PEER is not built (cmake --build build --target mysqlx_peer)"
command -v gnuplot >/dev/null || die "gnuplot is required (./dev deps installs gnuplot-nox)"
command -v python3 >/dev/null || die "python3 is required"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

NAME=bench_async_run
# shellcheck source=../proxied_server.sh
. "$ROOT/test/bench/proxied_server.sh"

echo "load average before: $(load)" | tee "$OUT/load.txt"
ctl start --name "$NAME" --port "$PORT" --fresh >/dev/null
: >"$OUT/results.jsonl"
for i in "${!DELAYS[@]}"; do
  d=${DELAYS[$i]}
  rtt=$(python3 -c "print(2 * $d)")
  uri=$(ctl proxy start --name "${NAME}_$i" --port $((PORT + 1 + i)) --target-port "$PORT" \
    --delay-ms "$d" 2>/dev/null)
  for rep in $(seq 1 "$REPS"); do
    progs=("$OURS" "$PEER")
    [ $((rep % 2)) -eq 0 ] && progs=("$PEER" "$OURS")
    for p in "${progs[@]}"; do
      echo "round trip $rtt ms, run $rep/$REPS: $(basename "$p")" >&2
      "$p" --uri "$uri" --rtt-ms "$rtt" --ops "$OPS" 2>/dev/null |
        grep -v '"mode":"summary"' >>"$OUT/results.jsonl"
    done
  done
  ctl proxy stop --name "${NAME}_$i" >/dev/null
done
echo "load average after: $(load)" | tee -a "$OUT/load.txt"

# Medians per client, round trip, workload and mode: table.md and plot.dat.
python3 - "$OUT" "$REPS" "$OPS" <<'EOF'
import json, statistics, sys
out, reps, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs, pings = {}, {}
for line in open(f"{out}/results.jsonl"):
    r = json.loads(line)
    if r["mode"] == "ping":
        pings.setdefault(r["rtt_ms"], []).append(r["ping_ms"])
    else:
        runs.setdefault((r["client"], r["rtt_ms"], r["workload"], r["mode"]), []).append(r["ops_per_s"])
med = {k: statistics.median(v) for k, v in runs.items()}
rtts = sorted(pings)
names = {"find": "find by _id", "add": "add, autocommitted", "txadd": "add in one transaction"}
ops = lambda v: f"{v:,.0f}"
rows = ["| round trip | statement | Connector/C++ 8.3 `execute()` | ours `execute()` | ours `executeAsync()` | async / plain | async / official |",
        "|---|---|---|---|---|---|---|"]
with open(f"{out}/plot.dat", "w") as dat:
    for w in ("find", "add", "txadd"):
        dat.write(f"# {w}: rtt official ours_plain ours_async\n")
        for rtt in rtts:
            peer = med[("connector-cpp-8.3", rtt, w, "plain")]
            plain = med[("mysqlx", rtt, w, "plain")]
            fut = med[("mysqlx", rtt, w, "async")]
            rows.append(f"| {rtt:g} ms | {names[w]} | {ops(peer)} | {ops(plain)} | {ops(fut)} | "
                        f"{fut / plain:.1f}x | {fut / peer:.1f}x |")
            dat.write(f"{rtt:g} {peer:.1f} {plain:.1f} {fut:.1f}\n")
        dat.write("\n\n")
ping = ", ".join(f"{statistics.median(pings[r]):.2f} ms" for r in rtts)
with open(f"{out}/table.md", "w") as t:
    t.write("\n".join(rows) + "\n\n")
    t.write(f"Statements per second (medians of {reps} runs of {n:,} statements each); "
            f"measured round trips (median of a plain `SELECT 1`): {ping}.\n")
print(open(f"{out}/table.md").read())
EOF

gnuplot <<EOF
set terminal pngcairo noenhanced size 1500,520 font "DejaVu Sans,11"
set output "$OUT/async.png"
set multiplot layout 1,3 title "Statements per second through a round trip (xdelay in front of xserverd; $OPS statements per run, up to 100 in flight; medians of $REPS runs)"
set logscale y
set yrange [100:30000]
set grid ytics mytics xtics
set xlabel "round trip (ms)"
set xtics ("0" 0, "0.5" 0.5, "2" 2)
set xrange [-0.1:2.1]
set key bottom left
set ylabel "statements per second"
do for [i=0:2] {
  if (i == 0) { set title "find by _id" }
  if (i == 1) { set title "add, autocommitted" }
  if (i == 2) { set title "add in one transaction" }
  plot "$OUT/plot.dat" index i using 1:4 with linespoints lw 2 pt 7 title "ours, executeAsync()", \
       "" index i using 1:3 with linespoints lw 2 pt 5 title "ours, execute()", \
       "" index i using 1:2 with linespoints lw 2 pt 9 dt 2 title "Connector/C++ 8.3, execute()"
}
unset multiplot
EOF
echo "wrote $OUT/results.jsonl, $OUT/table.md, $OUT/async.png"
