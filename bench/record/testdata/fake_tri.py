#!/usr/bin/env python3
"""A stand-in for `tri run` in the replayer's tests.

It reads the --let NAME=load('PATH', dtype=...) and --save NAME=PATH
arguments and writes, for each saved name, the recording's NAME.out.npy
(beside NAME.in.npy), changed as the kernel file's first line asks:

  # fake: match       the recorded output unchanged
  # fake: perturb     the first element of the first saved tensor + 1
  # fake: near        float outputs scaled by 1 + 1e-4
  # fake: fail        no output; an error placed in the file, exit 1
  # fake: fail-interp fail with --interpret only
  # fake: nosave      exit 0 without saving
"""
import os
import re
import shutil
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import npyio  # noqa: E402


def main(argv):
    assert argv[0] == "run", argv
    path = argv[1]
    with open(path) as f:
        mode = re.match(r"# fake: (\S+)", f.readline()).group(1)
    lets, saves, i = {}, {}, 3
    while i < len(argv):
        a = argv[i]
        if a in ("--let", "--save", "--timeout", "--root"):
            v = argv[i + 1]
            if a == "--let":
                name, expr = v.split("=", 1)
                lets[name] = re.match(r"load\('([^']*)'", expr).group(1)
            elif a == "--save":
                name, p = v.split("=", 1)
                saves[name] = p
            i += 2
        else:
            i += 1
    if mode == "fail" or mode == "fail-interp" and "--interpret" in argv:
        print(f"{path}:3:5: the fake refuses this kernel", file=sys.stderr)
        return 1
    if mode == "nosave":
        return 0
    for n, (name, out) in enumerate(saves.items()):
        src = lets[name].replace(".in.npy", ".out.npy")
        if mode == "match":
            shutil.copy(src, out)
            continue
        a = npyio.read(src)
        vals = a.values()
        code = npyio.CODES[a.descr][0]
        if mode == "perturb" and n == 0:
            vals[0] = vals[0] + 1
        elif mode == "near" and a.descr in npyio.FLOAT_BITS:
            vals = [v * (1 + 1e-4) for v in vals]
        npyio.write(out, a.descr, a.shape, struct.pack("<%d%s" % (len(vals), code), *vals))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
