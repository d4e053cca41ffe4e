#!/usr/bin/env python3
"""Time tri against real Triton on the naive matmul sample, in one run.

samples/matmul_naive.tri (fp16 in, fp32 accumulate, fp16 out) at square sizes
with the same block size and launch settings for both; Triton through
triton.testing.do_bench, tri through `tri bench --flops`, alternating for
--rounds rounds; medians are reported in TFLOP/s.

Usage: bench_matmul.py --tri bin/tri [--sizes 1024,2048] [--bs 32] [--rounds N]
"""
import argparse
import statistics

import torch
import triton

from bench_1d import load, tri_bench


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--sizes", default="1024,2048")
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    mod = load("matmul_naive")
    rows = []
    for s in (int(v) for v in args.sizes.split(",")):
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        c = torch.empty(s, s, device="cuda", dtype=torch.float16)
        bs = args.bs
        fn = lambda: mod.naive_matmul_k[(triton.cdiv(s, bs), triton.cdiv(s, bs))](
            a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            bm=bs, bn=bs, bk=bs)
        launch = ("naive_matmul_k[(triton.cdiv(m, bs), triton.cdiv(n, bs))](a, b, c, m, n, k, a.stride(0), a.stride(1), "
                  "b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm=bs, bn=bs, bk=bs)")
        lets = [f"m={s}", f"n={s}", f"k={s}", f"bs={bs}", "a=randn(m, k, dtype='float16')",
                "b=randn(k, n, dtype='float16')", "c=empty(m, n, dtype='float16')"]
        flops = 2 * s ** 3
        t_ms, r_ms = [], []
        for _ in range(args.rounds):
            t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
            r_ms.append(tri_bench(args.tri, "matmul_naive", launch, lets, flops)[1])
        ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
        rows.append((f"naive matmul f16 {s}^3 bs={bs}", flops / (ms * 1e9), flops / (tri_ms * 1e9)))
    print(f"{'workload':32} {'Triton TFLOP/s':>15} {'tri TFLOP/s':>12} {'tri/Triton':>10}")
    for name, t, r in rows:
        print(f"{name:32} {t:15.2f} {r:12.2f} {r / t:10.3f}")


if __name__ == "__main__":
    main()
