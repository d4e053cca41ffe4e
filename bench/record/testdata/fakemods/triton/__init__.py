"""A stand-in for Triton's launch machinery as 3.6 structures it
(JITFunction.run(*args, grid, warmup, **kwargs); the autotuner benchmarking
each config under _bench/do_bench, then launching the chosen one;
heuristics adding keyword arguments), for record.py's tests. A "launch"
runs the Python function registered for the kernel's name in IMPLS."""
from . import language, runtime
from .runtime.jit import JITFunction, jit
from .runtime.autotuner import Config, autotune, heuristics

IMPLS = {}


def cdiv(a, b):
    return (a + b - 1) // b
