import triton
import triton.language as tl


@triton.jit
def broken(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs +)  # ERROR "syntax error"
    tl.store(x_ptr, x)


@triton.jit
def good(x_ptr):
    pass


def host_broken(x):
    return x +  # ERROR "invalid syntax"


@triton.jit
def varargs(x_ptr, *args, **kwargs):  # ERROR "\*\*kwargs parameter"
    pass


@triton.jit
def fstring(x):
    tl.device_print(f"x={x}")


@my_cache  # WARNING "unknown decorator my_cache skipped"
@triton.jit
def unknown_deco(x):
    pass


@triton.jit(do_not_specialize=["nope"])  # WARNING "do_not_specialize entry"
def bad_dns(x):
    pass
