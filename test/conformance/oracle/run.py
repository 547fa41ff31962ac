#!/usr/bin/env python3
"""Runs Oracle's X DevAPI tests and holds their outcomes to a written list.

  run.py <test binary> <expected file> [--timeout S]

The environment carries XPLUGIN_PORT, XPLUGIN_HOST, ... as the tests read it.
Each test passes, fails, or skips (it prints "SKIPPED:" and returns, which
GoogleTest counts as a pass, so it is counted apart here). The expected file
lists, one per line, `Suite.test  fail|skip  cause`; every test not listed
must pass. The run fails when a test does what the list does not say:
a failure or a skip not listed, and equally a listed test that now passes, so
the list (and test/conformance/README.md, which explains it) stays true.
Prints the counts last.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("expected")
    ap.add_argument("--timeout", type=int, default=1200)
    args = ap.parse_args()
    expected = read_expected(args.expected)
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        try:
            proc = subprocess.run([args.binary, "--gtest_output=json:" + report],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired as e:
            sys.stdout.write((e.stdout or b"").decode("utf-8", "replace")[-20000:])
            sys.exit("run.py: the tests hung (over %d s)" % args.timeout)
        console = proc.stdout
        if not os.path.exists(report):
            sys.stdout.write(console[-20000:])
            sys.exit("run.py: the test program ended without a report (exit %d)" % proc.returncode)
        with open(report, encoding="utf-8") as f:
            results = json.load(f)
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
    surprises = []
    for name, got in sorted(outcome.items()):
        want = expected.get(name, "pass")
        if got != want:
            surprises.append("%s: %s, but the list says %s" % (name, got, want))
    for name in sorted(set(expected) - set(outcome)):
        surprises.append("%s: listed, but no such test ran" % name)
    for name, got in sorted(outcome.items()):
        if got != "pass":
            print("%-40s %s%s" % (name, got, "" if expected.get(name) == got else "  (NOT LISTED)"))
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
    sys.exit(1 if surprises else 0)


if __name__ == "__main__":
    main()
