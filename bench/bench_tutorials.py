#!/usr/bin/env python3
"""Time tri against real Triton on tutorials 09 and 08, same source, same configs, in one run.

(a) --tutorial09 PATH (Triton's 09-persistent-matmul.py, unchanged): fp16,
    M = N = K from --sizes (4096 and 8192), each kernel that runs on Hopper
    (--kernels09 picks some): matmul_kernel, matmul_kernel_persistent,
    matmul_kernel_tma, matmul_kernel_tma_persistent (host descriptors) and
    matmul_kernel_descriptor_persistent without and with warp_specialize
    (FLATTEN off with it on Hopper, as the tutorial's wrapper sets). Every
    kernel is autotuned in the file; both sides run ONE config, --config09
    BM,BN,BK,GROUP,STAGES,WARPS (default 128,256,64,8,3,8) with
    EPILOGUE_SUBTILE from --subtile (default off): Triton through the
    @jit function under the autotuner (kernel.fn) with those meta-parameters,
    num_warps and num_stages, tri through `--config I`, the index of that
    config in the kernel's own autotune list (checked against the list Triton
    reads). The descriptors get the config's block shapes (the autotune
    pre_hook's, which only the tuned path runs). TFLOP/s = 2*M*N*K / time.
(b) --tutorial08 PATH (Triton's 08-grouped-gemm.py, unchanged; only its
    definitions are run, not the checks and benchmarks at its end): the
    pointer-table kernel (grouped_matmul_kernel, config --config08
    BM,BN,BK, default 128,128,64, its config with NUM_SM = num_sms()) and
    the device-descriptor kernel (grouped_matmul_tma_kernel, --config08-tma
    BM,BN,BK,STAGES,WARPS, default 128,256,64,3,8, on B transposed), on the
    tutorial's benchmark shapes: benchmark_square_matrices (a group of 4
    N x N x N, N = 128..1024) and benchmark_batches (a group of 4 M x 8192 x
    8192, M = 128..1024); --shapes08 picks some. TFLOP/s = the sum of 2*M*N*K
    over the group / time.

Each row runs the same source on the same inputs (written once per shape to
.npy files that tri loads): Triton through triton.testing.do_bench (median,
L2 cleared before each rep), tri through `tri bench` (which times the same
way), alternating for --rounds rounds; medians are reported. tri's output
(`tri run --save`) is compared with Triton's (largest |difference|), and
each side's registers, spills and shared memory are printed: Triton's from
the compiled kernel (n_regs, n_spills, metadata.shared), tri's from NVRTC
(`tri build --dump=resources`). The table comes last, with the ratio
tri/Triton and a mark where it is below issue 13's target (0.95 for 09's
persistent kernels, 0.9 for 08).

--dry-run prints the tri commands (bench, run, build) each row would run,
with generator bindings (randn, empty, ...) in place of the .npy inputs, and
needs neither a GPU nor torch; with --interpret it also runs each row's `tri
run` in tri's interpreter (use small --sizes and --shapes08, e.g. 256 and
square:128).

Needs: a GPU, torch, Triton 3.6 (its tutorial files), numpy and the tri
binary (--tri).

Usage: bench_tutorials.py --tri bin/tri --tutorial09 PATH --tutorial08 PATH
       [--quick] [--rounds N] [--sizes 4096,8192] [--kernels09 persistent,...]
       [--config09 128,256,64,8,3,8] [--subtile] [--shapes08 square:1024,batch:512]
       [--config08 128,128,64] [--config08-tma 128,256,64,3,8] [--no-verify]
       [--dry-run [--interpret]]
"""
import argparse
import ast
import itertools
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types

from tricli import lets_args, run_tri, tri_bench_cmd, tri_resources, tri_resources_cmd, tri_run_cmd

FULL_SIZES = "4096,8192"
QUICK_SIZES = "4096"
# The tutorial's benchmark_square_matrices (N) and benchmark_batches (M; N = K = 8192).
FULL_SHAPES08 = "square:128,square:256,square:512,square:1024,batch:128,batch:256,batch:512,batch:1024"
QUICK_SHAPES08 = "square:1024,batch:1024"
BATCH_NK = 8192
GROUP = 4
SMS_DRY = 132  # the SM count tri assumes for sm_90a without a GPU (an H100 SXM)

KERNELS09 = ["naive", "persistent", "tma", "tma_persistent", "descriptor_persistent", "descriptor_persistent_ws"]
# issue 13's targets, tri/Triton
TARGET09 = {"persistent": 0.95, "tma_persistent": 0.95, "descriptor_persistent": 0.95, "descriptor_persistent_ws": 0.95}
TARGET08 = 0.9


# ---- configs: the index of the pinned config in each kernel's autotune list


def index_in(configs, want):
    """The index of the triton.Config in configs whose kwargs, num_warps and
    num_stages are those of want (a dict with num_warps and num_stages
    among the meta-parameters), or None."""
    for i, c in enumerate(configs):
        kw = dict(c.kwargs, num_warps=c.num_warps, num_stages=c.num_stages)
        if all(kw.get(k) == v for k, v in want.items()) and set(kw) <= set(want) | {"num_warps", "num_stages"}:
            return i
    return None


def expected_index(lists, want):
    """The index of want in the product of lists (name -> values, in the
    order of the tutorial's comprehension): the index --dry-run uses, where
    the tutorial is not imported; a real run checks it against Triton's list."""
    names = list(lists)
    for i, vals in enumerate(itertools.product(*(lists[n] for n in names))):
        if all(want.get(n) == v for n, v in zip(names, vals)):
            return i
    raise SystemExit(f"config {want} is not among the tutorial's configs ({lists})")


# 09's matmul_get_configs and matmul_tma_persistent_get_configs, in order.
MM_LISTS = {"BLOCK_SIZE_M": [128], "BLOCK_SIZE_N": [128, 256], "BLOCK_SIZE_K": [64, 128],
            "GROUP_SIZE_M": [8], "num_stages": [2, 3, 4], "num_warps": [4, 8]}
MM_TMA_LISTS = dict(MM_LISTS, EPILOGUE_SUBTILE=[True, False])
# 08's tma_configs, in order.
G_TMA_LISTS = {"BLOCK_SIZE_M": [128], "BLOCK_SIZE_N": [128, 256], "BLOCK_SIZE_K": [64, 128],
               "num_stages": [3, 4], "num_warps": [4, 8]}
# 08's grouped_matmul_kernel configs (BM, BN, BK, NUM_SM; None: num_sms()), 4 warps, 3 stages.
G_PTR_LIST = [(128, 128, 32, 84), (128, 128, 32, 128), (64, 64, 32, 84), (64, 64, 32, 128),
              (128, 128, 64, None), (64, 128, 64, None)]


def pinned_index(kernel, want, dry_index, label):
    """The index tri's --config gets: dry_index, checked against the Triton
    autotuner's own list where the tutorial is loaded."""
    if kernel is None:
        return dry_index
    i = index_in(kernel.configs, want)
    if i is None:
        raise SystemExit(f"{label}: no autotune config {want} in the tutorial's list")
    if i != dry_index:
        print(f"note: {label}: the config is number {i} of the tutorial's list (expected {dry_index})", flush=True)
    return i


# ---- rows


class Row:
    """One workload: a launch of a tutorial kernel under tri (path, launch,
    lets, extra flags) and, in a real run, the Triton call that matches it."""

    def __init__(self, name, path, launch, lets, extra, flops, outputs, target, config, kernel_key):
        self.name, self.path, self.launch, self.lets, self.extra = name, path, launch, lets, extra
        self.flops, self.outputs, self.target, self.config = flops, outputs, target, config
        # what tri's kernel depends on (rows with the same key build the same
        # kernel: 08's sizes are in device tensors), for tri's resource report
        self.kernel_key = (path, launch, tuple(extra), kernel_key)
        self.triton = None  # (launch function returning the compiled kernel, {output name: tensor})
        self.ref = None  # () -> {output name: fp32 torch reference}, where the row has one


class Inputs:
    """Input tensors of one shape: each a torch tensor saved to NAME.npy for
    tri (real run), or a generator binding (dry run)."""

    def __init__(self, tmp, dry):
        self.tmp, self.dry, self.t, self.files = tmp, dry, {}, {}

    def add(self, name, gen, make):
        """gen: tri's generator expression (dry run); make: () -> the torch
        tensor (real run)."""
        if self.dry:
            self.files[name] = gen
            return
        import numpy as np
        x = make()
        self.t[name] = x
        f = os.path.join(self.tmp, f"{name}.npy")
        np.save(f, x.cpu().numpy())
        self.files[name] = f'load("{f}")'

    def let(self, name, as_name=None):
        """The --let binding of input name (to as_name if given)."""
        return f"{as_name or name}={self.files[name]}"


def rows09(args, mod, inp, s, num_sms, hopper):
    """Tutorial 09's kernels at M = N = K = s, one pinned config."""
    bm, bn, bk, group, stages, warps = args.config09
    sub = args.subtile
    want = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": group,
            "num_stages": stages, "num_warps": warps}
    want_tma = dict(want, EPILOGUE_SUBTILE=sub)
    cfg_text = f"{bm}x{bn}x{bk} group {group} stages {stages} warps {warps}"
    torch = None if args.dry_run else __import__("torch")
    inp.add("a", 'randn(M, K, dtype="float16")', lambda: torch.randn(s, s, device="cuda", dtype=torch.float16))
    inp.add("b", 'randn(K, N, dtype="float16")', lambda: torch.randn(s, s, device="cuda", dtype=torch.float16))
    inp.add("bt", 'randn(N, K, dtype="float16")', lambda: inp.t["b"].T.contiguous())
    base = [f"M={s}", f"N={s}", f"K={s}", inp.let("a"), 'c=empty(M, N, dtype="float16")',
            'NUM_SMS=torch.cuda.get_device_properties("cuda").multi_processor_count']
    ptr_lets = base + [inp.let("b")]
    tdesc_lets = base + [inp.let("bt", "b")]
    desc_lets = tdesc_lets + [f"a_desc=TensorDescriptor.from_tensor(a, [{bm}, {bk}])",
                              f"b_desc=TensorDescriptor.from_tensor(b, [{bn}, {bk}])",
                              f"c_desc=TensorDescriptor.from_tensor(c, [{bm}, {bn // 2 if sub else bn}])"]
    tiles = 'triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"])'
    grid = f"lambda META: ({tiles}, )"
    pgrid = f"lambda META: (min(NUM_SMS, {tiles}), )"
    ptr_args = "a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)"
    specs = {
        "naive": ("matmul_kernel", f"matmul_kernel[grid]({ptr_args})", ptr_lets, grid, want, MM_LISTS),
        "persistent": ("matmul_kernel_persistent", f"matmul_kernel_persistent[grid]({ptr_args}, NUM_SMS=NUM_SMS)",
                       ptr_lets, pgrid, want, MM_LISTS),
        "tma": ("matmul_kernel_tma", "matmul_kernel_tma[grid](a_desc, b_desc, c_desc, M, N, K, FP8_OUTPUT=False, "
                "WARP_SPECIALIZE=False)", desc_lets, grid, want, MM_LISTS),
        "tma_persistent": ("matmul_kernel_tma_persistent", "matmul_kernel_tma_persistent[grid](a_desc, b_desc, c_desc, "
                           "M, N, K, FP8_OUTPUT=False, NUM_SMS=NUM_SMS, WARP_SPECIALIZE=False)",
                           desc_lets, pgrid, want_tma, MM_TMA_LISTS),
    }
    for ws in (False, True):
        flatten = not (ws and hopper)
        specs["descriptor_persistent" + ("_ws" if ws else "")] = (
            "matmul_kernel_descriptor_persistent",
            f"matmul_kernel_descriptor_persistent[grid](a, b, c, M, N, K, NUM_SMS=NUM_SMS, WARP_SPECIALIZE={ws}, "
            f"FLATTEN={flatten})", tdesc_lets, pgrid, want_tma, MM_TMA_LISTS)
    out = []
    for kind in args.kernels09:
        kname, launch, lets, g, w, lists = specs[kind]
        kernel = getattr(mod, kname) if mod else None
        idx = pinned_index(kernel, w, expected_index(lists, w), kname)
        config = f"{cfg_text}" + (f" subtile {sub}" if "EPILOGUE_SUBTILE" in w else "") + f" (--config {idx})"
        row = Row(f"09 {kind} {s}^3", args.tutorial09, launch, lets + [f"grid={g}"], ["--config", str(idx)],
                  2.0 * s * s * s, ["c"], TARGET09.get(kind), config, s)
        if mod:
            row.triton = triton09(mod, kind, kernel, w, inp, s, num_sms, hopper)
            row.ref = lambda: {"c": inp.t["a"].float() @ inp.t["b"].float()}
        out.append(row)
    return out


def triton09(mod, kind, kernel, want, inp, s, num_sms, hopper):
    """The Triton launch of 09's kernel `kind` with the pinned config: a
    function that launches it, the output, and the compiled kernel."""
    import torch
    import triton
    from triton.tools.tensor_descriptor import TensorDescriptor
    a, b, bt = inp.t["a"], inp.t["b"], inp.t["bt"]
    c = torch.empty(s, s, device="cuda", dtype=torch.float16)
    meta = dict(want)
    bm, bn, bk = want["BLOCK_SIZE_M"], want["BLOCK_SIZE_N"], want["BLOCK_SIZE_K"]
    tiles = triton.cdiv(s, bm) * triton.cdiv(s, bn)
    fn = kernel.fn
    outs = {"c": c}
    if kind in ("naive", "persistent"):
        args = (a, b, c, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        if kind == "naive":
            return lambda: fn[(tiles, )](*args, **meta), outs
        return lambda: fn[(min(num_sms, tiles), )](*args, NUM_SMS=num_sms, **meta), outs
    if kind.startswith("descriptor_persistent"):
        ws = kind.endswith("_ws")
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
        return (lambda: fn[(min(num_sms, tiles), )](a, bt, c, s, s, s, NUM_SMS=num_sms, WARP_SPECIALIZE=ws,
                                                     FLATTEN=not (ws and hopper), **meta), outs)
    sub = want.get("EPILOGUE_SUBTILE", False)
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(bt, [bn, bk])
    c_desc = TensorDescriptor.from_tensor(c, [bm, bn // 2 if sub else bn])
    if kind == "tma":
        return lambda: fn[(tiles, )](a_desc, b_desc, c_desc, s, s, s, FP8_OUTPUT=False, WARP_SPECIALIZE=False,
                                     **meta), outs
    return (lambda: fn[(min(num_sms, tiles), )](a_desc, b_desc, c_desc, s, s, s, FP8_OUTPUT=False, NUM_SMS=num_sms,
                                                WARP_SPECIALIZE=False, **meta), outs)


def rows08(args, mod, inp, shape, num_sms):
    """Tutorial 08's two kernels on one of its benchmark shapes: a group of 4 (M, N, K)."""
    kind, v = shape
    m, n, k = (v, v, v) if kind == "square" else (v, BATCH_NK, BATCH_NK)
    lets = [f"M={m}", f"N={n}", f"K={k}"]
    torch = None if args.dry_run else __import__("torch")
    for i in range(GROUP):
        inp.add(f"A{i}", 'rand(M, K, dtype="float16")', lambda: torch.rand(m, k, device="cuda", dtype=torch.float16))
        inp.add(f"B{i}", 'rand(K, N, dtype="float16")', lambda: torch.rand(k, n, device="cuda", dtype=torch.float16))
        inp.add(f"BT{i}", 'rand(N, K, dtype="float16")', lambda: inp.t[f"B{i}"].T.contiguous())
        lets += [inp.let(f"A{i}"), f'C{i}=empty(M, N, dtype="float16")']
    names = lambda x: ", ".join(f"{x}{i}" for i in range(GROUP))
    common = [f"d_a_ptrs=ptrs({names('A')})", f"d_c_ptrs=ptrs({names('C')})",
              f'd_g_sizes=tensor({[m, n, k] * GROUP}, dtype="int32")',
              f"group_size={GROUP}", 'grid=lambda META: (META["NUM_SM"], )']
    flops = 2.0 * m * n * k * GROUP
    ptr_lets = lets + [inp.let(f"B{i}") for i in range(GROUP)] + common + [
        f"d_b_ptrs=ptrs({names('B')})", f'd_g_lds=tensor({[k, n, n] * GROUP}, dtype="int32")']
    tma_lets = lets + [inp.let(f"BT{i}") for i in range(GROUP)] + common + [
        f"d_b_ptrs=ptrs({names('BT')})", f'd_g_lds=tensor({[k, k, n] * GROUP}, dtype="int32")']
    bm, bn, bk = args.config08
    sms = num_sms or SMS_DRY
    want = {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "NUM_SM": sms, "num_warps": 4, "num_stages": 3}
    dry = next((i for i, c in enumerate(G_PTR_LIST) if c[:3] == (bm, bn, bk) and c[3] is None), None)
    if dry is None:
        raise SystemExit(f"--config08 {bm},{bn},{bk}: not one of 08's configs with NUM_SM = num_sms()")
    kptr = mod.grouped_matmul_kernel if mod else None
    iptr = pinned_index(kptr, want, dry, "grouped_matmul_kernel")
    tbm, tbn, tbk, tstages, twarps = args.config08_tma
    want_tma = {"BLOCK_SIZE_M": tbm, "BLOCK_SIZE_N": tbn, "BLOCK_SIZE_K": tbk, "num_stages": tstages,
                "num_warps": twarps}
    ktma = mod.grouped_matmul_tma_kernel if mod else None
    itma = pinned_index(ktma, want_tma, expected_index(G_TMA_LISTS, want_tma), "grouped_matmul_tma_kernel")
    label = f"{kind} {m}x{n}x{k}"
    ptr = Row(f"08 ptr x4 {label}", args.tutorial08,
              "grouped_matmul_kernel[grid](d_a_ptrs, d_b_ptrs, d_c_ptrs, d_g_sizes, d_g_lds, group_size)",
              ptr_lets, ["--config", str(iptr)], flops, [f"C{i}" for i in range(GROUP)], TARGET08,
              f"{bm}x{bn}x{bk} NUM_SM {'num_sms()' if not num_sms else sms} stages 3 warps 4 (--config {iptr})", None)
    tma = Row(f"08 tma x4 {label}", args.tutorial08,
              "grouped_matmul_tma_kernel[grid](d_a_ptrs, d_b_ptrs, d_c_ptrs, d_g_sizes, d_g_lds, group_size, "
              "FP8=torch.float8_e4m3fn == A0.dtype, NUM_SM=num_sms())",
              tma_lets, ["--config", str(itma)], flops, [f"C{i}" for i in range(GROUP)], TARGET08,
              f"{tbm}x{tbn}x{tbk} stages {tstages} warps {twarps} NUM_SM num_sms() (--config {itma})", None)
    if mod:
        ref = lambda: {f"C{i}": inp.t[f"A{i}"].float() @ inp.t[f"B{i}"].float() for i in range(GROUP)}
        ptr.ref = tma.ref = ref
        ptr.triton = triton08(mod, kptr, want, inp, m, n, k, tma=False)
        tma.triton = triton08(mod, ktma, dict(want_tma, NUM_SM=num_sms, FP8=False), inp, m, n, k, tma=True)
    return [ptr, tma]


def triton08(mod, kernel, meta, inp, m, n, k, tma):
    """The Triton launch of one of 08's kernels with the pinned config, as the
    tutorial's triton_perf_fn / triton_tma_perf_fn launch them."""
    import torch
    import triton
    bs = [inp.t[f"{'BT' if tma else 'B'}{i}"] for i in range(GROUP)]
    cs = [torch.empty(m, n, device="cuda", dtype=torch.float16) for _ in range(GROUP)]
    dev = lambda xs, dt=None: torch.tensor(xs, device="cuda", dtype=dt)
    a_ptrs = dev([inp.t[f"A{i}"].data_ptr() for i in range(GROUP)])
    b_ptrs = dev([b.data_ptr() for b in bs])
    c_ptrs = dev([c.data_ptr() for c in cs])
    sizes = dev([m, n, k] * GROUP, torch.int32)
    lds = dev([k, k if tma else n, n] * GROUP, torch.int32)
    if tma:
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    grid = (meta["NUM_SM"], )
    fn = kernel.fn
    outs = {f"C{i}": c for i, c in enumerate(cs)}
    return lambda: fn[grid](a_ptrs, b_ptrs, c_ptrs, sizes, lds, GROUP, **meta), outs


# ---- loading a tutorial file


def load_tutorial(path, name):
    """Imports the tutorial file at path, running its imports, definitions
    and assignments up to its first other top-level statement (08 checks
    and benchmarks its kernels at its end); the functions keep the file's
    name and lines, so Triton reads their source from it."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    keep = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign, ast.If)
    body = []
    for i, node in enumerate(tree.body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if not (docstring or isinstance(node, keep)):
            break
        body.append(node)
    mod = types.ModuleType(name)
    mod.__file__ = path
    sys.modules[name] = mod
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), mod.__dict__)
    return mod


# ---- running a row


def fmt_res(r):
    """regs / spills / shared-memory bytes."""
    if r is None:
        return "-"
    regs, spills, smem = r
    return f"{regs} regs, {spills} spill, {smem} B smem"


def dump_sass(args, row, compiled):
    """Writes the SASS of both sides' kernels of row under args.sass and
    prints their main loops side by side (bench/sass_loop.py)."""
    os.makedirs(args.sass, exist_ok=True)
    base = os.path.join(args.sass, re.sub(r"[^A-Za-z0-9_.-]+", "_", row.name))
    try:
        with open(base + ".triton.cubin", "wb") as f:
            f.write(compiled.asm["cubin"])
        run_tri([args.tri, "build", row.path, row.launch] + lets_args(row.lets) + list(row.extra) +
                ["--arch", "sm_90a", "-o", base + ".tri.cu"])
        subprocess.run(["nvcc", "-cubin", "-arch=sm_90a", "-o", base + ".tri.cubin", base + ".tri.cu"], check=True,
                       capture_output=True, text=True)
        for side in ("tri", "triton"):
            with open(f"{base}.{side}.sass", "w") as f:
                subprocess.run(["cuobjdump", "-sass", f"{base}.{side}.cubin"], check=True, stdout=f, text=True)
        out = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "sass_loop.py"),
                              base + ".tri.sass", base + ".triton.sass", "--top", "12"],
                             check=True, capture_output=True, text=True).stdout
        print(f"# SASS of {row.name} (tri, Triton):\n{out}", flush=True)
    except (OSError, RuntimeError, subprocess.CalledProcessError, KeyError) as e:
        print(f"{row.name}: no SASS: {str(e)[:200]}", flush=True)


def triton_resources(kernel_obj):
    """Registers, spills and shared memory of a kernel Triton compiled."""
    if kernel_obj is None:
        return None
    regs = getattr(kernel_obj, "n_regs", None)
    spills = getattr(kernel_obj, "n_spills", None)
    md = getattr(kernel_obj, "metadata", None)
    smem = getattr(md, "shared", None) if md is not None else None
    if regs is None:
        return None
    return regs, spills, smem


TRI_RESOURCES = {}  # Row.kernel_key -> tri's resources
START = time.monotonic()


def run_row(args, row, tmp):
    """Times one row under both; returns Triton's and tri's TFLOP/s, the
    output difference, and both sides' resources."""
    from bench_attention import max_abs_diff, time_both
    launch_fn, outs = row.triton
    compiled = launch_fn()  # compiles; JITFunction.run returns the compiled kernel
    ms, tri_ms, t_all, r_all = time_both(args, launch_fn, row.path, row.launch, row.lets, row.extra)
    notes = []
    if not args.no_verify:
        launch_fn()
        saves = {o: os.path.join(tmp, f"tri_{o}.npy") for o in row.outputs}
        run_tri(tri_run_cmd(args.tri, row.path, row.launch, row.lets, saves, row.extra))
        d = max(max_abs_diff(saves[o], outs[o]) for o in row.outputs)
        notes.append(f"{'c' if row.outputs == ['c'] else 'C*'} {d:.2e}")
        if row.ref:
            # Which side is off, where they differ: each against torch in fp32.
            ref = row.ref()
            dt = max(max_abs_diff(saves[o], ref[o]) for o in row.outputs)
            dr = max((outs[o].float() - ref[o]).abs().max().item() for o in row.outputs)
            notes.append(f"(vs torch: tri {dt:.2e}, Triton {dr:.2e})")
    if row.kernel_key not in TRI_RESOURCES:
        try:
            r = tri_resources(args.tri, row.path, row.launch, row.lets, row.extra)
            TRI_RESOURCES[row.kernel_key] = None if r is None else (r[0], f"{r[1]}+{r[2]}", r[3])
        except RuntimeError as e:
            TRI_RESOURCES[row.kernel_key] = None
            print(f"{row.name}: no resource report from tri: {str(e).splitlines()[-1][:100]}", flush=True)
    res = (fmt_res(triton_resources(compiled)), fmt_res(TRI_RESOURCES[row.kernel_key]))
    if args.sass:
        dump_sass(args, row, compiled)
    print(f"{row.name:34} triton {row.flops / (ms * 1e9):7.1f} TFLOP/s {t_all} ms  "
          f"tri {row.flops / (tri_ms * 1e9):7.1f} TFLOP/s {r_all} ms  {' '.join(notes)}  "
          f"Triton {res[0]}; tri {res[1]}  [{time.monotonic() - START:.0f} s]", flush=True)
    return row.flops / (ms * 1e9), row.flops / (tri_ms * 1e9), " ".join(notes), res


def dry_row(args, row):
    """Prints the tri commands of a row; with --interpret runs its `tri run` in the interpreter."""
    print(f"# {row.name}: {row.config}")
    print(shlex.join(tri_bench_cmd(args.tri, row.path, row.launch, row.lets, row.extra)))
    print(shlex.join(tri_run_cmd(args.tri, row.path, row.launch, row.lets, {o: f"tri_{o}.npy" for o in row.outputs},
                                 row.extra)))
    print(shlex.join(tri_resources_cmd(args.tri, row.path, row.launch, row.lets, row.extra)))
    if args.interpret:
        cmd = tri_run_cmd(args.tri, row.path, row.launch, row.lets, None, row.extra) + ["--interpret"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        last = (p.stdout + p.stderr).strip().splitlines()
        print(f"# interpret: {'PASS' if p.returncode == 0 else 'FAIL (exit %d)' % p.returncode}: "
              + ("\n#   ".join(last[-1:] if p.returncode == 0 else last[-12:])))
        return p.returncode == 0
    return True


def ints(text, n, flag):
    v = [int(x) for x in text.split(",")]
    if len(v) != n:
        raise SystemExit(f"{flag}: want {n} comma-separated integers, got {text!r}")
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--tutorial09", metavar="PATH", help="Triton's 09-persistent-matmul.py")
    ap.add_argument("--tutorial08", metavar="PATH", help="Triton's 08-grouped-gemm.py")
    ap.add_argument("--quick", action="store_true",
                    help=f"09 at {QUICK_SIZES} and 08 at {QUICK_SHAPES08} only, one round")
    ap.add_argument("--sizes", default=None, help=f"09's M = N = K (default {FULL_SIZES})")
    ap.add_argument("--kernels09", default=",".join(KERNELS09), help="09's kernels to time (default all)")
    ap.add_argument("--config09", default="128,256,64,8,3,8", help="BM,BN,BK,GROUP,STAGES,WARPS for 09's kernels")
    ap.add_argument("--subtile", action="store_true", help="EPILOGUE_SUBTILE=True for 09's descriptor kernels")
    ap.add_argument("--shapes08", default=None, help=f"08's shapes (default {FULL_SHAPES08})")
    ap.add_argument("--config08", default="128,128,64", help="BM,BN,BK of grouped_matmul_kernel (NUM_SM = num_sms())")
    ap.add_argument("--config08-tma", default="128,256,64,3,8", help="BM,BN,BK,STAGES,WARPS of grouped_matmul_tma_kernel")
    ap.add_argument("--rounds", type=int, default=None, help="alternating rounds per row (default 3, 1 with --quick)")
    ap.add_argument("--no-verify", action="store_true", help="skip comparing tri's output with Triton's")
    ap.add_argument("--sass", metavar="DIR", help="write each kernel's SASS under DIR (Triton's cubin; tri's .cu through "
                    "nvcc -cubin) and print the main loops side by side (sass_loop.py)")
    ap.add_argument("--dry-run", action="store_true", help="print the tri commands; no GPU, torch or Triton needed")
    ap.add_argument("--interpret", action="store_true", help="with --dry-run: run each row's tri run --interpret")
    args = ap.parse_args()
    if not (args.tutorial09 or args.tutorial08):
        ap.error("give --tutorial09 PATH and/or --tutorial08 PATH")
    if args.interpret and not args.dry_run:
        ap.error("--interpret goes with --dry-run")
    if not args.dry_run or os.path.sep in args.tri:
        args.tri = os.path.abspath(args.tri)
    for t in ("tutorial09", "tutorial08"):
        if getattr(args, t):
            setattr(args, t, os.path.abspath(getattr(args, t)))
    if args.rounds is None:
        args.rounds = 1 if args.quick else 3
    args.config09 = ints(args.config09, 6, "--config09")
    args.config08 = ints(args.config08, 3, "--config08")
    args.config08_tma = ints(args.config08_tma, 5, "--config08-tma")
    args.kernels09 = args.kernels09.split(",")
    for k in args.kernels09:
        if k not in KERNELS09:
            ap.error(f"--kernels09: unknown kernel {k!r} (have {', '.join(KERNELS09)})")
    sizes = [int(s) for s in (args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES)).split(",")]
    shapes08 = []
    for sh in (args.shapes08 or (QUICK_SHAPES08 if args.quick else FULL_SHAPES08)).split(","):
        kind, _, v = sh.partition(":")
        if kind not in ("square", "batch") or not v.isdigit():
            ap.error(f"--shapes08: want square:N or batch:M, got {sh!r}")
        shapes08.append((kind, int(v)))

    num_sms, hopper, mod09, mod08 = None, True, None, None
    if not args.dry_run:
        import torch
        num_sms = torch.cuda.get_device_properties("cuda").multi_processor_count
        hopper = torch.cuda.get_device_capability()[0] == 9
        torch.manual_seed(0)
        if args.tutorial09:
            mod09 = load_tutorial(args.tutorial09, "tutorial09")
        if args.tutorial08:
            mod08 = load_tutorial(args.tutorial08, "tutorial08")

    # (name, Triton TFLOP/s, tri TFLOP/s, note, resources, target)
    results, configs, ok = [], {}, True
    work = []
    if args.tutorial09:
        work += [(f"09 M=N=K={s}", lambda inp, s=s: rows09(args, mod09, inp, s, num_sms, hopper)) for s in sizes]
    if args.tutorial08:
        work += [(f"08 {sh[0]} {sh[1]}", lambda inp, sh=sh: rows08(args, mod08, inp, sh, num_sms)) for sh in shapes08]
    for what, make in work:
        tmp = tempfile.mkdtemp()
        try:
            try:
                rows = make(Inputs(tmp, args.dry_run))
            except Exception as e:  # noqa: BLE001 (one failing shape does not end the table)
                if args.dry_run:
                    raise
                print(f"{what}: FAILED to set up: {e}", flush=True)
                results.append((what, None, None, f"FAILED: {str(e).splitlines()[0][:80]}", None, None))
                continue
            for row in rows:
                configs.setdefault(row.name.split(" ")[0] + " " + row.name.split(" ")[1], row.config)
                if args.dry_run:
                    ok = dry_row(args, row) and ok
                    continue
                try:
                    t, r, note, res = run_row(args, row, tmp)
                except Exception as e:  # noqa: BLE001 (one failing row does not end the table)
                    print(f"{row.name}: FAILED: {e}", flush=True)
                    results.append((row.name, None, None, f"FAILED: {str(e).splitlines()[0][:80]}", None, None))
                    continue
                results.append((row.name, t, r, note, res, row.target))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.dry_run:
        sys.exit(0 if ok else 1)

    print()
    print("configs, the same on both sides:")
    for k, v in configs.items():
        print(f"  {k:28} {v}")
    print("fp16 in and out, fp32 accumulation; TFLOP/s = 2*M*N*K (summed over 08's group of 4) / median time;"
          " resources: Triton's (n_regs, n_spills, shared) and tri's (NVRTC: registers, spill stores+loads bytes,"
          " static+dynamic shared bytes)")
    print(f"{'workload':34} {'Triton TFLOP/s':>14} {'tri TFLOP/s':>12} {'tri/Triton':>10}  {'max |diff|':12} "
          f"{'Triton resources':34} tri resources")
    for name, t, r, note, res, target in results:
        if t is None:
            print(f"{name:34} {'-':>14} {'-':>12} {'-':>10}  {note}")
            continue
        mark = " (below %.2f)" % target if target and r / t < target else ""
        print(f"{name:34} {t:14.1f} {r:12.1f} {r / t:10.3f}  {note:12} {res[0]:34} {res[1]}{mark}")


if __name__ == "__main__":
    main()
