package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInterpreterPrints runs the kernels of testdata/debug in the
// interpreter and compares what they print (stdout) with the .stdout file
// beside each (UPDATE_GOLDEN=1 rewrites them; review the diff): the lines
// of tl.device_print and print in Triton's format, programs in order. A
// kernel whose assertion fails exits 1 with the placed message of its
// .stderr file.
func TestInterpreterPrints(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "debug", "*.tri"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(f, ".tri")
		t.Run(filepath.Base(name), func(t *testing.T) {
			stdout, stderr, code := tri(t, "run", "--interpret", f)
			golden := name + ".stdout"
			if os.Getenv("UPDATE_GOLDEN") != "" {
				require.NoError(t, os.WriteFile(golden, []byte(stdout), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run UPDATE_GOLDEN=1 go test ./cmd/tri to create it")
			assert.Equal(t, string(want), stdout)
			wantErr, err := os.ReadFile(name + ".stderr")
			if os.IsNotExist(err) {
				assert.Equal(t, 0, code, stderr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, 1, code, stderr)
			assert.Contains(t, stderr, strings.TrimSpace(string(wantErr)))
		})
	}
}

// TestDebugFlag: device assertions are compiled into the CUDA only with
// --debug or TRITON_DEBUG=1, as Triton compiles them only with debug=True.
func TestDebugFlag(t *testing.T) {
	file := filepath.Join("testdata", "debug", "assert_fail.tri")
	tests := []struct {
		args []string
		env  string
		want bool
	}{
		{nil, "", false},
		{[]string{"--debug"}, "", true},
		{nil, "1", true},
		{nil, "0", false},
		{[]string{"--debug=false"}, "1", false},
	}
	for _, tc := range tests {
		t.Setenv("TRITON_DEBUG", tc.env)
		out, stderr, code := tri(t, append([]string{"build", file}, tc.args...)...)
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, tc.want, strings.Contains(out, "tri_assert_fail(\"x must not be 6\""), "args %v TRITON_DEBUG=%q", tc.args, tc.env)
	}
	// The launch option debug=True, as Triton's.
	t.Setenv("TRITON_DEBUG", "")
	lets := []string{"--let", "x=arange(8, dtype='int32')", "--let", "out=zeros(8, dtype='int32')"}
	out, stderr, code := tri(t, append([]string{"build", file, "assert_kernel[(2,)](x, out, BLOCK=4, debug=True)"}, lets...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "tri_assert_fail(\"x must not be 6\"")
	_, stderr, code = tri(t, append([]string{"build", file, "assert_kernel[(2,)](x, out, BLOCK=4, debug=1)"}, lets...)...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "debug must be True or False")
}

// TestStaticPrint: tl.static_print writes its line to stderr at compile
// time, once per specialization, as Python's print formats it.
func TestStaticPrint(t *testing.T) {
	stdout, stderr, code := tri(t, "build", filepath.Join("testdata", "static_print.tri"))
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, 1, strings.Count(stderr, "BLOCK=64 name x True (1, 'a') int32[64] fp16\n"), stderr)
	assert.Equal(t, 1, strings.Count(stderr, "a-b."), stderr)
	assert.NotContains(t, stdout, "name x True")
}
