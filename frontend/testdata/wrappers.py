import triton
import triton.language as tl


def _body(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


body_kernel = triton.jit(_body)


def same(x_ptr):
    pass


same = triton.jit(same)


@triton.jit
def plain(x_ptr, EVEN: tl.constexpr):
    pass


plain = triton.heuristics({'EVEN': lambda args: True})(plain)
tuned = triton.autotune(configs=[triton.Config({})], key=[])(triton.jit(_body))
other = functools.partial(_body)
