package sema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
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
    s = tl.umulhi(tl.load(x_ptr), tl.load(x_ptr))
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
	assert.Equal(t, []string{"tl.umulhi is not supported by tri yet", "break is not supported in Triton", "tl.extra.libdevice.tanh is not supported by tri yet"}, warnings)
	assert.Equal(t, []string{"tl has no attribute lodd / did you mean tl.load?"}, errors)
}
