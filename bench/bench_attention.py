#!/usr/bin/env python3
"""Time tri against real Triton on flash-attention forward, in one run.

Workloads: fp16, batch --batch (4), --heads (32) heads, head dim 64 and 128,
causal and not, N_CTX from --sizes (1024 to 16384), as Triton's tutorial 06
benchmarks its forward pass; TFLOP/s counted as the tutorial does,
4 * B * H * N_CTX^2 * HEAD_DIM per forward, halved when causal.

(a) samples/attention_fwd.tri, the pointer-based sample, with one launch
    configuration for both (--sample-config BLOCK_M,BLOCK_N,WARPS,STAGES,
    default 128,64,8,3, as Triton's Hopper configs of tutorial 06);
(b) with --tutorial06 PATH, the forward kernel (_attn_fwd) of Triton's
    tutorial 06 file at PATH, unchanged, launched directly (not through its
    autograd wrapper) with the arguments its wrapper passes; each autotunes
    it (Triton its way, tri on first use, cached), and the config each chose
    is printed. The launch is built from the kernel's parameter names, so the
    pointer version (Q, K, V, strides, STAGE or CAUSAL) and the descriptor
    version (desc_q, ..., host TensorDescriptors; warp_specialize=False)
    both work.

Both time the same source on the same inputs: Triton through
triton.testing.do_bench (median, L2 cleared before each rep), tri through
`tri bench` (which times the same way, kernel launches only), alternating for
--rounds rounds; medians are reported. The inputs are written once per size
to .npy files that tri loads (`load(...)`), and tri's output (`tri run
--save`) is compared with Triton's on them: the largest absolute difference
of o is printed for each row (and of M, the log2-sum-exp, for the sample).

Needs: a GPU, torch, Triton, numpy, and the tri binary (--tri). The
tutorial file imports pytest at its top.

Usage: bench_attention.py --tri bin/tri [--quick] [--sizes 1024,...,16384]
       [--dims 64,128] [--causal both|true|false] [--rounds N]
       [--sample-config 128,64,8,3] [--tutorial06 PATH] [--no-sample]
       [--no-verify]
"""
import argparse
import importlib.util
import inspect
import os
import shutil
import statistics
import tempfile

import numpy as np
import torch
import triton

from bench_1d import SAMPLES, load
from tricli import tri_bench_ms, tri_run_save

FULL_SIZES = "1024,2048,4096,8192,16384"
QUICK_SIZES = "1024,4096"


def flops(b, h, n, d, causal):
    f = 4.0 * b * h * n * n * d
    return f / 2 if causal else f


def max_abs_diff(got_npy, want):
    got = torch.from_numpy(np.load(got_npy)).to(want.device).float()
    return (got - want.float()).abs().max().item()


class Inputs:
    """q, k, v on the GPU (fp16, [B, H, N_CTX, D]), and the same in .npy files for tri."""

    def __init__(self, tmp, b, h, n, d):
        torch.manual_seed(0)
        self.q, self.k, self.v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
        self.files = {}
        for name in ("q", "k", "v"):
            f = os.path.join(tmp, f"{name}.npy")
            np.save(f, getattr(self, name).cpu().numpy())
            self.files[name] = f
        self.lets = [f"Z={b}", f"H={h}", f"N_CTX={n}", f"D={d}"] + [f"{x}=load('{self.files[x]}')" for x in ("q", "k", "v")]


def time_both(args, triton_fn, tri_path, tri_launch, tri_lets, tri_extra=()):
    """Alternates do_bench of triton_fn and tri bench of the launch (with the
    flags tri_extra); returns the medians (ms) and each round's times."""
    triton_fn()
    torch.cuda.synchronize()
    t_ms, r_ms = [], []
    for _ in range(args.rounds):
        t_ms.append(triton.testing.do_bench(triton_fn, warmup=25, rep=100, return_mode="median"))
        r_ms.append(tri_bench_ms(args.tri, tri_path, tri_launch, tri_lets, tri_extra))
    return statistics.median(t_ms), statistics.median(r_ms), t_ms, r_ms


def sample_row(args, mod, inp, tmp, b, h, n, d, causal):
    """samples/attention_fwd.tri under Triton and tri."""
    bm, bn, nw, ns = (int(x) for x in args.sample_config.split(","))
    sm_scale = 1.0 / d ** 0.5
    q, k, v = inp.q, inp.k, inp.v
    o = torch.empty_like(q)
    m = torch.empty(b, h, n, device="cuda", dtype=torch.float32)
    strides = [s for t in (q, k, v, o) for s in t.stride()]
    fn = lambda: mod.attn_fwd[(triton.cdiv(n, bm), b * h)](
        q, k, v, sm_scale, m, o, *strides, b, h, n,
        HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal, num_warps=nw, num_stages=ns)
    st = lambda x: ", ".join(f"{x}.stride({i})" for i in range(4))
    launch = (f"attn_fwd[(triton.cdiv(N_CTX, {bm}), Z * H)](q, k, v, sm_scale, M, o, {st('q')}, {st('k')}, {st('v')}, "
              f"{st('o')}, Z, H, N_CTX, HEAD_DIM=D, BLOCK_M={bm}, BLOCK_N={bn}, CAUSAL={causal}, "
              f"num_warps={nw}, num_stages={ns})")
    lets = inp.lets + [f"sm_scale={sm_scale!r}", "o=empty(Z, H, N_CTX, D, dtype='float16')", "M=empty(Z, H, N_CTX)"]
    path = os.path.join(SAMPLES, "attention_fwd.tri")
    ms, tri_ms, t_all, r_all = time_both(args, fn, path, launch, lets)
    diff = ""
    if not args.no_verify:
        fn()
        saves = {"o": os.path.join(tmp, "tri_o.npy"), "M": os.path.join(tmp, "tri_M.npy")}
        tri_run_save(args.tri, path, launch, lets, saves)
        diff = f"o {max_abs_diff(saves['o'], o):.2e} M {max_abs_diff(saves['M'], m):.2e}"
    return ms, tri_ms, t_all, r_all, diff


def jit_params(kernel):
    """The parameters (name -> inspect.Parameter) of a @jit function, under any @autotune/@heuristics."""
    fn = kernel
    while not isinstance(fn, triton.runtime.jit.JITFunction) and hasattr(fn, "fn"):
        fn = fn.fn
    return inspect.signature(fn.fn).parameters


def tuned_names(kernel):
    """The names the kernel's @autotune configs set (BLOCK_M, BLOCK_N)."""
    cfgs = getattr(kernel, "configs", None) or []
    return set(cfgs[0].kwargs) if cfgs else set()


def tutorial_row(args, mod, inp, tmp, b, h, n, d, causal):
    """Tutorial 06's _attn_fwd under Triton and tri, each autotuning it."""
    kernel = mod._attn_fwd
    sm_scale = 1.3  # as the tutorial's benchmark
    q, k, v = inp.q, inp.k, inp.v
    o = torch.empty_like(q)
    m = torch.empty(b, h, n, device="cuda", dtype=torch.float32)
    hopper = torch.cuda.get_device_capability()[0] == 9
    # name -> (Triton value, tri expression)
    known = {
        "Q": (q, "q"), "K": (k, "k"), "V": (v, "v"), "Out": (o, "o"), "M": (m, "M"),
        "sm_scale": (sm_scale, "sm_scale"), "Z": (b, "Z"), "H": (h, "H"), "N_CTX": (n, "N_CTX"),
        "HEAD_DIM": (d, "D"), "STAGE": (3 if causal else 1, str(3 if causal else 1)),
        "CAUSAL": (causal, str(causal)), "FP8_OUTPUT": (False, "False"),
        "warp_specialize": (False, "False"), "IS_HOPPER": (hopper, str(hopper)),
    }
    for x, t in (("q", q), ("k", k), ("v", v), ("o", o)):
        for i, dim in enumerate("zh" + ("mk" if x == "q" else "nk" if x == "k" else "kn" if x == "v" else "mn")):
            known[f"stride_{x}{dim}"] = (t.stride(i), f"{x}.stride({i})")
    lets = inp.lets + [f"sm_scale={sm_scale}", "o=empty(Z, H, N_CTX, D, dtype='float16')", "M=empty(Z, H, N_CTX)"]
    params = jit_params(kernel)
    if "desc_q" in params:
        from triton.tools.tensor_descriptor import TensorDescriptor
        rows = b * h * n
        for x, t in (("q", q), ("k", k), ("v", v), ("o", o)):
            desc = TensorDescriptor(t, shape=[rows, d], strides=[d, 1], block_shape=[1, 1])
            known[f"desc_{x}"] = (desc, f"desc_{x}")
            lets.append(f"desc_{x}=TensorDescriptor({x}, [Z * H * N_CTX, D], [D, 1], [1, 1])")
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    tuned = tuned_names(kernel)
    kwargs, tri_args, missing = {}, [], []
    for name, p in params.items():
        if name in tuned:
            continue
        if name not in known:
            if p.default is inspect.Parameter.empty:
                missing.append(name)
            continue
        kwargs[name] = known[name][0]
        tri_args.append(f"{name}={known[name][1]}")
    if missing:
        raise SystemExit(f"--tutorial06: no value for _attn_fwd's parameters {missing}")
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_M"]), b * h, 1)
    fn = lambda: kernel[grid](**kwargs)
    launch = f"_attn_fwd[lambda META: (triton.cdiv(N_CTX, META['BLOCK_M']), Z * H, 1)]({', '.join(tri_args)})"
    ms, tri_ms, t_all, r_all = time_both(args, fn, args.tutorial06, launch, lets)
    notes = []
    if not args.no_verify:
        fn()
        saves = {"o": os.path.join(tmp, "tri_o.npy")}
        p = tri_run_save(args.tri, args.tutorial06, launch, lets, saves)
        notes.append(f"o {max_abs_diff(saves['o'], o):.2e}")
        # tri's choice: "autotune: using cached config I for key (...): CONFIG"
        # or "autotune: K: config I is the fastest (T ms): CONFIG"
        chosen = [l for l in p.stderr.splitlines() if "fastest" in l or "cached config" in l]
        if chosen:
            notes.append("tri: " + chosen[-1].split("): ", 1)[-1].strip())
    best = getattr(kernel, "best_config", None)
    if best is not None:
        notes.append(f"Triton: {best}")
    return ms, tri_ms, t_all, r_all, " | ".join(notes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--quick", action="store_true", help=f"N_CTX {QUICK_SIZES} only, one round")
    ap.add_argument("--sizes", default=None, help=f"N_CTX values (default {FULL_SIZES})")
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--causal", default="both", choices=["both", "true", "false"])
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=None, help="alternating rounds per row (default 3, 1 with --quick)")
    ap.add_argument("--sample-config", default="128,64,8,3", help="BLOCK_M,BLOCK_N,WARPS,STAGES of the sample")
    ap.add_argument("--tutorial06", default=None, metavar="PATH", help="Triton's 06-fused-attention.py")
    ap.add_argument("--no-sample", action="store_true", help="skip samples/attention_fwd.tri")
    ap.add_argument("--no-verify", action="store_true", help="skip comparing tri's output with Triton's")
    args = ap.parse_args()
    args.tri = os.path.abspath(args.tri)
    if args.tutorial06:
        args.tutorial06 = os.path.abspath(args.tutorial06)
    if args.rounds is None:
        args.rounds = 1 if args.quick else 3
    sizes = [int(s) for s in (args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES)).split(",")]
    dims = [int(d) for d in args.dims.split(",")]
    causals = {"both": [False, True], "true": [True], "false": [False]}[args.causal]

    kinds = []
    if not args.no_sample:
        kinds.append(("sample", load("attention_fwd"), sample_row))
    if args.tutorial06:
        spec = importlib.util.spec_from_file_location("tutorial06", args.tutorial06)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        kinds.append(("tutorial06", mod, tutorial_row))
    b, h = args.batch, args.heads
    rows = []
    for d in dims:
        for n in sizes:
            tmp = tempfile.mkdtemp()
            try:
                inp = Inputs(tmp, b, h, n, d)
                for causal in causals:
                    for kind, mod, row in kinds:
                        name = f"{kind} d{d} {'causal' if causal else 'full'} N={n}"
                        try:
                            ms, tri_ms, t_all, r_all, note = row(args, mod, inp, tmp, b, h, n, d, causal)
                        except Exception as e:  # one failing row does not end the table
                            print(f"{name}: FAILED: {e}", flush=True)
                            rows.append((name, None, None, f"FAILED: {str(e).splitlines()[0][:80]}"))
                            continue
                        f = flops(b, h, n, d, causal)
                        t_tf, r_tf = f / (ms * 1e9), f / (tri_ms * 1e9)
                        rows.append((name, t_tf, r_tf, note))
                        print(f"{name:34} triton {t_tf:7.1f} TFLOP/s {t_all} ms  tri {r_tf:7.1f} TFLOP/s {r_all} ms  {note}",
                              flush=True)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    print()
    print(f"fp16, batch {b}, {h} heads; TFLOP/s = 4*B*H*N^2*D per forward (halved when causal) / median time")
    print(f"{'workload':34} {'Triton TFLOP/s':>14} {'tri TFLOP/s':>12} {'tri/Triton':>10}  tri vs Triton (max |diff|)")
    for name, t, r, note in rows:
        if t is None:
            print(f"{name:34} {'-':>14} {'-':>12} {'-':>10}  {note}")
        else:
            print(f"{name:34} {t:14.1f} {r:12.1f} {r / t:10.3f}  {note}")


if __name__ == "__main__":
    main()
