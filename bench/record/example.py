"""A PyTorch program whose launches cover what record.py must handle.

    python3 bench/record/record.py --out /tmp/rec -- bench/record/example.py
    python3 bench/record/replay.py --tri bin/tri /tmp/rec

Each launch below should replay as a match (the last as both-reject):
a module-level kernel (replayed from this file), an autotuned one with a
grid function (the chosen config spelled out), a heuristics-wrapped one, a
kernel defined inside a function that closes over a constant and a @jit
helper, bf16 and int8 tensors, a transposed view with its strides, a tensor
passed twice (in place), and a kernel Triton rejects.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2), triton.Config({"BLOCK": 256}, num_warps=4)],
                 key=["n"])
@triton.jit
def scale_kernel(x, out, alpha, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) * alpha, mask=m)


@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def relu_kernel(x, out, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        v = tl.load(x + offs)
    else:
        v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.store(out + offs, tl.maximum(v, 0.0), mask=offs < n)


@triton.jit
def transpose_copy(x, out, sx0, sx1, M: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, M)[:, None]
    j = tl.arange(0, N)[None, :]
    tl.store(out + i * N + j, tl.load(x + i * sx0 + j * sx1))


@triton.jit
def inplace_mul(x, y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y + offs, tl.load(x + offs, mask=m) * 2, mask=m)


@triton.jit
def rejected(x, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK < 0, "BLOCK must be negative")
    tl.store(x + tl.arange(0, BLOCK), 0.0)


def nested(x_bf16, out_i8):
    OFFSET = 3

    @triton.jit
    def shift(v):
        return v + OFFSET

    @triton.jit
    def to_int8(x, out, N: tl.constexpr):
        offs = tl.arange(0, N)
        v = tl.load(x + offs).to(tl.float32)
        tl.store(out + offs, shift(v).to(tl.int8))

    to_int8[(1,)](x_bf16, out_i8, N=x_bf16.numel())


def main():
    torch.manual_seed(0)
    n = 1000
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty(n, device="cuda")
    add_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
    scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, 0.5, n)
    relu_kernel[(triton.cdiv(n, 100),)](x, out, n, BLOCK=128)
    a = torch.randn(32, 16, device="cuda").t()  # a 16 x 32 view with strides (1, 16)
    t = torch.empty(16, 32, device="cuda")
    transpose_copy[(1,)](a, t, a.stride(0), a.stride(1), M=16, N=32)
    z = torch.randn(64, device="cuda")
    inplace_mul[(1,)](z, z, 64, BLOCK=64)
    nested(torch.randn(32, device="cuda").to(torch.bfloat16), torch.empty(32, dtype=torch.int8, device="cuda"))
    try:
        rejected[(1,)](x, BLOCK=16)
    except Exception as e:  # Triton refuses at compile time, as tri should
        print(f"rejected as expected: {type(e).__name__}")
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
