import triton


@triton.jit
def twice(x):
    return x * 2
