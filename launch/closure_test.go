package launch

import "testing"

// TestLangClosure: a kernel defined inside a test function calls a @jit
// function the test defines beside it, directly and through
// tl.map_elementwise (test_core.py's test_map_elementwise), as Triton
// finds it in the kernel's closure.
func TestLangClosure(t *testing.T) {
	const src = `# launch: kernel[(1,)](X, Z, BLOCK=4)
# let: X=tensor([0.0, 2.0, 1.0, 5.0])
# let: Z=zeros(8)
import triton
import triton.language as tl


def test_map_elementwise():

    @triton.jit
    def compare(x, y):
        if x < y:
            return -1
        elif x == y:
            return 0
        else:
            return 1

    @triton.jit
    def twice(x):
        return 2 * x

    @triton.jit
    def kernel(X, Z, BLOCK: tl.constexpr):
        x = tl.load(X + tl.arange(0, BLOCK))
        z = tl.map_elementwise(compare, x, tl.full((BLOCK,), 1.0, tl.float32))
        tl.store(Z + tl.arange(0, BLOCK), z)
        tl.store(Z + BLOCK + tl.arange(0, BLOCK), twice(x))
`
	runLangCases(t, []langCase{{"map_elementwise", src, []float64{-1, 1, 0, 1, 0, 4, 2, 10}, []string{"Z"}}})
}
