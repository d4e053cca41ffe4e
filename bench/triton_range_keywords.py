#!/usr/bin/env python3
"""Check under real Triton what tri assumes about the keywords of loops.

tri checks the keywords of tl.range, tl.static_range, Python's range and
tl.condition as it reads Triton 3.6's code generator (sema/control.go,
sema/testdata/errors/range_keywords.tri and range_condition.tri). This
script compiles and runs one small kernel per case under Triton and says,
for each, whether Triton agrees: "error" means tri rejects the kernel, a
number is the float the kernel stores (how many times its loop ran).

Usage: triton_range_keywords.py   (needs a GPU, torch and triton)
Exit status 1 if Triton disagrees with tri on any case.
"""
import importlib.util
import os
import sys
import tempfile

import torch
import triton

# (loop header, what tri does): the loop adds 1.0 per iteration, n = 10.
FOR_CASES = [
    ("tl.range(0, n, num_stages=2)", 10),
    ("tl.range(0, n, 1, 2, 2, True, True, True, True)", 10),
    ("tl.range(0, n, num_stages=True, loop_unroll_factor=-1, flatten='yes', disable_licm=0)", 10),
    ("tl.range(0, n, num_stages=0)", 10),
    ("tl.range(0, n, num_stages=None, loop_unroll_factor=None)", 10),
    ("tl.range(0, n, disable_licm=True, warp_specialize=False)", 10),
    ("tl.range(0, n, loop_unroll_factor=2.0)", "error"),
    ("tl.range(0, n, num_stages=2**31)", "error"),
    ("tl.range(0, n, num_stages='3')", "error"),
    ("tl.range(0, n, num_stages=n)", "error"),
    ("tl.range(0, n, flatten=n > 0)", 10),
    ("tl.range(0, n, foo=1)", "error"),
    ("tl.static_range(0, 4, num_stages=2)", "error"),
    ("tl.static_range(0, 4, 1, 2)", "error"),
    ("range(0, n, 1, num_stages=2, unroll=4, anything=None)", 10),
    ("range(0, n, step=2)", 10),
    ("range(n, step=5)", 10),
    ("range(0, n, num_stages=undefined_name)", "error"),
]

# (while condition, what tri does).
WHILE_CASES = [
    ("tl.condition(i < n, disable_licm=True)", 10),
    ("tl.condition(i < n, True)", 10),
    ("tl.condition(i < n)", 10),
    ("tl.condition(i < n, disable_licm=n > 0)", 10),
    ("tl.condition(i < n, licm=False)", "error"),
]

FOR_KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    acc = 0.0
    for i in {header}:
        acc += 1.0
    tl.store(x_ptr, acc)
"""

WHILE_KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n):
    acc = 0.0
    i = 0
    while {header}:
        acc += 1.0
        i += 1
    tl.store(x_ptr, acc)
"""


def run(template, header, tmp, idx):
    path = os.path.join(tmp, f"case{idx}.py")
    with open(path, "w") as f:
        f.write(template.format(header=header))
    spec = importlib.util.spec_from_file_location(f"case{idx}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x = torch.zeros(1, device="cuda")
    try:
        mod.k[(1,)](x, 10)
        torch.cuda.synchronize()
    except Exception as e:  # Triton's CompilationError, TypeError, ...
        return "error", str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
    return int(x.item()), ""


def main():
    print(f"Triton {triton.__version__}")
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(FOR_KERNEL, h, w) for h, w in FOR_CASES] + [(WHILE_KERNEL, h, w) for h, w in WHILE_CASES]
        for idx, (template, header, want) in enumerate(cases):
            got, why = run(template, header, tmp, idx)
            ok = got == want
            bad += not ok
            kind = "for" if template is FOR_KERNEL else "while"
            print(f"{'ok  ' if ok else 'DIFF'} {kind} {header}: tri {want}, Triton {got}" + (f" ({why})" if why else ""))
    print(f"{len(FOR_CASES) + len(WHILE_CASES) - bad} of {len(FOR_CASES) + len(WHILE_CASES)} cases agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
