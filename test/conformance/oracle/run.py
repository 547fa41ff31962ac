#!/usr/bin/env python3
"""Runs Oracle's X DevAPI tests and holds their outcomes to a written list.

  run.py <test binary> <expected file> [--timeout S] [--srv-port PORT]

The environment carries XPLUGIN_PORT, XPLUGIN_HOST, ... as the tests read it.
Each test passes, fails, or skips (it prints "SKIPPED:" and returns, which
GoogleTest counts as a pass, so it is counted apart here). The expected file
lists, one per line, `Suite.test  fail|skip  cause`; every test not listed
must pass. The run fails when a test does what the list does not say:
a failure or a skip not listed, and equally a listed test that now passes, so
the list (and test/conformance/README.md, which explains it) stays true.
Prints the counts last.

--srv-port PORT runs the dns_srv tests in their working mode: MYSQLX_SRV
names an SRV record that a DNS stub (dns_stub.py, in a thread here) points at
localhost:PORT, and the program runs under `unshare --mount` with the stub's
resolv.conf bound over /etc/resolv.conf in that private mount namespace only
(the machine's file is never touched). The stub listens on UDP 53 of a
127.53.x.y address of its own, so concurrent runs never share one. That
needs root and unshare(1): without them the tests run without MYSQLX_SRV,
and a run whose only difference from the list is a dns_srv that skipped
exits 77 (ctest's SKIP_RETURN_CODE), never 0. A dns_srv that passes without
asking the stub for the SRV name fails the run.
"""
import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import dns_stub  # noqa: E402

SRV_NAME = "_mysqlx._tcp.oracle.mysqlx.test"  # .test: reserved by RFC 2606

# Runs inside the new mount namespace (unshare's default propagation is
# private, so these mounts stay there): the stub's resolv.conf over
# /etc/resolv.conf (mount follows a symlink to its target), or, when there is
# none (or a dangling link, which must not be written through), over a
# private copy of /etc; then checks the resolver will read it and runs the
# program.
NAMESPACE_SCRIPT = r"""
conf=$1 tmp=$2 ns=$3; shift 3
if [ -e /etc/resolv.conf ]; then
  mount --bind "$conf" /etc/resolv.conf
else
  cp -a /etc "$tmp/etc" && rm -f "$tmp/etc/resolv.conf" &&
    cp "$conf" "$tmp/etc/resolv.conf" && mount --bind "$tmp/etc" /etc
fi
grep -qx "nameserver $ns" /etc/resolv.conf ||
  { echo "run.py: could not put the DNS stub's resolv.conf in place" >&2; exit 125; }
exec "$@"
"""


def read_expected(path):
    expected = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in ("fail", "skip"):
                sys.exit("%s:%d: expected 'Suite.test fail|skip cause'" % (path, number))
            expected[parts[0]] = parts[1]
    return expected


def skipped_tests(console):
    """The tests that printed SKIPPED: between their RUN and OK lines."""
    skipped, current = set(), None
    for line in console.splitlines():
        m = re.match(r"\[ RUN      \] (\S+)", line)
        if m:
            current = m.group(1)
        elif line.startswith("SKIPPED:") and current:
            skipped.add(current)
        elif re.match(r"\[ {7}(OK|FAILED) \]", line):
            current = None
    return skipped


def srv_unavailable():
    """Why the dns_srv working mode cannot run here, or None."""
    if os.geteuid() != 0:
        return "not root (a DNS server on port 53 and a private mount of resolv.conf need it)"
    if not shutil.which("unshare"):
        return "no unshare(1) (util-linux)"
    probe = subprocess.run(["unshare", "--mount", "true"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    if probe.returncode != 0:
        return "unshare --mount fails: " + probe.stderr.strip()
    return None


def stub_addresses():
    """127.53.x.y candidates, starting at one drawn from our pid: each run its own."""
    start = os.getpid() % (256 * 254)
    for i in range(512):
        n = (start + i) % (256 * 254)
        yield "127.53.%d.%d" % (n // 254, n % 254 + 1)


@contextlib.contextmanager
def dns_srv_setup(xport, tmp):
    """(command prefix, environment, stub) for a program run with MYSQLX_SRV working."""
    sock = dns_stub.bind_udp(stub_addresses(), 53)
    address = sock.getsockname()[0]
    stub = dns_stub.Server(dns_stub.Zone(SRV_NAME, xport), sock)
    try:
        conf = os.path.join(tmp, "resolv.conf")
        with open(conf, "w", encoding="ascii") as f:
            f.write("nameserver %s\noptions timeout:2 attempts:2\n" % address)
        env = dict(os.environ, MYSQLX_SRV=SRV_NAME)
        for var in ("LOCALDOMAIN", "RES_OPTIONS", "HOSTALIASES"):  # resolver overrides
            env.pop(var, None)
        print("dns_srv: MYSQLX_SRV=%s, DNS stub on %s:53 -> localhost:%d" %
              (SRV_NAME, address, xport))
        yield ["unshare", "--mount", "--", "sh", "-c", NAMESPACE_SCRIPT, "sh", conf, tmp,
               address], env, stub
    finally:
        stub.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("expected")
    ap.add_argument("--timeout", type=int, default=1200)
    ap.add_argument("--srv-port", type=int, help="run dns_srv with an SRV record to this port")
    args = ap.parse_args()
    expected = read_expected(args.expected)
    no_srv = srv_unavailable() if args.srv_port else None
    if no_srv:
        print("dns_srv: cannot run its working mode: " + no_srv)
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        prefix, env, stub = [], None, None
        if args.srv_port and not no_srv:
            prefix, env, stub = stack.enter_context(dns_srv_setup(args.srv_port, tmp))
        report = os.path.join(tmp, "report.json")
        try:
            proc = subprocess.run(prefix + [args.binary, "--gtest_output=json:" + report],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  errors="replace", timeout=args.timeout, env=env)
        except subprocess.TimeoutExpired as e:
            sys.stdout.write((e.stdout or b"").decode("utf-8", "replace")[-20000:])
            sys.exit("run.py: the tests hung (over %d s)" % args.timeout)
        console = proc.stdout
        if not os.path.exists(report):
            sys.stdout.write(console[-20000:])
            sys.exit("run.py: the test program ended without a report (exit %d)" % proc.returncode)
        with open(report, encoding="utf-8") as f:
            results = json.load(f)
        srv_queries = stub.count(SRV_NAME, dns_stub.TYPE_SRV) if stub else 0
        if stub:
            print("dns_srv: the stub was asked for %s" % ", ".join(
                "%s %s x%d" % (name, {1: "A", 28: "AAAA", 33: "SRV"}.get(t, t), n)
                for (name, t), n in sorted(stub.questions().items())))
    skipped = skipped_tests(console)
    outcome = {}
    for suite in results["testsuites"]:
        for test in suite["testsuite"]:
            name = suite["name"] + "." + test["name"]
            if test.get("failures"):
                outcome[name] = "fail"
            elif name in skipped:
                outcome[name] = "skip"
            else:
                outcome[name] = "pass"
    surprises, srv_skipped = [], []
    for name, got in sorted(outcome.items()):
        want = expected.get(name, "pass")
        is_srv = name.endswith(".dns_srv")
        if is_srv and no_srv and got == "skip" and want == "pass":
            srv_skipped.append(name)
        elif got != want:
            surprises.append("%s: %s, but the list says %s" % (name, got, want))
        elif is_srv and got == "pass" and stub and srv_queries == 0:
            surprises.append("%s: passed, but no SRV query for %s reached the DNS stub" %
                             (name, SRV_NAME))
    for name in sorted(set(expected) - set(outcome)):
        surprises.append("%s: listed, but no such test ran" % name)
    for name, got in sorted(outcome.items()):
        if got != "pass":
            note = "" if expected.get(name) == got else "  (NOT LISTED)"
            if name in srv_skipped:
                note = "  (its working mode cannot run here)"
            print("%-40s %s%s" % (name, got, note))
    if surprises:
        print(console[-20000:])
        print("Outcomes the list does not say (update the list and test/conformance/README.md):")
        for s in surprises:
            print("  " + s)
    counts = {k: sum(1 for v in outcome.values() if v == k) for k in ("pass", "fail", "skip")}
    total = len(outcome)
    print("Oracle's tests: %d of %d pass (%.0f%%); %d fail, %d skip" %
          (counts["pass"], total, 100.0 * counts["pass"] / max(total, 1), counts["fail"],
           counts["skip"]))
    if surprises:
        sys.exit(1)
    if srv_skipped:
        print("SKIPPED: %s in its working mode: %s" % (", ".join(srv_skipped), no_srv))
        sys.exit(77)


if __name__ == "__main__":
    main()
