import triton
import triton.language as tl


# Written for the Ascend backend: not counted, built or not.
@triton.jit
def ascend_kernel(x_ptr):
    tl.store(x_ptr, 1.0)
