import triton
import triton.language as tl


def _scale():
    n = 0
    while True:
        n += 1


SCALE: tl.constexpr = tl.constexpr(_scale())


@triton.jit
def global_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * SCALE, mask=offs < n)
