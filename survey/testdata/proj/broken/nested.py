import triton
import triton.language as tl


def make_kernel():
    @triton.jit
    def inner_kernel(x_ptr):
        tl.store(x_ptr, 1.0)

    return inner_kernel


def make_scaled(scale):
    @triton.jit
    def closure_kernel(x_ptr):
        tl.store(x_ptr, scale)

    return closure_kernel


def make_again():
    @triton.jit
    def inner_kernel(x_ptr):
        tl.store(x_ptr, 2.0)

    return inner_kernel
