#!/usr/bin/env python3
"""Times kernels under Triton and under two tri binaries, in one run: the
check that a change to tri's code generation is faster where it should be
and no slower elsewhere, next to the Triton anchor.

  ab.py [--base BIN] [--new BIN] CASE...   (cases: see cases.py)

Each round runs Triton's launch through triton.testing.do_bench and each
binary's `tri bench` of the same source and launch; 3 rounds, medians
reported, with the ratio Triton ms / tri ms (above 1: tri is faster).
--base defaults to bin/tri-base, --new to bin/tri.
"""
import os, sys, statistics, subprocess, tempfile
import torch, triton
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as prof
ROOT = prof.ROOT

def tri_ms(binary, path, launch, lets):
    cmd = [binary, "bench", path, launch] + [x for l in lets for x in ("--let", l)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return float("nan"), p.stderr[-300:]
    return float(p.stdout.strip().splitlines()[-1].split()[-4 if "--bytes" in cmd or "--flops" in cmd else -3]), ""

def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=os.path.join(ROOT, "bin/tri-base"))
    ap.add_argument("--new", default=os.path.join(ROOT, "bin/tri"))
    ap.add_argument("cases", nargs="+")
    args = ap.parse_args()
    rows = []
    for name in args.cases:
        tmp = tempfile.mkdtemp()
        fn, path, launch, lets = prof.case(name, tmp)
        variants = [("base", args.base, path), ("new", args.new, path)]
        fn(); torch.cuda.synchronize()
        t, r = [], {v[0]: [] for v in variants}
        err = {}
        for _ in range(3):
            t.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
            for label, b, pth in variants:
                ms, e = tri_ms(b, pth, launch, lets)
                r[label].append(ms)
                if e: err[label] = e
        tm = statistics.median(t)
        row = [name, tm] + [(label, statistics.median(r[label])) for label, _, _ in variants]
        rows.append(row)
        print(name, "triton", t, {k: v for k, v in r.items()}, err, flush=True)
    print()
    for row in rows:
        name, tm = row[0], row[1]
        print(f"{name:12} triton {tm:8.4f} ms  " + "  ".join(f"{l} {m:8.4f} ({tm / m:5.3f})" for l, m in row[2:]))

if __name__ == "__main__":
    main()
