#!/usr/bin/env python3
"""Run tri's samples and test kernels under real Triton and compare.

For every kernel file given (each records its launch in "# launch:", "# let:",
"# check:" and optional "# tolerance:" header lines; "# triton-tolerance:"
overrides the tolerance of the comparison with Triton alone; "# triton-differs:
OUTPUT REASON" records an output where Triton is known to be wrong, reported
with its reason and not counted as a failure, or as stale where it matches),
this script

  1. runs the launch in tri's interpreter (`tri run --interpret`), saving every
     input before the launch (--save-inputs) and the checked outputs after it;
  2. optionally (--gpu) runs the same launch on the GPU with tri (`tri run`);
  3. imports the file under real Triton, rebuilds the bindings from the saved
     inputs (numbers are evaluated from the --let text), evaluates the launch
     line as Python, and compares each checked output of tri with Triton's:
     bit for bit where the tolerance is "exact" (and by default for integer
     outputs), within N units in the last place for "ulp=N" (default 4 for
     floats).

A FILE may also be a spec (`.spec`): the same header lines plus "# file:"
naming a kernel file of another project, unchanged, and "# root:" the
source root of its Python package. tri then runs that file with --root, and
Triton imports it as the package module it is (relative imports work), so a
kernel of a real project is compared without copying or editing it.

Usage: triton_compare.py --tri bin/tri [--gpu] [--log DIR] FILE...
Exit status 1 if any comparison fails.
"""
import argparse
import importlib.util
import math
import os
import shutil
import subprocess
import sys
import tempfile
import tokenize

import numpy as np
import torch
import triton
import triton.language as tl


def header_lines(path):
    """The comment lines before the file's first statement, a module
    docstring not counting as one: where tri reads its header."""
    with open(path, "rb") as f:
        docstring = False
        try:
            for tok in tokenize.tokenize(f.readline):
                if tok.type in (tokenize.ENCODING, tokenize.NL, tokenize.NEWLINE):
                    continue
                if tok.type == tokenize.COMMENT:
                    yield tok.string
                elif tok.type == tokenize.STRING and not docstring:
                    docstring = True
                else:
                    return
        except (tokenize.TokenError, SyntaxError):
            return


def read_header(path):
    h = {"launch": None, "let": [], "check": [], "tolerance": "", "triton-tolerance": "", "file": None, "root": None, "triton-capability": None, "triton-differs": {}}
    for s in header_lines(path):
        body = s[1:].strip()
        if ":" not in body:
            continue
        key, val = body.split(":", 1)
        key, val = key.strip(), val.strip()
        if key == "launch":
            h["launch"] = val
        elif key == "let":
            h["let"].append(val)
        elif key == "check":
            h["check"] += val.split()
        elif key in ("tolerance", "triton-tolerance"):
            h[key] = val
        elif key in ("file", "root"):
            h[key] = val
        elif key == "triton-differs":
            # "OUTPUT REASON": Triton's OUTPUT is known to differ from the
            # kernel's meaning (a Triton defect, or its TMA stores writing
            # past a tensor's edge); tri's is checked against the
            # interpreter and the Go references instead.
            name, _, why = val.partition(" ")
            h[key][name] = why.strip()
        elif key == "triton-capability":
            # the least compute capability (major) Triton runs the kernel on
            h[key] = int(val)
    return h


def ordered(a):
    """Map float bits to integers whose order is the floats' order."""
    if a.dtype == np.float16:
        bits, sign = a.view(np.uint16).astype(np.int64), 15
    elif a.dtype == np.float32:
        bits, sign = a.view(np.uint32).astype(np.int64), 31
    else:
        bits, sign = a.view(np.uint64).astype(np.int64), 63
    mag = bits & ((1 << sign) - 1)
    return np.where((bits >> sign) & 1 == 1, -mag, mag)


# KNOWN lists the outputs that differ from Triton as their file's
# triton-differs line says; STALE those that such a line names but match.
KNOWN, STALE = [], []

# MAX_ULPS records, per comparison of float outputs, the largest distance
# seen in units in the last place, for the summary.
MAX_ULPS = {}
# REL_FRO records the relative Frobenius error ||tri - triton|| / ||triton||
# of the float outputs of files that call tl.dot, the measure the matmul
# tolerances are stated in (1e-2 for fp16, 5e-3 for tf32, 1e-5 for ieee fp32).
REL_FRO = {}


def compare(name, got, want, tol, bf16=False):
    """Returns an error string or None."""
    if got.shape != want.shape:
        return f"{name}: shape {got.shape} vs {want.shape}"
    ulps = 4 if not tol and np.issubdtype(want.dtype, np.floating) else 0
    atol = 0.0
    for f in (tol or "").split():
        if f.startswith("ulp="):
            ulps = int(f[4:])
        elif f.startswith("atol="):
            atol = float(f[5:])
    if not np.issubdtype(want.dtype, np.floating):
        bad = got != want
    else:
        if bf16:
            # bf16 values travel as float32; compare on the bf16 grid
            g = torch.from_numpy(got.astype(np.float32)).to(torch.bfloat16).view(torch.int16).numpy().astype(np.int64)
            w = torch.from_numpy(want.astype(np.float32)).to(torch.bfloat16).view(torch.int16).numpy().astype(np.int64)
            conv = lambda b: np.where(b < 0, -(b & 0x7FFF), b)
            d = np.abs(conv(g) - conv(w))
        else:
            d = np.abs(ordered(got) - ordered(want))
        both_nan = np.isnan(got) & np.isnan(want)
        bad = (d > ulps) & ~both_nan
        if atol > 0:
            bad &= ~(np.abs(got.astype(np.float64) - want.astype(np.float64)) <= atol)
        bad |= np.isnan(got) != np.isnan(want)
    n = int(bad.sum())
    if np.issubdtype(want.dtype, np.floating):
        finite = ~np.isnan(got) & ~np.isnan(want)
        worst = int(d[finite].max()) if finite.any() else 0
        MAX_ULPS[name] = worst
        if "dot" in name or "matmul" in name:
            g64, w64 = got[finite].astype(np.float64), want[finite].astype(np.float64)
            REL_FRO[name] = float(np.linalg.norm(g64 - w64) / max(np.linalg.norm(w64), 1e-300))
    if n == 0:
        return None
    i = int(np.flatnonzero(bad.ravel())[0])
    return f"{name}: {n} of {bad.size} differ (first at {i}: tri {got.ravel()[i]!r}, triton {want.ravel()[i]!r})"


def import_kernels(path, tmp, root=None):
    if root:
        # a module of a package: import it by its dotted name under root
        sys.path.insert(0, os.path.abspath(root))
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
        return importlib.import_module(rel[:-3].replace(os.sep, "."))
    mod_path = os.path.join(tmp, "kernels_" + os.path.basename(path).replace(".", "_") + ".py")
    shutil.copy(path, mod_path)
    spec = importlib.util.spec_from_file_location(os.path.basename(mod_path)[:-3], mod_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TORCH_DTYPES = {
    "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
    "float64": torch.float64, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
    "int64": torch.int64, "uint8": torch.uint8, "uint16": torch.uint16, "uint32": torch.uint32,
    "uint64": torch.uint64, "bool": torch.bool,
}

# fp8 bindings: tri saves their codes as uint8 (numpy has no fp8); they are
# viewed as torch's fp8 dtypes for Triton, and Triton's fp8 outputs are
# viewed back as uint8 codes to compare bit for bit.
FP8_DTYPES = {
    "float8e4nv": torch.float8_e4m3fn, "float8_e4m3fn": torch.float8_e4m3fn,
    "float8e5": torch.float8_e5m2, "float8_e5m2": torch.float8_e5m2,
    "float8e4b8": torch.float8_e4m3fnuz, "float8_e4m3fnuz": torch.float8_e4m3fnuz,
    "float8e5b16": torch.float8_e5m2fnuz, "float8_e5m2fnuz": torch.float8_e5m2fnuz,
}


def let_dtype(expr):
    for name in list(FP8_DTYPES) + list(TORCH_DTYPES):
        if f"'{name}'" in expr or f'"{name}"' in expr:
            return name
    return None


def run_tri(args, cmd, log):
    p = subprocess.run(cmd, capture_output=True, text=True)
    log.write("$ " + " ".join(cmd) + "\n" + p.stdout + p.stderr + "\n")
    if p.returncode != 0:
        raise RuntimeError(f"tri failed ({p.returncode}): {p.stderr.strip()[:500]}")


def check_file(args, path, log):
    h = read_header(path)
    if not h["launch"]:
        return [f"{path}: no # launch: line"]
    if h["triton-capability"] and torch.cuda.get_device_capability()[0] < h["triton-capability"]:
        return None
    spec = path
    if h["file"]:
        path = h["file"]
    tmp = tempfile.mkdtemp(prefix="tricmp")
    lets = ["--root", h["root"]] if h["root"] else []
    for l in h["let"]:
        lets += ["--let", l]
    ins = os.path.join(tmp, "in")
    saves = []
    for c in h["check"]:
        saves += ["--save", f"{c}={os.path.join(tmp, 'interp_' + c + '.npy')}"]
    outs = {}
    try:
        run_tri(args, [args.tri, "run", "--interpret", path, h["launch"], *lets, "--save-inputs", ins, *saves], log)
        outs["interp"] = {c: np.load(os.path.join(tmp, "interp_" + c + ".npy")) for c in h["check"]}
    except RuntimeError as e:
        # Inline PTX runs on the GPU only: the GPU run saves the inputs.
        if "inline_asm_elementwise runs PTX" not in str(e):
            raise
        if not args.gpu:
            return [f"{path}: inline PTX runs on the GPU only; pass --gpu"]
        lets += ["--save-inputs", ins]
    if args.gpu:
        saves = []
        for c in h["check"]:
            saves += ["--save", f"{c}={os.path.join(tmp, 'gpu_' + c + '.npy')}"]
        run_tri(args, [args.tri, "run", path, h["launch"], *lets, *saves], log)
        outs["gpu"] = {c: np.load(os.path.join(tmp, "gpu_" + c + ".npy")) for c in h["check"]}

    mod = import_kernels(path, tmp, h["root"])
    ns = dict(vars(mod))
    ns.update(triton=triton, tl=tl, cdiv=triton.cdiv, next_power_of_2=triton.next_power_of_2, torch=torch)
    bf16 = set()

    def ptrs(*ts, dtype="int64"):
        # a pointer table: the device addresses of tensors bound before it
        return torch.tensor([t.data_ptr() for t in ts], dtype=TORCH_DTYPES[dtype], device="cuda")

    ns["ptrs"] = ptrs
    for l in h["let"]:
        name, expr = l.split("=", 1)
        name = name.strip()
        f = os.path.join(ins, name + ".npy")
        if expr.strip().startswith("ptrs("):
            ns[name] = eval(expr, ns)
        elif os.path.exists(f):
            arr = np.load(f)
            t = torch.from_numpy(arr)
            if let_dtype(expr) == "bfloat16":
                t = t.to(torch.bfloat16)
                bf16.add(name)
            elif let_dtype(expr) in FP8_DTYPES:
                t = t.view(FP8_DTYPES[let_dtype(expr)])
            ns[name] = t.cuda()
        else:
            ns[name] = eval(expr, ns)
    eval(h["launch"], ns)
    torch.cuda.synchronize()
    errs = []
    for c in h["check"]:
        want = ns[c]
        if want.dtype == torch.bfloat16:
            want = want.float()
        elif want.dtype in FP8_DTYPES.values():
            want = want.view(torch.uint8)
        want = want.cpu().numpy()
        for where, got in outs.items():
            # Against Triton a file may allow more than its own check: two
            # implementations each within N ulp of the exact value (another
            # libdevice) may be up to 2N apart.
            tol = h["triton-tolerance"] or h["tolerance"]
            e = compare(f"{os.path.basename(spec)} {c} ({where} vs triton)", got[c], want, tol, c in bf16)
            if e and c in h["triton-differs"]:
                KNOWN.append(f"{path}: {c}: {h['triton-differs'][c]}")
            elif e:
                errs.append(e)
            elif c in h["triton-differs"]:
                STALE.append(f"{path}: {c} matches Triton ({where}): its triton-differs line is stale")
    shutil.rmtree(tmp, ignore_errors=True)
    return errs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("--gpu", action="store_true", help="also run tri on the GPU and compare")
    ap.add_argument("--log", default=None, help="write tri's output here")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    log = open(args.log, "w") if args.log else open(os.devnull, "w")
    failed = 0
    rows = []
    for path in args.files:
        try:
            errs = check_file(args, path, log)
        except Exception as e:  # report and go on with the next file
            errs = [f"{path}: {type(e).__name__}: {e}"]
        if errs is None:
            print(f"skip {path} (Triton needs a newer GPU for it)", flush=True)
            continue
        status = "ok" if not errs else "FAIL"
        failed += bool(errs)
        rows.append((status, path))
        for e in errs:
            print("  " + e)
        print(f"{status:4} {path}", flush=True)
    if MAX_ULPS:
        print("\nlargest float differences from Triton (ulp of the output dtype):")
        for k in sorted(MAX_ULPS):
            if MAX_ULPS[k] > 0:
                print(f"  {MAX_ULPS[k]:4d}  {k}")
        print(f"  (all other float comparisons: 0 ulp, bit for bit; {sum(1 for v in MAX_ULPS.values() if v == 0)} of them)")
    if REL_FRO:
        print("\nrelative Frobenius error from Triton (dots and matmuls):")
        for k in sorted(REL_FRO):
            print(f"  {REL_FRO[k]:.3g}  {k}")
    if KNOWN or STALE:
        print("\nknown differences from Triton (triton-differs lines), not counted as failures:")
        for k in sorted(set(KNOWN)) + STALE:
            print(f"  {k}")
    print(f"\n{len(rows) - failed} of {len(rows)} files match Triton")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
