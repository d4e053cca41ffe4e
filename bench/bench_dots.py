#!/usr/bin/env python3
"""Time tri against real Triton on dots outside the software pipelines.

Each workload runs the same kernel source under Triton and under tri with
the same launch (blocks, warps, stages), alternating for --rounds rounds;
medians are reported in TFLOP/s with the ratio tri/Triton, and the largest
difference of tri's output from Triton's.

- dot_alone: bench/dots/dot_alone.tri, one [64, 128] x [128, 64] dot per
  program and no loop, 256 x 64 programs (M = 16384, N = 4096).
- matmul s1 / s3: samples/matmul_grouped.tri, 128x128x64 blocks, 4 warps,
  at num_stages=1 (no software pipelining) and num_stages=3, 4096^3 fp16.

Usage: bench_dots.py --tri bin/tri [--rounds 3] [--only NAME,...] [--arch sm_80]
"""
import argparse
import os
import statistics
import subprocess

import torch
import triton

from bench_1d import load

HERE = os.path.dirname(os.path.abspath(__file__))


def tri_time(args, path, launch, lets, flops):
    """Runs `tri bench` on path and returns its median ms."""
    cmd = [args.tri, "bench", path, launch, "--flops", str(flops)]
    if args.arch:
        cmd += ["--arch", args.arch]
    for l in lets:
        cmd += ["--let", l]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    return float(p.stdout.strip().splitlines()[-1].split()[-4])


def tri_output(args, path, launch, lets, name):
    """Runs the launch once under tri and returns output name as a tensor."""
    import numpy as np
    import tempfile
    out = tempfile.mkdtemp()
    cmd = [args.tri, "run", path, launch, "--save", f"{name}={out}/{name}.npy"]
    if args.arch:
        cmd += ["--arch", args.arch]
    for l in lets:
        cmd += ["--let", l]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    return torch.from_numpy(np.load(f"{out}/{name}.npy"))


def load_path(path):
    import importlib.util
    import shutil
    import tempfile
    dst = os.path.join(tempfile.mkdtemp(), os.path.basename(path).replace(".tri", ".py"))
    shutil.copy(path, dst)
    spec = importlib.util.spec_from_file_location(os.path.basename(dst)[:-3], dst)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def workloads():
    path = os.path.join(HERE, "dots", "dot_alone.tri")
    mod = load_path(path)
    m, n, k = 16384, 4096, 128
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(n, k, device="cuda", dtype=torch.float16)
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    fn = lambda: mod.dot_alone_kernel[(m // 64, n // 64)](a, b, c, m, n, K=k, BM=64, BN=64)
    yield ("dot_alone 16384x4096x128", path, fn, c,
           "dot_alone_kernel[(M // 64, N // 64)](a, b, c, M, N, K=128, BM=64, BN=64)",
           [f"M={m}", f"N={n}", "c=empty(M, N, dtype='float16')"], (a, b), 2 * m * n * k)
    grouped = load("matmul_grouped")
    s = 4096
    for ns in (1, 3):
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        c = torch.empty(s, s, device="cuda", dtype=torch.float16)
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        fn = (lambda ns=ns, a=a, b=b, c=c, strides=strides: grouped.grouped_matmul_k[(triton.cdiv(s, 128), triton.cdiv(s, 128))](
            a, b, c, s, s, s, *strides, bm=128, bn=128, bk=64, group_sz=8, num_warps=4, num_stages=ns))
        launch = ("grouped_matmul_k[(triton.cdiv(m, 128), triton.cdiv(n, 128))](a, b, c, m, n, k, a.stride(0), a.stride(1), "
                  f"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=128, bn=128, bk=64, group_sz=8, num_warps=4, num_stages={ns})")
        yield (f"matmul {s}^3 128x128x64 w4 s{ns}", os.path.join(HERE, "..", "samples", "matmul_grouped.tri"), fn, c,
               launch, [f"m={s}", f"n={s}", f"k={s}", "c=empty(m, n, dtype='float16')"], (a, b), 2 * s ** 3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--arch", default="", help="tri's --arch (Triton always compiles for the device)")
    args = ap.parse_args()
    rows = []
    for name, path, fn, out, launch, lets, inputs, flops in workloads():
        if args.only and not any(o in name for o in args.only.split(",")):
            continue
        # tri reads the same inputs as Triton: saved as .npy files.
        import numpy as np
        import tempfile
        d = tempfile.mkdtemp()
        for nm, t in zip(("a", "b"), inputs):
            np.save(f"{d}/{nm}.npy", t.cpu().numpy())
            lets.append(f"{nm}=load('{d}/{nm}.npy')")
        t_ms, r_ms = [], []
        for _ in range(args.rounds):
            t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
            r_ms.append(tri_time(args, path, launch, lets, flops))
        fn()
        torch.cuda.synchronize()
        cname = "c"
        diff = (tri_output(args, path, launch, lets, cname).cuda().float() - out.float()).abs().max().item()
        ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
        rows.append((name, flops / (ms * 1e9), flops / (tri_ms * 1e9), diff))
        print(f"{name:32} triton {t_ms} tri {r_ms}", flush=True)
    print(f"{'workload':32} {'Triton TFLOP/s':>15} {'tri TFLOP/s':>12} {'tri/Triton':>10} {'max |diff|':>10}")
    for name, t, r, d in rows:
        print(f"{name:32} {t:15.2f} {r:12.2f} {r / t:10.3f} {d:10.3g}")


if __name__ == "__main__":
    main()
