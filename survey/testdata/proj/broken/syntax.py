import triton
import triton.language as tl


@triton.jit
def broken_kernel(x_ptr, n):
    y = tl.load(x_ptr) +* 2
    tl.store(x_ptr, y)
