#!/usr/bin/env bash
# Issue 36: a new session to the first row of `SELECT 1`, ours and the
# official Connector/C++ 8.3 side by side, through xdelay at round trips of
# 2 and 20 ms, TLS on and off, each auth mode. Starts one fresh xserverd and
# an xdelay per delay; for each case runs bench_connect and
# bench_connect_peer (alternating which goes first), and reads the round
# trips to the first row from xdelay's flights log (the client's flights, on
# one more connect that exits at its first row). Writes
# to OUTDIR:
#   results.jsonl  every connect (JSON lines of both programs)
#   flights.txt    round trips to the first row, per case and client
#   table.md       medians, round trips and the ratio; and a pool of 8 warmed
#                  from cold (8 threads at once, TLS, AUTO): median of 3
#
#   run.sh OUTDIR [REPS]          (REPS default 10: connects per case and program)
#
# Environment: MYSQLX_BUILD_DIR (default ./build), MYSQLX_BENCH_PORT (default
# 23360: the server; its proxies take the next two). Build first:
#   cmake --build build --target bench_connect mysqlx_peer
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BUILD=${MYSQLX_BUILD_DIR:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
PORT=${MYSQLX_BENCH_PORT:-23360}
OURS=${BENCH_CONNECT:-$BUILD/test/bench/connect/bench_connect}
PEER=${BENCH_CONNECT_PEER:-$BUILD/test/bench/connect/bench_connect_peer}
DELAYS=(1 10) # one way: round trips of 2 and 20 ms
# TLS first: PLAIN over TLS fills the server's SHA256_MEMORY cache.
CASES=("tls auto|" "tls mysql41|auth=MYSQL41" "tls sha256_memory|auth=SHA256_MEMORY"
       "plain auto|ssl-mode=disabled" "plain mysql41|ssl-mode=disabled&auth=MYSQL41"
       "plain sha256_memory|ssl-mode=disabled&auth=SHA256_MEMORY")

die() { printf 'run.sh: %s\n' "$*" >&2; exit 1; }
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: run.sh OUTDIR [REPS]"
OUT=$1
REPS=${2:-10}
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "REPS: a positive number"
[ -x "$OURS" ] || die "$OURS is not built (cmake --build build --target bench_connect)"
[ -x "$PEER" ] || die "$PEER is not built (cmake --build build --target mysqlx_peer)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

NAME=bench_connect_run
# shellcheck source=../proxied_server.sh
. "$ROOT/test/bench/proxied_server.sh"

echo "load average before: $(load)" | tee "$OUT/load.txt"
ctl start --name "$NAME" --port "$PORT" --fresh >/dev/null
: >"$OUT/results.jsonl"
: >"$OUT/flights.txt"
for i in "${!DELAYS[@]}"; do
  d=${DELAYS[$i]}
  rtt=$(python3 -c "print(f'{2 * $d:g}')")
  uri=$(ctl proxy start --name "${NAME}_$i" --port $((PORT + 1 + i)) --target-port "$PORT" \
    --delay-ms "$d" 2>/dev/null)
  flights=$BUILD/xdelay/${NAME}_$i/flights
  for c in "${CASES[@]}"; do
    label="${c%%|*} ${rtt}ms"
    query=${c#*|}
    u=$uri
    [ -n "$query" ] && u="$uri/?$query"
    progs=("$OURS" "$PEER")
    [ $((i % 2)) -eq 1 ] && progs=("$PEER" "$OURS")
    for p in "${progs[@]}"; do
      echo "$label: $(basename "$p")" >&2
      "$p" --uri "$u" --reps "$REPS" --label "$label" >>"$OUT/results.jsonl"
      # Counted on one more connect that ends the process at its first row:
      # no Close and no TLS close_notify in the count.
      rm -f "$flights"
      "$p" --uri "$u" --reps 1 --abandon 1 >/dev/null
      for _ in $(seq 1 100); do [ -s "$flights" ] && break; sleep 0.05; done
      client=$([ "$p" = "$OURS" ] && echo mysqlx || echo connector-cpp-8.3)
      # The last line: a close of the timed connects may still come in first.
      echo "$label|$client|$(tail -n1 "$flights" | cut -d' ' -f2)" >>"$OUT/flights.txt"
    done
  done
  # A pool of 8 warmed from cold (TLS, AUTO): until all 8 have their row.
  for rep in $(seq 1 3); do
    for p in "$OURS" "$PEER"; do
      "$p" --uri "$uri" --pool 8 --label "pool of 8 ${rtt}ms" >>"$OUT/results.jsonl"
    done
  done
  ctl proxy stop --name "${NAME}_$i" >/dev/null
done
echo "load average after: $(load)" | tee -a "$OUT/load.txt"

python3 - "$OUT" "$REPS" <<'PY'
import json, statistics, sys
out, reps = sys.argv[1], sys.argv[2]
ms, first, trips = {}, {}, {}
pools = {}
for line in open(f"{out}/results.jsonl"):
    r = json.loads(line)
    key = (r["label"], r["client"])
    if r.get("mode") == "pool":
        pools.setdefault(key, []).append(r["ms"])
        continue
    if r["rep"] == 0:
        first[key] = r["ms"]
    ms.setdefault(key, []).append(r["ms"])
for line in open(f"{out}/flights.txt"):
    label, client, counts = line.rstrip("\n").split("|")
    trips[(label, client)] = sorted({int(n) for n in counts.split()})
rows = ["| case | round trip | official: round trips | official: ms (first) | ours: round trips | ours: ms (first) | ours / official |",
        "|---|---|---|---|---|---|---|"]
labels = sorted({k[0] for k in ms}, key=lambda l: (float(l.split()[-1][:-2]), l))
for label in labels:
    case, rtt = label.rsplit(" ", 1)
    o, p = (label, "mysqlx"), (label, "connector-cpp-8.3")
    mo, mp = statistics.median(ms[o]), statistics.median(ms[p])
    t = lambda k: "/".join(str(n) for n in trips.get(k, [])) or "?"
    rows.append(f"| {case} | {rtt} | {t(p)} | {mp:.1f} ({first[p]:.1f}) | {t(o)} | "
                f"{mo:.1f} ({first[o]:.1f}) | {mo / mp:.2f}x |")
for label in sorted({k[0] for k in pools}, key=lambda l: float(l.split()[-1][:-2])):
    o, p = statistics.median(pools[(label, "mysqlx")]), statistics.median(pools[(label, "connector-cpp-8.3")])
    rows.append(f"| {label} (all usable) | | | {p:.1f} | | {o:.1f} | {o / p:.2f}x |")
with open(f"{out}/table.md", "w") as f:
    f.write("\n".join(rows) + "\n\n")
    f.write(f"Milliseconds from the Session constructor to the first row of SELECT 1 (median of "
            f"{reps} connects in one process; the first connect in parentheses). Round trips: "
            "the client's flights to the first row, counted by xdelay; the TCP handshake is "
            "not delayed by xdelay and not counted.\n")
print(open(f"{out}/table.md").read())
PY
echo "wrote $OUT/results.jsonl, $OUT/flights.txt, $OUT/table.md"
