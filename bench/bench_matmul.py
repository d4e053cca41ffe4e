#!/usr/bin/env python3
"""Time tri against real Triton on the matmul samples, in one run.

samples/matmul_naive.tri (square blocks of --bs) and samples/matmul_grouped.tri
(--bm x --bn x --bk blocks, --warps warps, swizzle2d groups of 8), both fp16
in, fp32 accumulate, fp16 out, at square sizes, with the same block sizes and
launch settings for both; Triton through triton.testing.do_bench, tri through
`tri bench --flops`, alternating for --rounds rounds; medians are reported in
TFLOP/s.

With --fp8, samples/matmul_fp8.tri instead (tutorial 03 on fp8 e4m3 inputs,
b column-major, fp32 accumulate, fp16 out) with --fp8-config
BM,BN,BK,WARPS,STAGES (default the tutorial's first fp8 config,
128,256,128,8,3) for both.

With --arch sm_80 (any target tri takes), tri's kernels are built for that
target, not the GPU's: sm_80 code runs on a newer GPU through the driver's
PTX JIT (Triton's still compiles for the GPU it runs on).

Usage: bench_matmul.py --tri bin/tri [--sizes 1024,2048] [--bs 64]
       [--bm 128 --bn 128 --bk 32 --warps 4 --stages 3] [--grouped-only] [--rounds N]
       [--arch sm_80]
       bench_matmul.py --tri bin/tri --fp8 [--fp8-config 128,256,128,8,3] [--sizes 4096]
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
    ap.add_argument("--arch", default=None, help="target tri builds for (default: the GPU's)")
    ap.add_argument("--fp8", action="store_true", help="benchmark samples/matmul_fp8.tri only")
    ap.add_argument("--fp8-config", default="128,256,128,8,3", help="BM,BN,BK,WARPS,STAGES for --fp8")
    args = ap.parse_args()
    rows = []
    if args.fp8:
        fp8_rows(args, rows)
        report(rows)
        return
    naive, grouped = load("matmul_naive"), load("matmul_grouped")
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
        for name, sample, fn, launch in runs:
            time_both(args, rows, name, sample, fn, launch, lets, 2 * s ** 3)
    report(rows)


def time_both(args, rows, name, sample, fn, launch, lets, flops):
    """Times fn under Triton and launch under tri, alternating, and adds a row."""
    if args.arch:
        name += f" tri@{args.arch}"
    t_ms, r_ms = [], []
    for _ in range(args.rounds):
        t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
        r_ms.append(tri_bench(args.tri, sample, launch, lets, flops, args.arch)[1])
    ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
    rows.append((name, flops / (ms * 1e9), flops / (tri_ms * 1e9)))
    print(f"{name:36} triton {t_ms} tri {r_ms}", flush=True)


def fp8_rows(args, rows):
    """samples/matmul_fp8.tri at each size, the same config for both."""
    mod = load("matmul_fp8")
    bm, bn, bk, nw, ns = (int(v) for v in args.fp8_config.split(","))
    for s in (int(v) for v in args.sizes.split(",")):
        a = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)
        bt = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)  # b = bt.T, column-major
        c = torch.empty(s, s, device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(s, bm) * triton.cdiv(s, bn),)
        fn = lambda: mod.matmul_fp8_kernel[grid](
            a, bt, c, s, s, s, a.stride(0), a.stride(1), bt.stride(1), bt.stride(0), c.stride(0), c.stride(1),
            BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, num_warps=nw, num_stages=ns)
        lets = [f"M={s}", f"N={s}", f"K={s}", "a=randn(M, K, dtype='float8e4nv')",
                "bt=randn(N, K, dtype='float8e4nv')", "c=empty(M, N, dtype='float16')"]
        launch = (f"matmul_fp8_kernel[(triton.cdiv(M, {bm}) * triton.cdiv(N, {bn}),)](a, bt, c, M, N, K, "
                  f"a.stride(0), a.stride(1), bt.stride(1), bt.stride(0), c.stride(0), c.stride(1), "
                  f"BLOCK_SIZE_M={bm}, BLOCK_SIZE_N={bn}, BLOCK_SIZE_K={bk}, GROUP_SIZE_M=8, num_warps={nw}, num_stages={ns})")
        time_both(args, rows, f"fp8 e4m3 {s}^3 {bm}x{bn}x{bk} w{nw} s{ns}", "matmul_fp8", fn, launch, lets, 2 * s ** 3)


def report(rows):
    print(f"{'workload':36} {'Triton TFLOP/s':>15} {'tri TFLOP/s':>12} {'tri/Triton':>10}")
    for name, t, r in rows:
        print(f"{name:36} {t:15.2f} {r:12.2f} {r / t:10.3f}")


if __name__ == "__main__":
    main()
