import triton
import triton.language as tl


def _width(n):
    return int("{}{}".format(n, f"{n * 2}")[-1])


# A constexpr that only host code computes: the survey builds the kernel
# as tri build does, with the host interpreter.
WIDTH: tl.constexpr = tl.constexpr(_width(2))


@triton.jit
def hosted_kernel(x_ptr, n, BLOCK: tl.constexpr = 32):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * WIDTH, mask=offs < n)
