package launch

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// ParseSource reads a text as ParseFile reads a file: errors are placed
// at the name given, with CRLF line ends counted as one.
func TestParseSource(t *testing.T) {
	sf, err := ParseSource("mem.tri", []byte("import triton\r\n@triton.jit\r\ndef k(x):\r\n    pass\r\n"), nil)
	require.NoError(t, err)
	assert.NotNil(t, sf.File.Func("k"))

	_, err = ParseSource("bad.tri", []byte("import triton\n\n@triton.jit\ndef k(x:\n"), nil)
	var d *diag.Diagnostic
	var l *diag.List
	if !errors.As(err, &d) {
		require.True(t, errors.As(err, &l), "%v", err)
		d = l.Items[0]
	}
	assert.Equal(t, "bad.tri", d.Pos.File)
	assert.Equal(t, 4, d.Pos.Line)
	assert.Equal(t, 2, hosteval.ExitCode(err))
}

// PrepareLine binds a launch line over values a Go program set, and
// RuntimeValues hands back, for each runtime parameter of the kernel, the
// value bound to it: the tensors themselves and the number n (BLOCK_SIZE
// is a constexpr, not a runtime parameter).
func TestPrepareLineRuntimeValues(t *testing.T) {
	sf, err := ParseFile(filepath.Join("..", "samples", "add.tri"), nil)
	require.NoError(t, err)
	x, y, out := tensor.New(ir.Float32, 5), tensor.New(ir.Float32, 5), tensor.New(ir.Float32, 5)
	env := hosteval.NewEnv(0)
	env.Set("a", hosteval.TensorValue(x))
	env.Set("b", hosteval.TensorValue(y))
	env.Set("c", hosteval.TensorValue(out))
	p, err := PrepareLine(sf, "add_kernel[(triton.cdiv(5, 4),)](a, b, c, 5, BLOCK_SIZE=4)", env, nil)
	require.NoError(t, err)
	assert.Equal(t, [3]int{2, 1, 1}, p.Grid)
	vals, err := p.RuntimeValues()
	require.NoError(t, err)
	require.Len(t, vals, 4)
	assert.Same(t, x, vals[0].Tensor)
	assert.Same(t, out, vals[2].Tensor)
	assert.Equal(t, hosteval.IntValue(5), vals[3])

	_, err = PrepareLine(sf, "add_kernel[(1,)](a, b, nothing, 5, BLOCK_SIZE=4)", env, nil)
	assert.ErrorContains(t, err, "nothing")
	_, err = PrepareLine(sf, "sub_kernel[(1,)](a)", env, nil)
	assert.ErrorContains(t, err, "defines no @triton.jit function \"sub_kernel\"")
	_, err = (&Prepared{}).RuntimeValues()
	assert.Error(t, err)
}
