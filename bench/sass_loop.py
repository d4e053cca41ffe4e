#!/usr/bin/env python3
"""Compare the main loops of kernels in SASS, as cuobjdump -sass prints it.

For each file: the loops (backward branches), the instruction count of the
longest, a histogram of its opcodes, and where the local-memory spills
(STL/LDL) are: inside a loop or outside every loop. Given two files (tri's
and Triton's cubin of the same kernel, disassembled), the histograms are
printed side by side.

  cuobjdump -sass tri.cubin > tri.sass      # tri build ... -o k.cu; nvcc -cubin -arch=sm_90a k.cu
  cuobjdump -sass triton.cubin > triton.sass  # Triton: open(out, "wb").write(h.asm["cubin"])
  python3 bench/sass_loop.py tri.sass [triton.sass] [--top 30] [--list]
"""
import argparse
import collections
import re

LINE = re.compile(r"\s+/\*([0-9a-f]+)\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")


def read(path):
    """The instructions of a disassembly: (address, opcode, text)."""
    out = []
    for line in open(path):
        m = LINE.match(line)
        if m:
            out.append((int(m.group(1), 16), m.group(3), line.split(";")[0].strip()))
    return out


def loops(instrs):
    """The (start, end) addresses of every backward branch."""
    found = []
    for addr, op, text in instrs:
        m = re.search(r"BRA\s+(?:`\()?(0x[0-9a-f]+)", text)
        if op.startswith("BRA") and m and int(m.group(1), 16) < addr:
            found.append((int(m.group(1), 16), addr))
    return found


def summary(path, args):
    instrs = read(path)
    ls = loops(instrs)
    main = max(ls, key=lambda l: l[1] - l[0]) if ls else (0, -1)
    body = [(a, op, t) for a, op, t in instrs if main[0] <= a <= main[1]]
    spills = collections.Counter()
    for a, op, t in instrs:
        if op.startswith(("STL", "LDL")):
            spills["in a loop" if any(s <= a <= e for s, e in ls) else "outside loops"] += 1
    print(f"{path}: {len(instrs)} instructions, {len(ls)} loop(s), the longest {len(body)}; "
          f"spill instructions: {dict(spills) or 'none'}")
    if args.list:
        for _, _, t in body:
            print("   ", t)
    return collections.Counter(op for _, op, _ in body)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--list", action="store_true", help="print the longest loop")
    args = ap.parse_args()
    hists = [summary(f, args) for f in args.files[:2]]
    keys = sorted(set().union(*hists), key=lambda k: -sum(h[k] for h in hists))[:args.top]
    print(f"{'opcode':28s}" + "".join(f"{f[-24:]:>26s}" for f in args.files[:2]))
    for k in keys:
        print(f"{k:28s}" + "".join(f"{h[k]:26d}" for h in hists))


if __name__ == "__main__":
    main()
