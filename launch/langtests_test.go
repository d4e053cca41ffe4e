package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// langCase is a kernel of Triton 3.6's python/test/unit/language tests
// (cut down to what it exercises), with its launch in the header and what
// Triton stores in "out".
type langCase struct {
	name, src string
	want      []float64
}

// runLangCases runs each case in the interpreter, compares "out" with what
// Triton stores, and builds its CUDA.
func runLangCases(t *testing.T, cases []langCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.py")
			require.NoError(t, os.WriteFile(path, []byte(c.src), 0o644))
			assert.Equal(t, c.want, interpretOut(t, path))
			var cuda bytes.Buffer
			require.NoError(t, BuildFile(path, "", &Options{Stdout: &cuda, Stderr: &bytes.Buffer{}}))
		})
	}
}

// TestLangGetattrHasattr: getattr and hasattr in kernels, as Triton's code
// generator runs them on its objects (test_core.py's test_short_circuiting
// and test_propagate_nan, test_libdevice.py's test_bessel).
func TestLangGetattrHasattr(t *testing.T) {
	const short = `
import triton
import triton.language as tl

@triton.jit
def k(x, out):
    if (x is not None) and hasattr(x, "dtype") and isinstance(
            x.dtype, tl.pointer_type) and (x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)
    tl.store(out, hasattr(x, "dtype") + 2 * hasattr(out, "no_such") + 4 * isinstance(x, tl.tensor))
`
	const pick = `
import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def k(out, fn: tl.constexpr, func: tl.constexpr, nan: tl.constexpr):
    x = tl.full((2,), 4.0, tl.float32)
    tl.store(out + tl.arange(0, 2), getattr(libdevice, fn)(x))
    a = tl.full((1,), float("nan"), tl.float32)
    tl.store(out + 2 + tl.arange(0, 1), getattr(tl, func)(a, tl.full((1,), 1.0, tl.float32), propagate_nan=getattr(tl.PropagateNan, nan)))
    tl.store(out + 3, getattr(tl, "no_such", 7))
`
	runLangCases(t, []langCase{
		{"int32 above 42", "# launch: k[(1,)](x, out)\n# let: x=full((1,), 100000, dtype='int32')\n# let: out=zeros(1)\n" + short, []float64{5}},
		{"constexpr 1", "# launch: k[(1,)](1, out)\n# let: out=zeros(1)\n" + short, []float64{0}},
		{"runtime int", "# launch: k[(1,)](2, out)\n# let: out=zeros(1)\n" + short, []float64{5}},
		{"None", "# launch: k[(1,)](None, out)\n# let: out=zeros(1)\n" + short, []float64{0}},
		{"libdevice and PropagateNan by name", "# launch: k[(1,)](out, 'sqrt', 'minimum', 'NONE')\n# let: out=zeros(4)\n" + pick, []float64{2, 2, 1, 7}},
	})
}

// TestLangTuple: tl.tuple and tuple comprehensions (test_tuple.py's
// test_eq, test_add and _tuple_increment).
func TestLangTuple(t *testing.T) {
	const src = `# launch: k[(1,)](out)
# let: out=zeros(11)
import triton
import triton.language as tl

@triton.jit
def _tuple_increment(values):
    return tl.tuple([v + 1 for v in values])

@triton.jit
def k(out):
    tl.store(out + 0, (1, 2) == (1, 2))
    tl.store(out + 1, (1, 2) == (1, 1))
    tl.store(out + 2, tl.tuple((1, 2)) == (1, 2))
    tl.store(out + 3, tl.tuple((1, 2)) == (1, 3))
    t = tl.tuple((4, 5)) + (6, 7)
    for i in tl.static_range(4):
        tl.store(out + 4 + i, t[i])
    v = 10
    inc = _tuple_increment((v, tl.program_id(0) + 20))
    tl.store(out + 8, inc[0] + isinstance(inc, tl.tuple))
    tl.store(out + 9, inc[1])
    tl.store(out + 10, len([x for x in (1, 2, 3, 4) if x % 2 == 0]) + v)
`
	runLangCases(t, []langCase{{"tuples", src, []float64{1, 0, 1, 0, 4, 5, 6, 7, 12, 21, 12}}})
}
