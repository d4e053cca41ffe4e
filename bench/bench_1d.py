#!/usr/bin/env python3
"""Time tri against real Triton on the one-dimensional samples, in one run.

For each workload the same kernel source (a file in samples/) runs under
Triton (triton.testing.do_bench, median, L2 cleared before each rep) and under
tri (`tri bench`, which times the same way), on the same GPU, back to back.
Prints GB/s for both and tri's ratio, plus the host cost of launching a cached
kernel from each (10,000 back-to-back launches of a one-program kernel).

Each workload alternates Triton and tri for --rounds rounds and reports the
median of each.

Usage: bench_1d.py --tri bin/tri [--launchcost bin/launchcost] [--rounds N]
"""
import argparse
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "samples")


def load(name):
    tmp = tempfile.mkdtemp()
    dst = os.path.join(tmp, name + ".py")
    shutil.copy(os.path.join(SAMPLES, name + ".tri"), dst)
    spec = importlib.util.spec_from_file_location(name, dst)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tri_bench(tri, sample, launch, lets, nbytes, arch=None):
    cmd = [tri, "bench", os.path.join(SAMPLES, sample + ".tri"), launch, "--bytes", str(nbytes)]
    if arch:
        cmd += ["--arch", arch]  # an older target's code runs through the driver's PTX JIT
    for l in lets:
        cmd += ["--let", l]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    row = p.stdout.strip().splitlines()[-1].split()
    return float(row[-1]), float(row[-4])  # GB/s, median ms


def workloads():
    add = load("add")
    fused = load("fused_fp16")
    for n in (1 << 20, 1 << 24, 1 << 27):
        x = torch.rand(n, device="cuda")
        y = torch.rand(n, device="cuda")
        out = torch.empty(n, device="cuda")
        fn = lambda: add.add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
        yield (f"vector add f32 n=2^{n.bit_length() - 1}", fn, 3 * n * 4, "add",
               "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)",
               [f"n={n}", "x=rand(n)", "y=rand(n)", "output=empty(n)"])
    for n in (1 << 26,):
        x = torch.randn(n, device="cuda", dtype=torch.float16)
        y = torch.randn(n, device="cuda", dtype=torch.float16)
        out = torch.empty(n, device="cuda", dtype=torch.float16)
        B = 2048
        fn = lambda: fused.silu_mul_kernel[(triton.cdiv(n, B),)](x, y, out, n, 0.5, BLOCK=B)
        yield (f"fused silu*y+b f16 n=2^{n.bit_length() - 1}", fn, 3 * n * 2, "fused_fp16",
               "silu_mul_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, 0.5, BLOCK=BLOCK)",
               [f"n={n}", "BLOCK=2048", "x=randn(n, dtype='float16')", "y=randn(n, dtype='float16')",
                "out=empty(n, dtype='float16')"])


def triton_launch_cost():
    add = load("add")
    x = torch.rand(1024, device="cuda")
    y = torch.rand(1024, device="cuda")
    out = torch.empty(1024, device="cuda")
    k = lambda: add.add_kernel[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
    for _ in range(100):
        k()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(10000):
        k()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / 10000 * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--launchcost", default=None, help="tri's Go launch-cost program")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per workload")
    args = ap.parse_args()
    rows = []
    for name, fn, nbytes, sample, launch, lets in workloads():
        # Alternate the two a few times and keep each one's median, so a
        # passing disturbance of the GPU does not decide the ratio.
        t_ms, r_ms = [], []
        for _ in range(args.rounds):
            t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
            r_ms.append(tri_bench(args.tri, sample, launch, lets, nbytes)[1])
        ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
        t_gbs, tri_gbs = nbytes / (ms * 1e6), nbytes / (tri_ms * 1e6)
        rows.append((name, t_gbs, tri_gbs, tri_gbs / t_gbs))
        print(f"{name:32} triton {t_gbs:8.1f} GB/s ({ms:.4f} ms, rounds {t_ms})  tri {tri_gbs:8.1f} GB/s ({tri_ms:.4f} ms, rounds {r_ms})", flush=True)
    tl_cost = triton_launch_cost()
    tri_cost = None
    if args.launchcost:
        p = subprocess.run([args.launchcost], capture_output=True, text=True)
        m = re.search(r"([\d.]+) us per launch", p.stdout)
        if m:
            tri_cost = float(m.group(1))
        else:
            print(p.stdout, p.stderr)
    print()
    print(f"{'workload':32} {'Triton GB/s':>12} {'tri GB/s':>10} {'tri/Triton':>10}")
    for name, a, b, r in rows:
        print(f"{name:32} {a:12.1f} {b:10.1f} {r:10.3f}")
    print(f"{'launch cost (us/launch)':32} {tl_cost:12.2f} {tri_cost if tri_cost else float('nan'):10.2f}")


if __name__ == "__main__":
    main()
