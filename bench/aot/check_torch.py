#!/usr/bin/env python3
"""Call a C library that `tri build --aot` exported from PyTorch, and
compare with real Triton running the same kernel source.

The library (bench/aot_check.sh links tutorial 01's add_kernel and tutorial
03's matmul_kernel into one shared object) is loaded with ctypes; each
launch gets torch tensors' data_ptr() and the current stream's handle
(torch.cuda.current_stream().cuda_stream). Triton imports the same sample
files, unchanged, and launches them with the same meta-parameters, num_warps
and num_stages that the library was specialized for. Prints one line per
launch:

    RESULT python FORM KERNEL SHAPE ok|FAIL max_abs_diff load_ms

the difference being from Triton's output (exact for the add; for the
matmul within the sample's tolerance, 1e-2 absolute and relative).

Usage: check_torch.py --lib LIB.so --form NAME [--samples DIR]
"""
import argparse
import ctypes
import importlib.util
import os
import shutil
import sys
import tempfile
import time

import torch
import triton

# The specialization bench/aot_check.sh exports the matmul with.
MATMUL_META = dict(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
                   ACTIVATION="leaky_relu", num_warps=4, num_stages=4)

FAILURES = 0


def import_sample(path, tmp):
    """Imports a .tri sample (Python with header comments) under Triton."""
    mod_path = os.path.join(tmp, "aot_" + os.path.basename(path).replace(".", "_") + ".py")
    shutil.copy(path, mod_path)
    spec = importlib.util.spec_from_file_location(os.path.basename(mod_path)[:-3], mod_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def report(form, kernel, shape, ok, diff, load_ms):
    global FAILURES
    print(f"RESULT python {form} {kernel} {shape} {'ok' if ok else 'FAIL'} {diff:.3g} {load_ms:.1f}", flush=True)
    if not ok:
        FAILURES += 1


def load(lib, name):
    """Loads one kernel of the library into torch's context, timed."""
    t = time.perf_counter()
    err = getattr(lib, "load_" + name)()
    ms = (time.perf_counter() - t) * 1e3
    if err != 0:
        msg = getattr(lib, name + "_error")().decode()
        print(f"load_{name}: CUresult {err}: {msg}", file=sys.stderr)
    return err, ms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--form", required=True)
    ap.add_argument("--samples", default=os.path.join(os.path.dirname(__file__), "..", "..", "samples"))
    args = ap.parse_args()

    lib = ctypes.CDLL(os.path.abspath(args.lib))
    ptr, i32 = ctypes.c_uint64, ctypes.c_int32
    lib.add_kernel.argtypes = [ctypes.c_void_p, ptr, ptr, ptr, i32]
    lib.matmul_kernel.argtypes = [ctypes.c_void_p, ptr, ptr, ptr] + [i32] * 6
    for name in ("add_kernel", "matmul_kernel"):
        getattr(lib, name).restype = ctypes.c_int
        getattr(lib, "load_" + name).restype = ctypes.c_int
        getattr(lib, name + "_error").restype = ctypes.c_char_p

    # Triton reads a kernel's source when it compiles: the copies stay.
    tmp = tempfile.mkdtemp()
    add_mod = import_sample(os.path.join(args.samples, "add.tri"), tmp)
    mm_mod = import_sample(os.path.join(args.samples, "matmul_tutorial03.tri"), tmp)

    torch.manual_seed(0)
    device = torch.device("cuda")
    torch.empty(1, device=device)  # makes torch's context current on this thread
    # A stream of torch's own, so that the handle is not the default stream's 0.
    side = torch.cuda.Stream()

    err, add_load = load(lib, "add_kernel")
    for n in (98432, 1000003):
        if err != 0:
            report(args.form, "add", f"n={n}", False, float("inf"), add_load)
            continue
        x = torch.rand(n, device=device)
        y = torch.rand(n, device=device)
        got = torch.full_like(x, float("nan"))
        want = torch.empty_like(x)
        side.wait_stream(torch.cuda.current_stream())  # x and y are made on the default stream
        with torch.cuda.stream(side):
            rc = lib.add_kernel(torch.cuda.current_stream().cuda_stream, x.data_ptr(), y.data_ptr(), got.data_ptr(), n)
        side.synchronize()
        add_mod.add_kernel[(triton.cdiv(n, 1024),)](x, y, want, n, BLOCK_SIZE=1024)
        torch.cuda.synchronize()
        same = rc == 0 and torch.equal(got, want)
        diff = (got - want).abs().max().item() if rc == 0 else float("inf")
        report(args.form, "add", f"n={n}", same, diff, add_load)

    err, mm_load = load(lib, "matmul_kernel")
    for m, n, k in ((273, 201, 150), (1024, 768, 512)):
        shape = f"{m}x{n}x{k}"
        if err != 0:
            report(args.form, "matmul", shape, False, float("inf"), mm_load)
            continue
        a = torch.randn(m, k, device=device, dtype=torch.float16)
        b = torch.randn(k, n, device=device, dtype=torch.float16)
        got = torch.full((m, n), float("nan"), device=device, dtype=torch.float16)
        want = torch.empty_like(got)
        stream = torch.cuda.current_stream().cuda_stream
        # The unit strides (a.stride(1), b.stride(1), c.stride(1)) are
        # folded into the library: its signature said i32:1.
        rc = lib.matmul_kernel(stream, a.data_ptr(), b.data_ptr(), got.data_ptr(), m, n, k,
                               a.stride(0), b.stride(0), got.stride(0))
        grid = (triton.cdiv(m, MATMUL_META["BLOCK_SIZE_M"]) * triton.cdiv(n, MATMUL_META["BLOCK_SIZE_N"]),)
        # The autotuner's own JITFunction, with the exported config pinned.
        mm_mod.matmul_kernel.fn[grid](a, b, want, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      want.stride(0), want.stride(1), **MATMUL_META)
        torch.cuda.synchronize()
        if rc != 0:
            report(args.form, "matmul", shape, False, float("inf"), mm_load)
            continue
        d = (got.float() - want.float()).abs()
        ok = bool(torch.all(d <= 1e-2 + 1e-2 * want.float().abs()).item())
        report(args.form, "matmul", shape, ok, d.max().item(), mm_load)
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
