#!/usr/bin/env python3
"""Time tri against real Triton on the row-wise samples, in one run.

Fused softmax f32 (samples/softmax.tri, one row per program) and layer norm
forward f16 (samples/layernorm_fwd.tri) at 4096 rows and 1024, 4096 and 8192
columns, with the launch settings of Triton's tutorials (BLOCK = next power of
two of the row; softmax: 4 warps, 8 from 2048 columns, 16 from 4096; layer
norm: BLOCK // 256 warps, between 1 and 8). Both run the same source on the
same inputs' sizes; Triton through triton.testing.do_bench, tri through
`tri bench`, alternating for --rounds rounds; medians are reported.

Also an RMS norm of bf16 rows that reads each row twice
(samples/rmsnorm_bf16_2pass.tri) at 4096x8192, 8 warps, blocks of 8192 and
1024 columns; its bytes count one read and one write of the rows.

Usage: bench_2d.py --tri bin/tri [--rounds N]
"""
import argparse
import statistics

import torch
import triton

from bench_1d import load, tri_bench


def softmax_warps(block):
    return 16 if block >= 4096 else 8 if block >= 2048 else 4


def workloads():
    sm = load("softmax")
    ln = load("layernorm_fwd")
    rows = 4096
    for cols in (1024, 4096, 8192):
        x = torch.randn(rows, cols, device="cuda")
        y = torch.empty_like(x)
        block = triton.next_power_of_2(cols)
        w = softmax_warps(block)
        fn = lambda x=x, y=y, block=block, w=w, cols=cols: sm.softmax_kernel[(rows,)](
            y, x, x.stride(0), y.stride(0), cols, BLOCK_SIZE=block, num_warps=w)
        launch = f"softmax_kernel[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols, BLOCK_SIZE={block}, num_warps={w})"
        lets = [f"n_rows={rows}", f"n_cols={cols}", "x=randn(n_rows, n_cols)", "y=empty(n_rows, n_cols)"]
        yield f"softmax f32 4096x{cols}", fn, 2 * rows * cols * 4, "softmax", launch, lets
    for cols in (1024, 4096, 8192):
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float16)
        wt = torch.rand(cols, device="cuda", dtype=torch.float16)
        b = torch.rand(cols, device="cuda", dtype=torch.float16)
        y = torch.empty_like(x)
        mean = torch.empty(rows, device="cuda")
        rstd = torch.empty(rows, device="cuda")
        block = min(65536 // 2, triton.next_power_of_2(cols))
        nw = min(max(block // 256, 1), 8)
        fn = lambda x=x, y=y, wt=wt, b=b, mean=mean, rstd=rstd, block=block, nw=nw, cols=cols: ln._layer_norm_fwd_fused[(rows,)](
            x, y, wt, b, mean, rstd, x.stride(0), cols, 1e-5, BLOCK_SIZE=block, num_warps=nw)
        launch = (f"_layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, "
                  f"BLOCK_SIZE={block}, num_warps={nw})")
        lets = [f"M={rows}", f"N={cols}", "x=randn(M, N, dtype='float16')", "w=rand(N, dtype='float16')",
                "b=rand(N, dtype='float16')", "y=empty(M, N, dtype='float16')", "mean=empty(M)", "rstd=empty(M)"]
        yield f"layer norm fwd f16 4096x{cols}", fn, 2 * rows * cols * 2, "layernorm_fwd", launch, lets
    rms = load("rmsnorm_bf16_2pass")
    cols = 8192
    for block in (8192, 1024):
        x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
        wt = torch.rand(cols, device="cuda", dtype=torch.bfloat16)
        y = torch.empty_like(x)
        fn = lambda x=x, y=y, wt=wt, block=block: rms.rms_norm_2pass[(rows,)](
            x, wt, y, x.stride(0), cols, 1e-6, BLOCK_SIZE=block, num_warps=8)
        launch = f"rms_norm_2pass[(M,)](x, w, y, x.stride(0), N, 1e-6, BLOCK_SIZE={block}, num_warps=8)"
        lets = [f"M={rows}", f"N={cols}", "x=randn(M, N, dtype='bfloat16')", "w=rand(N, dtype='bfloat16')",
                "y=empty(M, N, dtype='bfloat16')"]
        yield f"rms norm bf16 2-pass 4096x{cols} b{block}", fn, 2 * rows * cols * 2, "rmsnorm_bf16_2pass", launch, lets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="run only the workloads whose name holds this text")
    args = ap.parse_args()
    rows = []
    for name, fn, nbytes, sample, launch, lets in workloads():
        if args.only not in name:
            continue
        t_ms, r_ms = [], []
        for _ in range(args.rounds):
            t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
            r_ms.append(tri_bench(args.tri, sample, launch, lets, nbytes)[1])
        ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
        t_gbs, tri_gbs = nbytes / (ms * 1e6), nbytes / (tri_ms * 1e6)
        rows.append((name, t_gbs, tri_gbs, tri_gbs / t_gbs))
        print(f"{name:32} triton {t_gbs:8.1f} GB/s {t_ms}  tri {tri_gbs:8.1f} GB/s {r_ms}", flush=True)
    print()
    print(f"{'workload':32} {'Triton GB/s':>12} {'tri GB/s':>10} {'tri/Triton':>10}")
    for name, a, b, r in rows:
        print(f"{name:32} {a:12.1f} {b:10.1f} {r:10.3f}")


if __name__ == "__main__":
    main()
