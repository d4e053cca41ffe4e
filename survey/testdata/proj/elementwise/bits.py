import triton
import triton.language as tl


# Integer data: shifts of loaded values build only with integer pointers.
@triton.jit
def popcount_kernel(Bits, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(Bits + offs, mask=offs < n, other=0)
    total = tl.zeros([BLOCK], dtype=x.dtype)
    for i in tl.static_range(8):
        total += (x >> i) & 1
    tl.store(Out + offs, total, mask=offs < n)
