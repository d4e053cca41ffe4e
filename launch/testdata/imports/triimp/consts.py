import triton.language as tl

BASE = 2
SCALE = 2 * BASE
LO: tl.constexpr = -0.5
HI = tl.constexpr(3.0)
BLOCK_SIZE = tl.constexpr(128)
