import triton
import triton.language as tl


@triton.jit
def _ones(x):
    # Bit counts of 32-bit words: only pointers to uint32 pass.
    tl.static_assert(x.dtype == tl.uint32, "x should hold 32-bit unsigned words")
    return x & 1


# A kernel whose helper wants uint32 words: pointers are tried as uint32
# because the file names tl.uint32.
@triton.jit
def words_kernel(Words, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    w = tl.load(Words + offs)
    y = tl.reshape(w, [BLOCK // 8, 8])
    y = tl.reshape(_ones(y), y.shape[:-1] + [8])
    tl.store(Out + offs, tl.reshape(y, [BLOCK]))
