import triton
import triton.language as tl


# p is cast to bf16 and dotted with a loaded tile: the tile must be bf16
# too (tritonbench's attention), which neither fp32 nor fp16 pointers give.
@triton.jit
def bf16_dot_kernel(x_ptr, v_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tile = offs[:, None] * BLOCK + offs[None, :]
    x = tl.load(x_ptr + tile)
    v = tl.load(v_ptr + tile)
    p = tl.exp(x.to(tl.float32)).to(tl.bfloat16)
    tl.store(out_ptr + tile, tl.dot(p, v))
