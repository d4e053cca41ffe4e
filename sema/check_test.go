package sema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

func TestCheckSamples(t *testing.T) {
	files, err := filepath.Glob("../samples/*.tri")
	require.NoError(t, err)
	more, err := filepath.Glob("testdata/samples/*.tri")
	require.NoError(t, err)
	for _, path := range append(files, more...) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		f, d := frontend.Parse(path, src)
		require.NoError(t, d.Err())
		assert.NoError(t, Check(f).Err(), path)
	}
}

func TestCheckWarnings(t *testing.T) {
	src := header + `
@triton.jit
def k(x_ptr, n):
    s = tl.dot_scaled(x_ptr, None, 'e4m3', x_ptr, None, 'e4m3')
    for i in range(n):
        break
    y = tl.math.exp(1.0) + tl.extra.libdevice.tanh(1.0)
    z = tl.lodd(x_ptr)
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	diags := Check(f)
	var warnings, errors []string
	for _, d := range diags.Items {
		if d.Severity == diag.Warning {
			warnings = append(warnings, d.Message)
		} else {
			errors = append(errors, d.Message+" / "+d.Suggestion)
		}
	}
	assert.Equal(t, []string{"tl.dot_scaled is not supported by tri yet", "break is not supported in Triton"}, warnings)
	assert.Equal(t, []string{"tl has no attribute lodd (Triton 3.6 rejects it too) / did you mean tl.load?"}, errors)
}

// TestCheckRecursion: tri check reports the recursion that specializing a
// kernel would reject, for mutual and direct recursion, once per cycle.
func TestCheckRecursion(t *testing.T) {
	src := header + `
@triton.jit
def a(x):
    return b(x) + 1

@triton.jit
def b(x):
    return a(x)

@triton.jit
def self_call(x):
    return self_call(x - 1)

@triton.jit
def k(x_ptr):
    tl.store(x_ptr, a(1.0) + self_call(2.0))
`
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err())
	l := Check(f)
	require.Len(t, l.Items, 2, "%v", l)
	assert.Contains(t, l.Items[0].Error(), "recursive call to a: Triton does not support recursion")
	require.Len(t, l.Items[0].Notes, 1)
	assert.Equal(t, "called from here", l.Items[0].Notes[0].Message)
	assert.Contains(t, l.Items[1].Error(), "recursive call to self_call")

	plain := header + `
@triton.jit
def h(x):
    return x

@triton.jit
def k(x_ptr):
    tl.store(x_ptr, h(h(1.0)))
`
	f, d = frontend.Parse("k.tri", []byte(plain))
	require.NoError(t, d.Err())
	assert.NoError(t, Check(f).Err(), "a helper called twice is no cycle")
}

// TestRuntimeLoopFlags: the boolean keywords of tl.range and tl.condition
// take a runtime value as true, as Triton's code generator does (Python
// truth of a tensor), with a warning; disallow_acc_multi_buffer is then on.
func TestRuntimeLoopFlags(t *testing.T) {
	src := `
@triton.jit
def k(x_ptr, n):
    acc = 0.0
    for i in tl.range(0, n, flatten=n > 0, disallow_acc_multi_buffer=n > 1):
        acc += 1.0
    j = 0
    while tl.condition(j < n, disable_licm=n > 0):
        j += 1
    tl.store(x_ptr, acc + j)
`
	f, d := frontend.Parse("k.tri", []byte(header+src))
	require.NoError(t, d.Err())
	k, diags := Specialize(f, "k", sig(ptr(ir.Float32), scalar(ir.Int32)))
	require.NoError(t, diags.Err())
	var warnings []string
	for _, d := range diags.Items {
		if d.Severity == diag.Warning {
			warnings = append(warnings, d.Message)
		}
	}
	assert.Equal(t, []string{
		"flatten of tl.range is a scalar of type i1, not a compile-time constant: Triton takes any tensor as true, and so does tri",
		"disallow_acc_multi_buffer of tl.range is a scalar of type i1, not a compile-time constant: Triton takes any tensor as true, and so does tri",
		"disable_licm of tl.condition is a scalar of type i1, not a compile-time constant: Triton takes any tensor as true, and so does tri",
	}, warnings)
	var loop *ir.For
	for _, s := range k.Body.Stmts {
		if f, ok := s.(*ir.For); ok {
			loop = f
		}
	}
	require.NotNil(t, loop)
	assert.True(t, loop.DisallowAccMMA)
}
