# Module-level if and try statements that bind names kernels use (a fuzz
# seed, and the shapes real projects use).
import os

import triton
import triton.language as tl

try:
    from triton.language.extra.cuda import libdevice
except ImportError:
    from triton.language.extra import libdevice

if os.environ.get("FAST", "0") == "1":
    @triton.jit
    def act(x):
        return libdevice.fast_expf(x)
elif hasattr(tl, "exp") and not False:
    @triton.jit
    def act(x):
        return tl.exp(x)
else:
    act = tl.exp

if 1 < 2 <= 3:
    try:
        import torch
    except (ImportError, ModuleNotFoundError):
        torch = None
    finally:
        LIMIT = tl.constexpr(-4)


@triton.jit
def k(p):
    tl.store(p, act(tl.load(p)) + LIMIT)


if __name__ == "__main__":
    LIMIT = 100
    act = None

import typing
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    LIMIT = 200
elif typing.TYPE_CHECKING:
    LIMIT = 300
