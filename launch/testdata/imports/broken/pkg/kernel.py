# launch: k[(1,)](x, 16)
# let: x=zeros(16)
import triton
import triton.language as tl

from .helpers import thrice


@triton.jit
def k(x_ptr, n):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, thrice(x), mask=offs < n)
