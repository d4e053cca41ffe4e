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
    # The same name as the first inner_kernel, other parameters: built as
    # itself, not as the first.
    @triton.jit
    def inner_kernel(x_ptr, y_ptr):
        tl.store(y_ptr, tl.load(x_ptr) * 2.0)

    return inner_kernel
