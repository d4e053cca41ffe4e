"""The program record.py's tests record under the stand-in torch and
Triton (testdata/fakemods): each kernel's IMPLS entry computes in Python
what the kernel computes, so that the replay through tri's interpreter
can match it bit for bit."""
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


def nested(x, out):
    OFFSET = 3

    @triton.jit
    def shift(v):
        return v + OFFSET

    @triton.jit
    def plus(x, out, N: tl.constexpr):
        offs = tl.arange(0, N)
        tl.store(out + offs, shift(tl.load(x + offs)))

    triton.IMPLS["plus"] = lambda x, out, N: out.set_flat([v + OFFSET for v in x.tolist_flat()])
    plus[(1,)](x, out, N=8)


def patched(x, out):
    @triton.jit
    def tmpl(x, out, N: tl.constexpr):
        offs = tl.arange(0, N)
        v = tl.load(x + offs)
        tl.store(out + offs, GENERATE)

    k = triton.JITFunction(tmpl.fn)
    k._unsafe_update_src(k.src.replace("GENERATE", "v * v"))
    triton.IMPLS["tmpl"] = lambda x, out, N: out.set_flat([v * v for v in x.tolist_flat()])
    k[(1,)](x, out, N=8)


def masked(f):
    def impl(x, out, n, BLOCK, **kw):
        xs, os_ = x.tolist_flat(), out.tolist_flat()
        out.set_flat([f(xs[i]) if i < n else os_[i] for i in range(len(os_))])
    return impl


triton.IMPLS.update(
    add_kernel=lambda x, y, out, n, BLOCK: out.set_flat([a + b for a, b in zip(x.tolist_flat(), y.tolist_flat())]),
    scale_kernel=lambda x, out, alpha, n, BLOCK: out.set_flat([a * alpha for a in x.tolist_flat()]),
    relu_kernel=masked(lambda v: max(v, 0.0)),
    transpose_copy=lambda x, out, sx0, sx1, M, N: out.set_flat(x.tolist_flat()),
    inplace_mul=lambda x, y, n, BLOCK: y.set_flat([2 * v for v in x.tolist_flat()]),
)


def main():
    n = 100
    x = torch.tensor([i * 0.25 - 3 for i in range(n)])
    y = torch.tensor([1.5 - i * 0.125 for i in range(n)])
    out = torch.empty(n)
    add_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
    scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, 0.5, n)
    relu_kernel[(1,)](x, out, n, BLOCK=128)
    a = torch.tensor([float(i) for i in range(32)]).reshape(4, 8).t()  # 8 x 4, strides (1, 8)
    t = torch.empty(32)
    transpose_copy[(1,)](a, t, a.stride(0), a.stride(1), M=8, N=4)
    z = torch.tensor([float(i) for i in range(64)])
    inplace_mul[(1,)](z, z, 64, BLOCK=64)
    nested(torch.tensor([float(i) for i in range(8)]), torch.empty(8))
    patched(torch.tensor([i - 3.5 for i in range(8)]), torch.empty(8))
    try:
        rejected[(1,)](x, BLOCK=16)
    except RuntimeError as e:
        print("rejected:", e)


if __name__ == "__main__":
    main()
