# launch: k[(triton.cdiv(n, 128),)](x, out, n)
# let: n=300
# let: x=randn(n)
# let: out=empty(n)
# The kernel of triimp/ops/kernel.py with its helpers in one file, to
# compare with the package.
import triton
import triton.language as tl

SCALE = 4
LO: tl.constexpr = -0.5
HI = tl.constexpr(3.0)
BLOCK_SIZE = tl.constexpr(128)


@triton.jit
def twice(x):
    return x * 2


@triton.jit
def clamp(x, lo: tl.constexpr, hi: tl.constexpr):
    return tl.minimum(tl.maximum(x, lo), hi)


@triton.jit
def scale_add(x, s: tl.constexpr):
    return x * s + 1.0


@triton.jit
def relu(x):
    return tl.maximum(x, 0.0)


@triton.jit
def k(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = twice(x)
    y = tl.exp(y * 0.1)
    y = clamp(y, LO, HI)
    y = scale_add(y, SCALE)
    y = tl.maximum(y, 0.5)
    y = relu(y - 1.0)
    tl.store(out_ptr + offs, y, mask=mask)
