#!/usr/bin/env python3
"""Pick a spread of pytest test ids to record within a time box.

    python3 select_tests.py --per-function 2 [--exclude REGEX] FILE... > ids.txt

collects the tests of the files (`pytest --collect-only -q`) and prints at
most --per-function parametrizations of each test function, spread over its
parameter list, in rounds: the first pick of every function, then the
second, and so on. pytest runs node ids in the order given, so a recording
cut short by its time limit still covers every test function it reached in
the first round.
"""
import argparse
import collections
import re
import subprocess
import sys


def spread(items, k):
    """k items of a list, evenly spaced, the first included."""
    if len(items) <= k:
        return list(items)
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


def rounds(ids, per_function, exclude=None):
    """The ids to run, round by round over the test functions."""
    groups = collections.OrderedDict()
    for i in ids:
        if exclude and re.search(exclude, i):
            continue
        groups.setdefault(i.split("[", 1)[0], []).append(i)
    picks = [spread(v, per_function) for v in groups.values()]
    out = []
    for r in range(per_function):
        out += [p[r] for p in picks if r < len(p)]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-function", type=int, default=2)
    ap.add_argument("--exclude", default=None, help="a regular expression of ids to leave out")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                        "--continue-on-collection-errors", *args.files],
                       capture_output=True, text=True)
    ids = [l.strip() for l in p.stdout.splitlines() if "::" in l and not l.startswith(" ")]
    for l in p.stdout.splitlines():
        if l.startswith("ERROR"):
            print(l, file=sys.stderr)  # a file pytest could not collect
    if not ids:
        sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
        return 1
    for i in rounds(ids, args.per_function, args.exclude):
        print(i)
    print(f"select_tests.py: {len(ids)} tests collected", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
