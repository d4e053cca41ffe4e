package sema

import (
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
	for _, path := range files {
		f, d := frontend.Parse(path, []byte(readSample(t, filepath.Base(path))))
		require.NoError(t, d.Err())
		assert.NoError(t, Check(f).Err(), path)
	}
}

func TestCheckWarnings(t *testing.T) {
	src := header + `
@triton.jit
def k(x_ptr, n):
    s = tl.sum(tl.load(x_ptr))
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
	assert.Equal(t, []string{"tl.sum is not supported by tri yet", "break is not supported in Triton", "tl.extra.libdevice.tanh is not supported by tri yet"}, warnings)
	assert.Equal(t, []string{"tl has no attribute lodd / did you mean tl.load?"}, errors)
}
