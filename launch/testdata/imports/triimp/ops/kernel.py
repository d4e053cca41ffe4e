# launch: k[(triton.cdiv(n, 128),)](x, out, n)
# let: n=300
# let: x=randn(n)
# let: out=empty(n)
import torch
import triton
import triton.language as tl

import triimp.ops.helpers as h
from triimp import scale_add
from ..consts import BLOCK_SIZE, HI, LO, SCALE
from .helpers import my_exp

try:
    from .fast_helpers import twice
except ImportError:
    from .helpers import twice

try:
    from triton.language import no_such_op as maximum_op
except ImportError:
    from triton.language import maximum as maximum_op

if hasattr(tl, "maximum"):
    @triton.jit
    def relu(x):
        return tl.maximum(x, 0.0)
else:
    @triton.jit
    def relu(x):
        return x * 0.0 - 1.0


@triton.jit
def k(x_ptr, out_ptr, n):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = twice(x)
    y = my_exp(y * 0.1)
    y = h.clamp(y, LO, HI)
    y = scale_add(y, SCALE)
    y = maximum_op(y, 0.5)
    y = relu(y - 1.0)
    tl.store(out_ptr + offs, y, mask=mask)


def run(x):
    out = torch.empty_like(x)
    n = x.numel()
    k[(triton.cdiv(n, 128),)](x, out, n)
    return out
