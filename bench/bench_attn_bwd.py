#!/usr/bin/env python3
"""Time tri against real Triton on tutorial 06's attention backward kernel.

Launches `_attn_bwd` from Triton's tutorial file (06-fused-attention.py,
unchanged, given by --tutorial06; a file holding just its backward kernels
works too) the way the tutorial's backward does: its own config (4 warps,
5 stages, BLOCK_M1/N1/M2/N2 = 32/128/128/32, BLK_SLICE_FACTOR 2), fp16,
batch 4, 32 heads, k pre-scaled by sm_scale / ln 2, M and delta computed
from a forward pass in PyTorch. The kernel treats the diagonal blocks as
causal whatever the forward did, so one row per (head dim, N_CTX) is timed.
Triton through triton.testing.do_bench, tri through `tri bench` on the same
inputs (.npy files), alternating for --rounds rounds; medians in TFLOP/s
as the tutorial counts them (2.5 x the causal forward's), with the ratio
tri/Triton and the largest difference of tri's dq, dk, dv from Triton's.

Usage: bench_attn_bwd.py --tri bin/tri --tutorial06 PATH [--dims 64,128]
       [--sizes 4096,16384] [--rounds 2] [--no-verify]
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import tempfile

import numpy as np
import torch
import triton

LAUNCH = ("_attn_bwd[(N_CTX // 128, 1, Z * H)](q, k, v, sm_scale, do, dq, dk, dv, M, delta, "
          "q.stride(0), q.stride(1), q.stride(2), q.stride(3), H, N_CTX, BLOCK_M1=32, BLOCK_N1=128, "
          "BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=D, num_warps=4, num_stages=5)")


def load_module(path):
    dst = os.path.join(tempfile.mkdtemp(), "tutorial06.py")
    shutil.copy(path, dst)
    spec = importlib.util.spec_from_file_location("tutorial06", dst)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def inputs(z, h, n, d, sm_scale):
    """q, the pre-scaled k, v, do, and M and delta from a causal forward."""
    g = torch.Generator(device="cuda").manual_seed(0)
    q, k, v, do = (torch.randn((z, h, n, d), device="cuda", dtype=torch.float16, generator=g) for _ in range(4))
    k = (k * (sm_scale * 1.4426950408889634)).half()
    M = torch.empty((z, h, n), device="cuda", dtype=torch.float32)
    delta = torch.empty_like(M)
    causal = torch.tril(torch.ones((n, n), device="cuda", dtype=torch.bool))
    for b in range(z):
        for i in range(h):
            s = q[b, i].float() @ k[b, i].float().T  # log2 units: k is pre-scaled
            s.masked_fill_(~causal, float("-inf"))
            m = torch.logsumexp(s * 0.6931471824645996, dim=1) / 0.6931471824645996
            M[b, i] = m
            o = (torch.exp2(s - m[:, None]) @ v[b, i].float()).half()
            delta[b, i] = (o.float() * do[b, i].float()).sum(1)
    return q, k, v, do, M, delta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--tutorial06", required=True)
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--sizes", default="4096,16384")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--arch", default="")
    ap.add_argument("--no-verify", action="store_true")
    args = ap.parse_args()
    mod = load_module(args.tutorial06)
    sm_scale = 1.3
    z, h = args.batch, args.heads
    rows = []
    for d in (int(x) for x in args.dims.split(",")):
        for n in (int(x) for x in args.sizes.split(",")):
            q, k, v, do, M, delta = inputs(z, h, n, d, sm_scale)
            dq = torch.empty(q.shape, device="cuda", dtype=torch.float32)
            dk, dv = torch.empty_like(k), torch.empty_like(v)
            fn = lambda: mod._attn_bwd[(n // 128, 1, z * h)](
                q, k, v, sm_scale, do, dq, dk, dv, M, delta, q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                h, n, BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2, HEAD_DIM=d,
                num_warps=4, num_stages=5)
            tmp = tempfile.mkdtemp()
            lets = [f"Z={z}", f"H={h}", f"N_CTX={n}", f"D={d}", f"sm_scale={sm_scale}"]
            for name, t in (("q", q), ("k", k), ("v", v), ("do", do), ("M", M), ("delta", delta)):
                np.save(f"{tmp}/{name}.npy", t.cpu().numpy())
                lets.append(f"{name}=load('{tmp}/{name}.npy')")
            lets += ["dq=empty(Z, H, N_CTX, D)", "dk=empty(Z, H, N_CTX, D, dtype='float16')",
                     "dv=empty(Z, H, N_CTX, D, dtype='float16')"]
            flops = 2.5 * 2 * 2.0 * z * h * n * n * d * 0.5
            cmd = [args.tri, "bench", args.tutorial06, LAUNCH, "--flops", str(flops)]
            if args.arch:
                cmd += ["--arch", args.arch]
            for l in lets:
                cmd += ["--let", l]
            t_ms, r_ms = [], []
            for _ in range(args.rounds):
                t_ms.append(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    raise RuntimeError(p.stderr)
                r_ms.append(float(p.stdout.strip().splitlines()[-1].split()[-4]))
            diff = ""
            if not args.no_verify:
                fn()
                torch.cuda.synchronize()
                run = [args.tri, "run", args.tutorial06, LAUNCH] + [x for l in lets for x in ("--let", l)]
                if args.arch:
                    run += ["--arch", args.arch]
                for name in ("dq", "dk", "dv"):
                    run += ["--save", f"{name}={tmp}/out_{name}.npy"]
                p = subprocess.run(run, capture_output=True, text=True)
                if p.returncode != 0:
                    raise RuntimeError(p.stderr)
                parts = []
                for name, ref in (("dq", dq), ("dk", dk), ("dv", dv)):
                    got = torch.from_numpy(np.load(f"{tmp}/out_{name}.npy")).cuda().float()
                    parts.append(f"{name} {(got - ref.float()).abs().max().item():.3g}")
                diff = " ".join(parts)
            shutil.rmtree(tmp)
            ms, tri_ms = statistics.median(t_ms), statistics.median(r_ms)
            name = f"06 bwd d{d} N={n}"
            rows.append((name, flops / (ms * 1e9), flops / (tri_ms * 1e9), diff))
            print(f"{name:24} triton {t_ms} tri {r_ms} {diff}", flush=True)
    print(f"{'workload':24} {'Triton TFLOP/s':>15} {'tri TFLOP/s':>12} {'tri/Triton':>10}  max |tri - Triton|")
    for name, t, r, diff in rows:
        print(f"{name:24} {t:15.2f} {r:12.2f} {r / t:10.3f}  {diff}")


if __name__ == "__main__":
    main()
