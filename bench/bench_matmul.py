#!/usr/bin/env python3
"""Time tri against real Triton on the matmul samples, in one run.

samples/matmul_naive.tri (square blocks of --bs) and samples/matmul_grouped.tri
(--bm x --bn x --bk blocks, --warps warps, swizzle2d groups of 8), both fp16
in, fp32 accumulate, fp16 out, at square sizes, with the same block sizes and
launch settings for both; Triton through triton.testing.do_bench, tri through
`tri bench --flops`, alternating for --rounds rounds; medians are reported in
TFLOP/s.

Usage: bench_matmul.py --tri bin/tri [--sizes 1024,2048] [--bs 64]
       [--bm 128 --bn 128 --bk 32 --warps 4 --stages 3] [--grouped-only] [--rounds N]
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
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--bm", type=int, default=128)
    ap.add_argument("--bn", type=int, default=128)
    ap.add_argument("--bk", type=int, default=32)
    ap.add_argument("--warps", type=int, default=4)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--grouped-only", action="store_true")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    naive, grouped = load("matmul_naive"), load("matmul_grouped")
    rows = []
    for s in (int(v) for v in args.sizes.split(",")):
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        c = torch.empty(s, s, device="cuda", dtype=torch.float16)
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        bs, bm, bn, bk, nw, ns = args.bs, args.bm, args.bn, args.bk, args.warps, args.stages
        lets = [f"m={s}", f"n={s}", f"k={s}", "a=randn(m, k, dtype='float16')",
                "b=randn(k, n, dtype='float16')", "c=empty(m, n, dtype='float16')"]
        runs = [
            (f"naive f16 {s}^3 {bs}x{bs}x{bs} w4", "matmul_naive",
             lambda: naive.naive_matmul_k[(triton.cdiv(s, bs), triton.cdiv(s, bs))](
                 a, b, c, s, s, s, *strides, bm=bs, bn=bs, bk=bs),
             f"naive_matmul_k[(triton.cdiv(m, {bs}), triton.cdiv(n, {bs}))](a, b, c, m, n, k, a.stride(0), a.stride(1), "
             f"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm={bs}, bn={bs}, bk={bs})"),
            (f"grouped f16 {s}^3 {bm}x{bn}x{bk} w{nw} s{ns}", "matmul_grouped",
             lambda: grouped.grouped_matmul_k[(triton.cdiv(s, bm), triton.cdiv(s, bn))](
                 a, b, c, s, s, s, *strides, bm=bm, bn=bn, bk=bk, group_sz=8, num_warps=nw, num_stages=ns),
             f"grouped_matmul_k[(triton.cdiv(m, {bm}), triton.cdiv(n, {bn}))](a, b, c, m, n, k, a.stride(0), a.stride(1), "
             f"b.stride(0), b.stride(1), c.stride(0), c.stride(1), bm={bm}, bn={bn}, bk={bk}, group_sz=8, num_warps={nw}, num_stages={ns})"),
        ]
        if args.grouped_only:
            runs = runs[1:]
        flops = 2 * s ** 3
        for name, sample, fn, launch in runs:
            t_ms, r_ms = [], []
            for _ in range(args.rounds):
                t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
                r_ms.append(tri_bench(args.tri, sample, launch, lets, flops)[1])
            ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
            rows.append((name, flops / (ms * 1e9), flops / (tri_ms * 1e9)))
            print(f"{name:36} triton {t_ms} tri {r_ms}", flush=True)
    print(f"{'workload':36} {'Triton TFLOP/s':>15} {'tri TFLOP/s':>12} {'tri/Triton':>10}")
    for name, t, r in rows:
        print(f"{name:36} {t:15.2f} {r:12.2f} {r / t:10.3f}")


if __name__ == "__main__":
    main()
