#!/usr/bin/env python3
"""Time tri against real Triton on tutorial 06's fp8 attention forward.

Launches the block-pointer `_attn_fwd` of Triton's tutorial file (given by
--tutorial06: the unchanged 06-fused-attention.py, or a file holding that
kernel and `_attn_fwd_inner`) the way the tutorial runs fp8 on Hopper: q and
k float8_e5m2, v stored transposed (v.permute(0, 1, 3, 2).contiguous()
.permute(0, 1, 3, 2)), the output e5m2, one pinned config on both sides
(--config BLOCK_M,BLOCK_N,WARPS,STAGES; an autotuned kernel is launched
through its .fn). Batch 4, 32 heads; medians in TFLOP/s, tri/Triton, and the
largest difference of tri's output (as float) from Triton's.

Triton 3.6's tutorial file (its _attn_fwd over host tensor descriptors,
under @triton.autotune) is launched as its _attention.forward launches fp8
instead, each side autotuning the same configs; the config each chose is
printed under its row (outputs differ where the choices do, since p is
rounded to e5m2 block by block).

Usage: bench_attn_fp8.py --tri bin/tri --tutorial06 PATH [--dims 64,128]
       [--sizes 1024,4096] [--causal both|true|false] [--config 128,64,8,3]
"""
import argparse
import importlib.util
import inspect
import os
import shutil
import statistics
import subprocess
import tempfile

import numpy as np
import torch
import triton


def print_table(rows):
    """The table of (workload, Triton TFLOP/s, tri TFLOP/s, max |diff|) rows."""
    print(f"{'workload':26} {'Triton TFLOP/s':>15} {'tri TFLOP/s':>12} {'tri/Triton':>10} {'max |diff|':>10}")
    for name, t, r, diff in rows:
        print(f"{name:26} {t:15.2f} {r:12.2f} {r / t:10.3f} {diff:10.3g}")


def time_and_compare(args, fn, launch, letargs, flops, tmp, o):
    """Alternates Triton's fn and `tri bench` of launch for --rounds rounds
    (median ms of each), then runs both once more and compares tri's o with
    Triton's; returns (Triton ms, tri ms, max |diff|, tri's stderr)."""
    fn()
    torch.cuda.synchronize()
    t_ms, r_ms = [], []
    for _ in range(args.rounds):
        t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
        p = subprocess.run([args.tri, "bench", args.tutorial06, launch, "--flops", str(flops)] + letargs,
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(p.stderr)
        r_ms.append(float(p.stdout.strip().splitlines()[-1].split()[-4]))
    fn()
    torch.cuda.synchronize()
    p = subprocess.run([args.tri, "run", args.tutorial06, launch, "--save", f"o={tmp}/o.npy"] + letargs,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr)
    got = torch.from_numpy(np.load(f"{tmp}/o.npy")).cuda().view(o.dtype).float()
    diff = (got.reshape(o.shape) - o.float()).abs().max().item()
    print(f"   triton {t_ms} tri {r_ms}", flush=True)
    return statistics.median(t_ms), statistics.median(r_ms), diff, p.stderr


def descriptor_rows(args, kern):
    """Tutorial 06 as Triton 3.6 writes it: _attn_fwd over host tensor
    descriptors, autotuned by its own @triton.autotune on both sides (the same
    configs; each side's choice is printed), launched as _attention.forward
    launches it for fp8 (FP8_OUTPUT, v transposed in memory)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    z, h, sm_scale = 4, 32, 0.5
    rows = []
    causals = {"both": (False, True), "true": (True,), "false": (False,)}[args.causal]
    for d in (int(x) for x in args.dims.split(",")):
        for n in (int(x) for x in args.sizes.split(",")):
            for causal in causals:
                stage = 3 if causal else 1
                f8 = torch.float8_e5m2
                q = torch.randn((z, h, n, d), device="cuda", dtype=torch.float16).to(f8)
                k = torch.randn((z, h, n, d), device="cuda", dtype=torch.float16).to(f8)
                vt = torch.randn((z, h, d, n), device="cuda", dtype=torch.float16).to(f8)
                o = torch.empty((z, h, n, d), device="cuda", dtype=f8)
                M = torch.empty((z, h, n), device="cuda", dtype=torch.float32)
                y = z * h * n
                dq = TensorDescriptor(q, shape=[y, d], strides=[d, 1], block_shape=[1, 1])
                dk = TensorDescriptor(k, shape=[y, d], strides=[d, 1], block_shape=[1, 1])
                dv = TensorDescriptor(vt, shape=[d, y], strides=[n, 1], block_shape=[1, 1])
                do = TensorDescriptor(o, shape=[y, d], strides=[d, 1], block_shape=[1, 1])
                grid = lambda meta: (triton.cdiv(n, meta["BLOCK_M"]), z * h, 1)
                fn = lambda: kern[grid](sm_scale, M, z, h, dq, dk, dv, do, N_CTX=n, HEAD_DIM=d, FP8_OUTPUT=True,
                                        STAGE=stage, warp_specialize=False, IS_HOPPER=True)
                tmp = tempfile.mkdtemp()
                for name, t in (("q", q), ("k", k), ("vt", vt)):
                    np.save(f"{tmp}/{name}.npy", t.view(torch.uint8).cpu().numpy())
                lets = [f"Z={z}", f"H={h}", f"N_CTX={n}", f"D={d}", "y_dim=Z * H * N_CTX",
                        f"q=load('{tmp}/q.npy', dtype='float8e5')", f"k=load('{tmp}/k.npy', dtype='float8e5')",
                        f"vt=load('{tmp}/vt.npy', dtype='float8e5')", "M=empty(Z, H, N_CTX)",
                        "o=empty(Z, H, N_CTX, D, dtype='float8e5')",
                        "desc_q=TensorDescriptor(q, shape=[y_dim, D], strides=[D, 1], block_shape=[1, 1])",
                        "desc_k=TensorDescriptor(k, shape=[y_dim, D], strides=[D, 1], block_shape=[1, 1])",
                        "desc_v=TensorDescriptor(vt, shape=[D, y_dim], strides=[N_CTX, 1], block_shape=[1, 1])",
                        "desc_o=TensorDescriptor(o, shape=[y_dim, D], strides=[D, 1], block_shape=[1, 1])"]
                launch = (f"_attn_fwd[lambda META: (triton.cdiv(N_CTX, META['BLOCK_M']), Z * H, 1)]({sm_scale}, M, Z, H, "
                          f"desc_q, desc_k, desc_v, desc_o, N_CTX=N_CTX, HEAD_DIM=D, FP8_OUTPUT=True, STAGE={stage}, "
                          "warp_specialize=False, IS_HOPPER=True)")
                flops = 4.0 * z * h * n * n * d * (0.5 if causal else 1.0)
                letargs = [x for l in lets for x in ("--let", l)]
                ms, tri_ms, diff, stderr = time_and_compare(args, fn, launch, letargs, flops, tmp, o)
                chosen = [l for l in stderr.splitlines() if "fastest" in l or "cached config" in l]
                shutil.rmtree(tmp)
                name = f"fp8 d{d} {'causal' if causal else 'full'} N={n}"
                rows.append((name, flops / (ms * 1e9), flops / (tri_ms * 1e9), diff))
                print(f"{name:26} diff {diff:.3g}", flush=True)
                print(f"   Triton's config: {getattr(kern, 'best_config', None)}", flush=True)
                print(f"   tri's: {chosen[-1].split('): ', 1)[-1].strip() if chosen else '?'}", flush=True)
    print_table(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--tutorial06", required=True)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--sizes", default="1024,4096")
    ap.add_argument("--causal", default="both", choices=["both", "true", "false"])
    ap.add_argument("--config", default="128,64,8,3")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    dst = os.path.join(tempfile.mkdtemp(), "tutorial06.py")
    shutil.copy(args.tutorial06, dst)
    spec = importlib.util.spec_from_file_location("tutorial06", dst)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tuned = mod._attn_fwd
    kern = tuned
    if hasattr(kern, "configs"):  # under @triton.autotune: launch the config given here
        kern = kern.fn
    if "desc_q" in inspect.signature(kern.fn).parameters:
        return descriptor_rows(args, tuned)
    bm, bn, nw, ns = (int(x) for x in args.config.split(","))
    z, h, sm_scale = 4, 32, 0.5
    rows = []
    causals = {"both": (False, True), "true": (True,), "false": (False,)}[args.causal]
    for d in (int(x) for x in args.dims.split(",")):
        for n in (int(x) for x in args.sizes.split(",")):
            for causal in causals:
                stage = 3 if causal else 1
                q = torch.randn((z, h, n, d), device="cuda", dtype=torch.float16).to(torch.float8_e5m2)
                k = torch.randn((z, h, n, d), device="cuda", dtype=torch.float16).to(torch.float8_e5m2)
                vt = torch.randn((z, h, d, n), device="cuda", dtype=torch.float16).to(torch.float8_e5m2)
                v = vt.permute(0, 1, 3, 2)
                o = torch.empty((z, h, n, d), device="cuda", dtype=torch.float8_e5m2)
                M = torch.empty((z, h, n), device="cuda", dtype=torch.float32)
                fn = lambda: kern[(triton.cdiv(n, bm), z * h, 1)](
                    q, k, v, sm_scale, M, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), z, h,
                    N_CTX=n, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, STAGE=stage, num_warps=nw, num_stages=ns)
                tmp = tempfile.mkdtemp()
                for name, t in (("q", q), ("k", k), ("vt", vt)):
                    np.save(f"{tmp}/{name}.npy", t.view(torch.uint8).cpu().numpy())
                lets = [f"Z={z}", f"H={h}", f"N_CTX={n}", f"D={d}",
                        f"q=load('{tmp}/q.npy', dtype='float8e5')", f"k=load('{tmp}/k.npy', dtype='float8e5')",
                        f"vt=load('{tmp}/vt.npy', dtype='float8e5')", "M=empty(Z, H, N_CTX)",
                        "o=empty(Z, H, N_CTX, D, dtype='float8e5')"]
                launch = (f"_attn_fwd[(triton.cdiv(N_CTX, {bm}), Z * H, 1)](q, k, vt, {sm_scale}, M, o, "
                          "q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3), "
                          "vt.stride(0), vt.stride(1), vt.stride(3), vt.stride(2), o.stride(0), o.stride(1), o.stride(2), o.stride(3), "
                          f"Z, H, N_CTX=N_CTX, HEAD_DIM=D, BLOCK_M={bm}, BLOCK_N={bn}, STAGE={stage}, num_warps={nw}, num_stages={ns})")
                flops = 4.0 * z * h * n * n * d * (0.5 if causal else 1.0)
                letargs = [x for l in lets for x in ("--let", l)]
                ms, tri_ms, diff, _ = time_and_compare(args, fn, launch, letargs, flops, tmp, o)
                shutil.rmtree(tmp)
                name = f"fp8 d{d} {'causal' if causal else 'full'} N={n}"
                rows.append((name, flops / (ms * 1e9), flops / (tri_ms * 1e9), diff))
                print(f"{name:26} diff {diff:.3g}", flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
