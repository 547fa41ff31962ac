#!/usr/bin/env python3
"""Ours against the official Connector/C++, side by side (issue 13).

Starts one xserverd (xserverctl, port 33185 or --port), runs
bench_devapi_server and bench_devapi_server_peer against it in turn
($MYSQLX_BENCH_URI) with the same benchmark filter, and prints each
benchmark's client CPU per document (cpu_per_doc) for both and the ratio
ours / official. With --rounds N the two builds take turns N times and the
median of each is shown, so a noisy neighbour hits both alike.

With --callgrind, each build also runs once under valgrind's callgrind,
counting only the measured loop (add_loop, find_field_loop: functions of
their own in the benchmark source), and the instructions per document of
both and their ratio are printed. Instructions do not depend on a noisy
neighbour; CPU time includes the kernel's share, which they leave out.

  test/bench/devapi_server/compare.py [--build build] [--filter BM_Tls] [--rounds 3] [--callgrind]

Both builds must exist: cmake --build build --target bench_devapi_server mysqlx_peer
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def run_bench(binary, uri, bench_filter):
    env = dict(os.environ, MYSQLX_BENCH_URI=uri)
    out = subprocess.run([binary, "--benchmark_filter=" + bench_filter, "--benchmark_format=json"],
                         env=env, check=True, stdout=subprocess.PIPE, text=True).stdout
    per_doc = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("error_occurred"):
            sys.exit("%s: %s: %s" % (os.path.basename(binary), b["name"], b.get("error_message")))
        if "cpu_per_doc" in b:
            name = b["name"].split("/iterations:")[0]  # BM_TlsAddOne/1
            per_doc[name] = (b["cpu_per_doc"] * 1e6, b.get("label", ""))  # seconds -> microseconds
    return per_doc


# The function that holds each benchmark's measured loop (devapi_server_bench.cc).
LOOPS = {"BM_TlsAddOne": "add_loop", "BM_TlsFetch": "find_field_loop", "BM_Add": "add_loop",
         "BM_AddDefaults": "add_loop", "BM_Find": "find_loop"}


def run_callgrind(binary, uri, bench):
    """Instructions per document of one benchmark's measured loop."""
    base = bench.split("/")[0]
    if base not in LOOPS:
        sys.exit("compare.py --callgrind: no measured loop known for %s" % bench)
    env = dict(os.environ, MYSQLX_BENCH_URI=uri, MYSQLX_BENCH_HANG_SECONDS="1800")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           "--toggle-collect=*%s*" % LOOPS[base], binary,
           "--benchmark_filter=^%s/" % re.escape(bench), "--benchmark_format=json"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("compare.py: callgrind of %s failed:\n%s" % (binary, p.stderr[-2000:]))
    collected = re.search(r"Collected : (\d+)", p.stderr)
    runs = [b for b in json.loads(p.stdout)["benchmarks"] if "docs" in b]
    if not collected or len(runs) != 1:
        sys.exit("compare.py: callgrind of %s: no count for %s" % (binary, bench))
    return int(collected.group(1)) / runs[0]["docs"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--filter", default="BM_Tls")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--port", type=int, default=33185)
    ap.add_argument("--callgrind", action="store_true",
                    help="also count instructions per document under callgrind")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    bench_dir = os.path.join(build, "test", "bench", "devapi_server")
    ours = os.path.join(bench_dir, "bench_devapi_server")
    peer = os.path.join(bench_dir, "bench_devapi_server_peer")
    for b in (ours, peer):
        if not os.access(b, os.X_OK):
            sys.exit("compare.py: %s is not built" % b)

    ctl = [os.path.join(ROOT, "test", "xserver", "xserverctl")]
    env = dict(os.environ, MYSQLX_BUILD_DIR=build)
    name = "bench_compare"
    start = ctl + ["start", "--fresh", "--name", name, "--port", str(args.port), "--emulate", "8.0",
                   "--xserverd", os.path.join(build, "test", "xserver", "xserverd")]
    uri = subprocess.run(start, env=env, check=True, stdout=subprocess.PIPE,
                         text=True).stdout.strip()
    results = {"ours": {}, "official": {}}
    labels = {}  # the TLS each benchmark's sessions negotiated, both builds
    instructions = {"ours": {}, "official": {}}
    try:
        for r in range(args.rounds):
            for who, binary in (("ours", ours), ("official", peer)):
                for bench, (us, label) in run_bench(binary, uri, args.filter).items():
                    results[who].setdefault(bench, []).append(us)
                    labels.setdefault(bench, set()).add(label)
                    print("round %d %-8s %-24s %10.3f us  %s" % (r + 1, who, bench, us, label),
                          file=sys.stderr)
        if args.callgrind:
            for bench in results["ours"]:
                if bench not in results["official"]:
                    continue
                for who, binary in (("ours", ours), ("official", peer)):
                    instructions[who][bench] = run_callgrind(binary, uri, bench)
                    print("callgrind %-8s %-24s %12.0f instructions per document" %
                          (who, bench, instructions[who][bench]), file=sys.stderr)
    finally:
        subprocess.run(ctl + ["stop", "--name", name], env=env, stdout=subprocess.DEVNULL)

    print("%-28s %12s %12s %7s" % ("client CPU per document", "ours us", "official us", "ratio"))
    for bench in results["ours"]:
        if bench not in results["official"]:
            continue
        if len(labels[bench]) > 1:
            sys.exit("compare.py: %s: the builds negotiated different TLS (%s): not comparable" %
                     (bench, ", ".join(sorted(labels[bench]))))
        o = statistics.median(results["ours"][bench])
        p = statistics.median(results["official"][bench])
        print("%-28s %12.3f %12.3f %7.2f  %s" % (bench, o, p, o / p, next(iter(labels[bench]))))
        if args.rounds > 1:
            # Each round's own ratio: the two builds ran back to back, so a
            # noisy spell hits both; their spread says how far to trust the
            # ratio of medians above.
            paired = sorted(a / b for a, b in zip(results["ours"][bench], results["official"][bench]))
            print("%-28s ratio per round: median %.2f, min %.2f, max %.2f" %
                  ("", statistics.median(paired), paired[0], paired[-1]))
    if args.callgrind:
        print("%-28s %12s %12s %7s" % ("instructions per document", "ours", "official", "ratio"))
        for bench, o in instructions["ours"].items():
            p = instructions["official"][bench]
            print("%-28s %12.0f %12.0f %7.2f" % (bench, o, p, o / p))


if __name__ == "__main__":
    main()
