import triton
import triton.language as tl


# offsets is a number unless the flag says it is a tensor: the derived
# launch builds with the flag True.
@triton.jit
def shifted_kernel(x, y, offsets, n, IS_OFFSETS_TENSOR: tl.constexpr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    if IS_OFFSETS_TENSOR:
        shift = tl.load(offsets)
    else:
        shift = offsets
    m = (o + shift >= 0) & (o < n)
    tl.store(y + o, tl.load(x + o, mask=m), mask=m)
