from typing import List

import triton

SIZES = (32, 64)


def block_configs() -> List[triton.Config]:
    return [triton.Config({"BLOCK": b}, num_warps=w) for b in SIZES for w in _warps()]


def _warps():
    return [1, 2]
