"""Calling the tri binary from the benchmark scripts.

Only the standard library: bench_tutorials.py --dry-run uses these on a
machine without numpy, torch or a GPU.
"""
import re
import subprocess


def run_tri(cmd):
    """Runs a tri command; raises RuntimeError with its output if it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}\n{p.stdout}{p.stderr}")
    return p


def lets_args(lets):
    """--let NAME=EXPR for each binding, in order."""
    out = []
    for l in lets:
        out += ["--let", l]
    return out


def tri_bench_cmd(tri, path, launch, lets, extra=()):
    return [tri, "bench", path, launch] + lets_args(lets) + list(extra)


def tri_bench_ms(tri, path, launch, lets, extra=()):
    """Median ms of one launch under `tri bench` (its last row, column median)."""
    p = run_tri(tri_bench_cmd(tri, path, launch, lets, extra))
    return float(p.stdout.strip().splitlines()[-1].split()[-3])


def tri_run_cmd(tri, path, launch, lets, saves=None, extra=()):
    cmd = [tri, "run", path, launch] + lets_args(lets) + list(extra)
    for name, f in (saves or {}).items():
        cmd += ["--save", f"{name}={f}"]
    return cmd


def tri_run_save(tri, path, launch, lets, saves, extra=()):
    """Runs the launch on the GPU with tri, saving each NAME to the file saves[NAME]."""
    return run_tri(tri_run_cmd(tri, path, launch, lets, saves, extra))


def tri_resources_cmd(tri, path, launch, lets, extra=()):
    return [tri, "build", path, launch] + lets_args(lets) + list(extra) + ["--dump=resources", "-o", "/dev/null"]


RESOURCES = re.compile(r"(\d+) registers, (\d+) bytes spill stores, (\d+) bytes spill loads, (\d+) bytes stack, "
                       r"(\d+) bytes shared memory, (\d+) bytes dynamic shared memory")


def tri_resources(tri, path, launch, lets, extra=()):
    """Registers, spill stores, spill loads and shared memory (static plus
    dynamic, bytes) of the launch's kernel as tri builds it (NVRTC's report,
    `tri build --dump=resources`), or None where there is no report."""
    p = run_tri(tri_resources_cmd(tri, path, launch, lets, extra))
    m = RESOURCES.search(p.stdout + p.stderr)
    if not m:
        return None
    regs, st, ld, _, smem, dyn = (int(x) for x in m.groups())
    return regs, st, ld, smem + dyn
