import triton
import triton.language as tl


def configs():
    while True:
        pass


@triton.autotune(configs=configs(), key=["n"])
@triton.jit
def loop_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
