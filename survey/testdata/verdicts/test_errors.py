import pytest
import triton
import triton.language as tl


def test_bad_shift():

    @triton.jit
    def kernel(x_ptr):
        tl.store(x_ptr, 1.0 << 2)

    with pytest.raises(triton.CompilationError):
        kernel[(1,)](None)


def test_good():

    # The same name in another test that expects no error: tri's gap.
    @triton.jit
    def kernel(x_ptr):
        tl.store(x_ptr, tl.dot_scaled(1, 2, 3, 4, 5, 6))

    kernel[(1,)](None)


# A template a test fills in by replacing text before compiling it.
@triton.jit
def template_kernel(x_ptr):
    tl.store(x_ptr, GENERATE_TEST_HERE)


# A static assert that the survey's guess of BLOCK (32) fails.
@triton.jit
def guessed_kernel(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK == 64)
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)


def test_closures(dtype):

    # A template name in a kernel that also reads its test's local: tri
    # does not read the kernel, and Triton would raise NameError on the
    # text as written.
    @triton.jit
    def template_closure(x_ptr, N: tl.constexpr):
        LOSE_TAIL
        tl.store(x_ptr + tl.arange(0, N), 1.0, mask=dtype)

    # Only a local of the test (and a keyword argument): tri's gap.
    @triton.jit
    def closure(x_ptr, N: tl.constexpr):
        """Stores ones.

        Unbound names in a docstring are not read.
        """
        # UNBOUND_IN_A_COMMENT
        tl.store(x_ptr + tl.arange(0, N), tl.full((N,), 1.0, dtype=dtype), mask=None)
