import triton
import triton.language as tl

my_exp = tl.exp


@triton.jit
def twice(x):
    return x * 2


@triton.jit
def clamp(x, lo: tl.constexpr, hi: tl.constexpr):
    return tl.minimum(tl.maximum(x, lo), hi)


@triton.jit
def scale_add(x, s: tl.constexpr):
    return x * s + 1.0
