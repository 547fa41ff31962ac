# Sourced by the benchmarks' run.sh that put xdelays in front of one
# xserverd (test/bench/async, test/bench/connect). Expects ROOT, BUILD, NAME
# and DELAYS (one-way delays; proxy i is "${NAME}_$i"). Defines ctl (xserverctl
# on this build) and stops the server and its proxies on exit or a signal.
ctl() { MYSQLX_BUILD_DIR=$BUILD "$ROOT/test/xserver/xserverctl" "$@"; }
bench_cleanup() {
  for i in "${!DELAYS[@]}"; do ctl proxy stop --name "${NAME}_$i" >/dev/null 2>&1 || true; done
  ctl stop --name "$NAME" >/dev/null 2>&1 || true
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM
load() { cut -d' ' -f1-3 /proc/loadavg; }
