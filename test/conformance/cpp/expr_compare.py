#!/usr/bin/env python3
"""Holds expr_probe's outputs for our library and the official one to the
list of expressions (expressions.txt; README one level up).

usage: expr_compare.py <expressions.txt> <probe built on ours> <probe built on the official>

Each probe runs against the server in MYSQLX_TEST_URI_80 / MYSQLX_TEST_CA_80,
in a schema of its own. A line without an expected value must be accepted by
the official library and give exactly the same on ours; a line with
`=expected` must give that on ours (the official result is printed beside it,
not checked). Exits 1 on any difference, printing each."""
import os
import subprocess
import sys


def run(probe, listing, schema):
    out = subprocess.run([probe, listing, schema], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        sys.exit(f"{probe} failed ({out.returncode}): {out.stderr.strip()}")
    results = {}
    for line in out.stdout.splitlines():
        num, status, text = line.split("\t", 2)
        results[int(num)] = (status, text)
    return results


def main():
    listing, ours_probe, official_probe = sys.argv[1:4]
    tag = str(os.getpid())
    ours = run(ours_probe, listing, "expr_probe_ours_" + tag)
    official = run(official_probe, listing, "expr_probe_official_" + tag)
    failures = 0
    checked = 0
    with open(listing, encoding="utf-8") as f:
        for num, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            mode, expr = parts[0], parts[1]
            expected = parts[2][1:] if len(parts) > 2 else None
            got = ours.get(num)
            theirs = official.get(num)
            checked += 1
            if expected is not None:
                ok = got == ("OK", expected)
                want = f"OK {expected} (official: {' '.join(theirs or ('none',))})"
            elif theirs is None or theirs[0] != "OK":
                ok = False
                want = (f"the official library to accept it (it gave {' '.join(theirs or ('none',))});"
                        " give the expected value of MySQL instead")
            else:
                ok = got == theirs
                want = "OK " + theirs[1]
            status = "ok  " if ok else "FAIL"
            print(f"{status} {num}: {mode} {expr}: ours {' '.join(got or ('none',))}"
                  + ("" if ok else f"; expected {want}"))
            failures += not ok
    print(f"{checked} expressions, {failures} differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
