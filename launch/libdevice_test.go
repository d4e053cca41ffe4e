package launch

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// TestLibdeviceSlack: a kernel's libdevice calls widen --check's tolerance
// by their documented error plus an ulp, and only where they are called.
func TestLibdeviceSlack(t *testing.T) {
	for _, tc := range []struct {
		file string
		want libSlack
	}{
		{"../samples/extern_tutorial07.tri", libSlack{ulps: 3}},                   // asinf: 2 ulp
		{"../conformance/constructs/libdevice_bessel.tri", libSlack{323, 2.2e-6}}, // ynf: ceil(2 + 2.5n) ulp for n = 128, or 2.2e-6
		{"../conformance/constructs/libdevice_intbits.tri", libSlack{ulps: 1}},    // int_as_float: exact
		{"../samples/add.tri", libSlack{}},
		{"testdata/libdevice_combine.tri", libSlack{ulps: 4}}, // hypotf in a combine function: 3 ulp
	} {
		s, err := ReadSample(filepath.Clean(tc.file))
		require.NoError(t, err)
		p, err := Prepare(s.Path, s.Launch, &Options{Lets: s.Lets})
		require.NoError(t, err, tc.file)
		assert.Equal(t, tc.want, libdeviceSlack(p.Kernel), tc.file)
	}
}

func TestCloseEnoughWithSlack(t *testing.T) {
	// 1e-30: the table's atol (1e-6) covers any difference, so compare
	// large values, where rtol is 1e-5 (about 84 ulp at 1.0).
	one := float64(float32(1.5))
	up := func(n int) float64 {
		f := float32(one)
		for range n {
			f = math.Nextafter32(f, 2)
		}
		return float64(f)
	}
	ref := floats(ir.Float32, 0, one)
	assert.Error(t, closeEnoughWith("x", floats(ir.Float32, 3e-6, one), ref, false, libSlack{}))
	assert.NoError(t, closeEnoughWith("x", floats(ir.Float32, 3e-6, one), ref, false, libSlack{abs: 4e-6}))
	assert.Error(t, closeEnoughWith("x", floats(ir.Float32, 0, up(200)), ref, false, libSlack{ulps: 199}))
	assert.NoError(t, closeEnoughWith("x", floats(ir.Float32, 0, up(200)), ref, false, libSlack{ulps: 200}))
}
