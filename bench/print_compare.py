#!/usr/bin/env python3
"""Compare what kernels print (tl.device_print, print) under tri and Triton.

For every kernel file given (each records its launch in "# launch:" and
"# let:" header lines, as bench/triton_compare.py reads them), this script

  1. runs the launch in tri's interpreter (`tri run --interpret`), saving the
     inputs, and keeps the lines it prints (those starting "pid (");
  2. runs the same launch on the GPU with tri (`tri run`) and checks that it
     prints the same lines as the interpreter: the same multiset (tri prints
     each element once per program; only the order, which is the GPU's,
     differs, so both are sorted);
  3. runs the launch under real Triton in a child process (so that the
     driver's printf output is captured) on the saved inputs and checks that
     Triton prints the same set of lines. Triton prints a replicated element
     once per thread that holds it, and a scalar once per thread, so its
     lines are compared as a set.

Usage: print_compare.py --tri bin/tri FILE...
Exit status 1 if any comparison fails.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def printed(text):
    return [l for l in text.splitlines() if l.startswith("pid (")]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])}... failed ({p.returncode}): {p.stderr.strip()[:800]}")
    return p.stdout


def triton_child(path, ins):
    """Run path's launch under Triton on the inputs saved in ins."""
    sys.path.insert(0, HERE)
    import numpy as np
    import torch
    import triton
    import triton.language as tl
    import triton_compare as tc

    h = tc.read_header(path)
    tmp = tempfile.mkdtemp(prefix="triprint")
    mod = tc.import_kernels(path, tmp)
    ns = dict(vars(mod))
    ns.update(triton=triton, tl=tl, cdiv=triton.cdiv, next_power_of_2=triton.next_power_of_2, torch=torch)
    for l in h["let"]:
        name, expr = l.split("=", 1)
        name = name.strip()
        f = os.path.join(ins, name + ".npy")
        if os.path.exists(f):
            t = torch.from_numpy(np.load(f))
            if tc.let_dtype(expr) == "bfloat16":
                t = t.to(torch.bfloat16)
            ns[name] = t.cuda()
        else:
            ns[name] = eval(expr, ns)
    eval(h["launch"], ns)
    torch.cuda.synchronize()
    sys.stdout.flush()
    shutil.rmtree(tmp, ignore_errors=True)


def diff(a, b, what):
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    out = []
    for l in only_a[:10]:
        out.append(f"    only in {what[0]}: {l}")
    for l in only_b[:10]:
        out.append(f"    only in {what[1]}: {l}")
    return out


def check_file(args, path):
    sys.path.insert(0, HERE)
    import triton_compare as tc

    h = tc.read_header(path)
    if not h["launch"]:
        return [f"{path}: no # launch: line"]
    tmp = tempfile.mkdtemp(prefix="triprint")
    lets = []
    for l in h["let"]:
        lets += ["--let", l]
    ins = os.path.join(tmp, "in")
    interp = printed(run([args.tri, "run", "--interpret", path, h["launch"], *lets, "--save-inputs", ins]))
    errs = []
    if not interp:
        errs.append(f"{path}: the interpreter printed nothing")
    gpu = printed(run([args.tri, "run", path, h["launch"], *lets]))
    if sorted(gpu) != sorted(interp):
        errs.append(f"{path}: tri on the GPU printed {len(gpu)} lines, the interpreter {len(interp)}; they differ:")
        errs += diff(gpu, interp, ("gpu", "interpreter"))
    ref = printed(run([sys.executable, os.path.abspath(__file__), "--triton-child", path, ins]))
    if set(ref) != set(interp):
        errs.append(f"{path}: Triton printed {len(set(ref))} distinct lines, tri {len(set(interp))}; they differ:")
        errs += diff(interp, ref, ("tri", "triton"))
    shutil.rmtree(tmp, ignore_errors=True)
    return errs


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--triton-child":
        triton_child(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tri", default="bin/tri")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    failed = 0
    for path in args.files:
        try:
            errs = check_file(args, path)
        except Exception as e:  # report and go on with the next file
            errs = [f"{path}: {type(e).__name__}: {e}"]
        failed += bool(errs)
        for e in errs:
            print("  " + e)
        print(f"{'ok' if not errs else 'FAIL':4} {path}", flush=True)
    print(f"\n{len(args.files) - failed} of {len(args.files)} files print as Triton does")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
