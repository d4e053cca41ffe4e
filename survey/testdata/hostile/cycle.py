import triton
import triton.language as tl


def configs():
    l = []
    l.append(l)
    if l == l and repr(l) == "[[...]]":
        raise ValueError(l)
    return [triton.Config({"BLOCK": 128})]


@triton.autotune(configs=configs(), key=["n"])
@triton.jit
def cycle_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)
