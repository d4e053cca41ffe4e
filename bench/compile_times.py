#!/usr/bin/env python3
"""Compile times of tri and of real Triton for the same kernels, per config.

For each case (tutorial 03's matmul as samples/matmul_tutorial03.tri, and
Triton's tutorials 06 forward and backward and 09, from a folder holding
them unchanged as 06.py and 09.py, and optionally 06_bwd.py, the tutorial
whose backward runs.sh launches), this script measures, with empty caches:

  tri    gen:   `tri build` of the launch for one config (process start,
                parsing, checking, CUDA generation), wall time;
         nvrtc: `tri build --dump=resources` of the same launch minus gen:
                NVRTC compiling the CUDA to a cubin (and ptxas's report);
  Triton front: Triton's compiler from the Python source to PTX (make_ir
                and the ttir, ttgir, llir and ptx stages), as its
                compilation listener reports it;
         ptxas: Triton's cubin stage (ptxas).

An autotuned kernel is measured for its first --max-configs configs (6):
Triton compiles each while its autotuner runs the launch (its config list
cut to those), tri builds each with --config N. Configs a side refuses
(a static_assert) are not counted. The
table gives the mean per config, in milliseconds, and the number of
configs. The shapes are the small ones of bench/tutorials/runs.sh.

Usage: compile_times.py --tri bin/tri --tutorials DIR [--log FILE]
"""
import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time

import torch
import triton

from triton_compare import FP8_DTYPES, TORCH_DTYPES, import_kernels

TUT03 = ("samples/matmul_tutorial03.tri",
         "matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), "
         "c.stride(0), c.stride(1), ACTIVATION=\"leaky_relu\")",
         ["M=273", "N=201", "K=150", "a=randn(M, K, dtype='float16')", "b=randn(K, N, dtype='float16')",
          "c=empty(M, N, dtype='float16')",
          "grid=lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']),)"])

A06 = ["Z=1", "H=2", "N_CTX=128", "HEAD_DIM=64", "HEAD_DIM_K=64",
       "q=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')", "k=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')",
       "v=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')", "o=empty_like(q)", "M=empty(Z, H, N_CTX)",
       "sm_scale=0.5", "y_dim=Z * H * N_CTX",
       "grid=lambda META: (triton.cdiv(q.shape[2], META['BLOCK_M']), q.shape[0] * q.shape[1], 1)"]
D06 = [f"desc_{t}=TensorDescriptor({t}, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[1, 1])"
       for t in "qkvo"]
FWD06 = ("_attn_fwd[grid](sm_scale, M, q.shape[0], q.shape[1], desc_q, desc_k, desc_v, desc_o, N_CTX=q.shape[2], "
         "HEAD_DIM=HEAD_DIM_K, FP8_OUTPUT=q.dtype == torch.float8_e5m2, STAGE=stage, "
         "warp_specialize=warp_specialize, IS_HOPPER=is_hopper(), **extra_kern_args)")
BWD06 = ("_attn_bwd[(N_CTX // 128, 1, Z * H)](q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta, q.stride(0), "
         "q.stride(1), q.stride(2), q.stride(3), H, N_CTX, BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, "
         "BLK_SLICE_FACTOR=2, HEAD_DIM=HEAD_DIM, num_warps=4, num_stages=5)")
B06 = A06 + ["o=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')", "do=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')",
             "arg_k=randn(Z, H, N_CTX, HEAD_DIM, dtype='float16')", "delta=randn(Z, H, N_CTX)",
             "dq=empty_like(q)", "dk=empty_like(k)", "dv=empty_like(v)"]
S09 = ["M=384", "N=256", "K=320", "a=randn(M, K, dtype='float16')", "b=randn(K, N, dtype='float16')",
       "c=empty(M, N, dtype='float16')", "NUM_SMS=torch.cuda.get_device_properties('cuda').multi_processor_count",
       "grid=lambda META: (min(NUM_SMS, triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N'])), )"]
PERS09 = ("matmul_kernel_persistent[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), "
          "c.stride(0), c.stride(1), NUM_SMS=NUM_SMS)")


def cases(tut):
    # runs.sh's backward launch is the 3.6 tutorial's, saved as 06_bwd.py
    # beside a later 06.py whose backward takes CAUSAL.
    bwd = os.path.join(tut, "06_bwd.py")
    if not os.path.exists(bwd):
        bwd = os.path.join(tut, "06.py")
    return [
        ("03 matmul_kernel", *TUT03),
        ("06 _attn_fwd d64 causal", os.path.join(tut, "06.py"), FWD06,
         A06 + D06 + ["stage=3", "warp_specialize=False", "extra_kern_args={}"]),
        ("06 _attn_bwd d64", bwd, BWD06, B06),
        ("09 matmul_kernel_persistent", os.path.join(tut, "09.py"), PERS09, S09),
    ]


def let_env(mod):
    """The namespace the lets and the launch are evaluated in under Triton:
    the module's names, and tri's --let helpers made with torch."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    def dt(d):
        return FP8_DTYPES.get(d) or TORCH_DTYPES[d]

    def randn(*shape, dtype="float32"):
        return torch.randn(shape, device="cuda").to(dt(dtype))

    def empty(*shape, dtype="float32"):
        return torch.empty(shape, device="cuda", dtype=dt(dtype))

    ns = dict(vars(mod))
    ns.update(torch=torch, triton=triton, randn=randn, empty=empty, empty_like=torch.empty_like,
              TensorDescriptor=TensorDescriptor)
    return ns


def triton_times(path, launch, lets, max_configs):
    """Compile the launch under Triton with an empty cache; returns a list of
    (front, ptxas) in ms, one per compiled config."""
    found = []

    def listener(*, src, metadata, metadata_group, times, cache_hit):
        # times: triton.knobs.CompileTimes, in microseconds
        if cache_hit:
            return
        ptxas = dict(times.lowering_stages).get("cubin", 0)
        found.append(((times.ir_initialization + times.total_lowering - ptxas) / 1000, ptxas / 1000))

    tmp = tempfile.mkdtemp(prefix="trict")
    mod = import_kernels(path, tmp)
    ns = let_env(mod)
    for l in lets:
        name, expr = l.split("=", 1)
        ns[name.strip()] = eval(expr, ns)
    for v in vars(mod).values():
        if isinstance(v, triton.runtime.autotuner.Autotuner):
            v.configs = v.configs[:max_configs]
    triton.knobs.compilation.listener = listener
    try:
        eval(launch, ns)
        torch.cuda.synchronize()
    finally:
        triton.knobs.compilation.listener = None
    shutil.rmtree(tmp, ignore_errors=True)
    return found


def tri_wall(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    t = (time.perf_counter() - t0) * 1000
    return t, p


def tri_times(tri, path, launch, lets, max_configs, log):
    """(gen, nvrtc) in ms for each config of the launch's kernel."""
    base = [tri, "build", path, launch] + [a for l in lets for a in ("--let", l)] + ["-o", os.devnull]
    probe = subprocess.run(base + ["--config", "999999"], capture_output=True, text=True)
    m = re.search(r"has (\d+) autotune configs", probe.stderr)
    out = []
    for i in range(min(int(m.group(1)), max_configs) if m else 1):
        cfg = ["--config", str(i)] if m else []
        env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="trictc"))
        gen, p = tri_wall(base + cfg, env)
        log.write("$ " + " ".join(base + cfg) + f"\n{p.stderr}\n")
        if p.returncode != 0:
            continue
        env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="trictc"))
        full, p = tri_wall(base + cfg + ["--dump=resources"], env)
        log.write(f"--dump=resources: {p.stderr}\n")
        if p.returncode != 0:
            continue
        out.append((gen, full - gen))
    return out


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--tutorials", required=True, help="folder holding Triton's tutorials as 06.py and 09.py")
    ap.add_argument("--log", default=os.devnull)
    ap.add_argument("--max-configs", type=int, default=6, help="of an autotuned kernel, its first N configs (both sides)")
    args = ap.parse_args()
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="trictriton")
    log = open(args.log, "w")
    rows = []
    for name, path, launch, lets in cases(args.tutorials):
        try:
            tt = triton_times(path, launch, lets, args.max_configs)
        except Exception as e:  # report and go on
            print(f"{name}: Triton failed: {type(e).__name__}: {e}", flush=True)
            tt = []
        ti = tri_times(args.tri, path, launch, lets, args.max_configs, log)
        rows.append((name, ti, tt))
        print(f"{name}: tri {len(ti)} configs, Triton {len(tt)} compiles", flush=True)
    print(f"\nmilliseconds per config, mean (configs); {torch.cuda.get_device_name()}, Triton {triton.__version__}")
    print(f"{'kernel':30} {'tri gen':>8} {'NVRTC':>8} {'tri all':>8} {'Triton front':>13} {'ptxas':>8} {'Triton all':>11}")
    for name, ti, tt in rows:
        g, nv = mean([t[0] for t in ti]), mean([t[1] for t in ti])
        f, px = mean([t[0] for t in tt]), mean([t[1] for t in tt])
        print(f"{name:30} {g:8.0f} {nv:8.0f} {g + nv:8.0f} {f:13.0f} {px:8.0f} {f + px:11.0f}  ({len(ti)} / {len(tt)})")


if __name__ == "__main__":
    main()
