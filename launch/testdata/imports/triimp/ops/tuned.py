# launch: fill[(triton.cdiv(n, 32),)](out, n)
# let: n=100
# let: out=empty(n)
import triton
import triton.language as tl

from ..configs import block_configs as configs_of_the_package


@triton.autotune(configs=configs_of_the_package(), key=["n"])
@triton.jit
def fill(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, offs * 1.0, mask=offs < n)
