package hosteval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/frontend"
)

func TestParseLaunch(t *testing.T) {
	l, err := ParseLaunch("add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024, num_warps=8, num_stages=2)")
	require.NoError(t, err)
	assert.Equal(t, "add_kernel", l.Kernel)
	assert.IsType(t, &frontend.Tuple{}, l.Grid)
	assert.Len(t, l.Args, 4)
	require.Len(t, l.Kwargs, 1)
	assert.Equal(t, "BLOCK_SIZE", l.Kwargs[0].Name)
	assert.Equal(t, 8, l.NumWarps)
	assert.Equal(t, 2, l.NumStages)
	assert.Equal(t, 1, l.Args[0].Position().Col-len("add_kernel[(triton.cdiv(n, 1024),)]("))

	l, err = ParseLaunch("k[grid](x, num_warps=NW)")
	require.NoError(t, err)
	assert.IsType(t, &frontend.Name{}, l.Grid)
	assert.Equal(t, 0, l.NumWarps)
	require.Len(t, l.Kwargs, 1, "a non-literal num_warps is left to bind.Args")
	assert.Equal(t, len("k[grid](x, num_warps=NW)"), l.EndCol)

	l, err = ParseLaunch("k[lambda meta: (triton.cdiv(n, meta['B']),)]()")
	require.NoError(t, err)
	assert.IsType(t, &frontend.Lambda{}, l.Grid)
	assert.Empty(t, l.Args)
}

func TestParseLaunchErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"add_kernel(x, y)", "launch:1:1: missing the grid: a launch is written kernel[grid](args...), as in Python"},
		{"add_kernel[(1,)]", "launch:1:1: a launch is written kernel[grid](args...), as in Python"},
		{"a.k[(1,)](x)", "launch:1:1: the kernel must be named by a plain name: a launch is written kernel[grid](args...), as in Python"},
		{"k[1:2](x)", "launch:1:3: the grid must be a tuple, a lambda or a name, not a slice"},
		{"k[(1,)](*xs)", "launch:1:10: *args is not supported in a launch line; list the arguments"},
		{"k[(1,)](x, B=1, B=2)", "launch:1:17: keyword argument 'B' repeated"},
		{"k[(1,)](x, num_warps=3)", "launch:1:22: num_warps must be a power of two from 1 to 32"},
		{"k[(1,)](x, num_stages=0)", "launch:1:23: num_stages must be a positive integer"},
	} {
		_, err := ParseLaunch(tc.line)
		require.Error(t, err, tc.line)
		assert.Equal(t, tc.want, err.Error(), tc.line)
		assert.Equal(t, 2, ExitCode(err), tc.line)
	}
	_, err := ParseLaunch("k[(1,)](x,, y)")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "launch:1:")
	assert.Contains(t, err.Error(), "syntax error")
}
