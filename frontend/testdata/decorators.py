import functools
import torch
import triton
import triton.language as tl
from triton import jit
from triton.language.extra import libdevice

BLOCK = tl.constexpr(128)
HALF: tl.constexpr = 64
EPS = 1e-5
NAME = "rows"
NEG = -3
DEVICE = torch.device("cuda")
a = torch.randn(4, 4)
b = a @ a.T
if (n := a.shape[0]) > 2:
    print(f"{n=} {a.sum():.3f}")


class Helper:
    def method(self):
        return 1


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE': 128}, num_warps=4),
        triton.Config({'BLOCK_SIZE': 256}, num_warps=8),
    ],
    key=['n_elements'],
)
@triton.heuristics({'EVEN': lambda args: args['n_elements'] % args['BLOCK_SIZE'] == 0})
@triton.jit
def tuned(x_ptr, n_elements, BLOCK_SIZE: tl.constexpr, EVEN: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if EVEN:
        x = tl.load(x_ptr + offs)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n_elements, other=0.0)
    tl.store(x_ptr + offs, libdevice.exp(x) + EPS)


@jit
def helper(x, y):
    return x + y, x * y


@triton.jit(do_not_specialize=["n", 2], launch_metadata=None)
def dns(x_ptr, n, m, BLOCK: tl.constexpr = 64):
    pass


@functools.lru_cache
@triton.jit
def cached(x):
    return x


@functools.lru_cache
def host_helper():
    return [triton.Config({'BLOCK': b}) for b in (32, 64)]


def get_configs():
    return [triton.Config({'BLOCK': 64}, num_warps=4)]


def uses_fstring(x):
    print(f"{x}")
    return x @ x


if __name__ == "__main__":
    out = torch.empty(4)
    print(f"done {out}")
