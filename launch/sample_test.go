package launch

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

func TestParseSampleHeader(t *testing.T) {
	src := "# A comment.\n#\n# launch: k[(1,)](x, n)\n# let: n=4\n# let: x=rand(n)\n# check: x y\n# tolerance: ulp=2\nimport triton\n# launch: ignored\n"
	s, err := ParseSampleHeader("k.tri", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, "k[(1,)](x, n)", s.Launch)
	assert.Equal(t, []string{"n=4", "x=rand(n)"}, s.Lets)
	assert.Equal(t, []string{"x", "y"}, s.Checks)
	assert.Equal(t, "ulp=2", s.Tolerance)
	_, err = ParseSampleHeader("k.tri", []byte("import triton\n"))
	assert.ErrorContains(t, err, "no '# launch:' line")
}

func TestSamplesHaveHeaders(t *testing.T) {
	files, err := filepath.Glob("../samples/*.tri")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		s, err := ReadSample(f)
		require.NoError(t, err, f)
		assert.NotEmpty(t, s.Checks, f)
	}
}

func TestReadSampleMissingFile(t *testing.T) {
	_, err := ReadSample(filepath.Join(t.TempDir(), "nope.tri"))
	require.Error(t, err)
	assert.Equal(t, 2, hosteval.ExitCode(err))
	_, statErr := os.Stat("nope")
	assert.Error(t, statErr)
}

func floats(k ir.Kind, vs ...float64) *tensor.Tensor {
	t := tensor.New(k, len(vs))
	for i, v := range vs {
		t.SetFloat(i, v)
	}
	return t
}

func TestCompareTensors(t *testing.T) {
	a := floats(ir.Float32, 1, 2, math.NaN())
	b := floats(ir.Float32, 1, 2, math.NaN())
	assert.NoError(t, CompareTensors("x", a, b, "exact"))
	next := float64(math.Nextafter32(2, 3))
	c := floats(ir.Float32, 1, next, math.NaN())
	assert.Error(t, CompareTensors("x", a, c, "exact"))
	assert.NoError(t, CompareTensors("x", a, c, ""))
	assert.NoError(t, CompareTensors("x", a, c, "ulp=1"))
	assert.Error(t, CompareTensors("x", a, floats(ir.Float32, 1, 2.001, math.NaN()), ""))
	assert.Error(t, CompareTensors("x", a, floats(ir.Float32, 1, 2, 0), ""))
	assert.Error(t, CompareTensors("x", a, floats(ir.Float16, 1, 2, 0), ""))

	i1, i2 := tensor.New(ir.Int32, 2), tensor.New(ir.Int32, 2)
	i2.SetInt(1, 1)
	assert.ErrorContains(t, CompareTensors("y", i1, i2, ""), "1 of 2 elements differ")
	assert.Error(t, CompareTensors("y", i1, i2, "bogus"))

	h1, h2 := floats(ir.Float16, 1, -0.5), floats(ir.Float16, 1.0009765625, -0.5)
	assert.NoError(t, CompareTensors("h", h1, h2, "ulp=1"))
	assert.Error(t, CompareTensors("h", h1, h2, "exact"))
	// Across zero: +0 and -0 are 0 ulp apart after ordering.
	assert.NoError(t, CompareTensors("z", floats(ir.Float32, 0), floats(ir.Float32, math.Copysign(0, -1)), "ulp=0"))

	// atol: sums near zero are far apart in ulps but close in value.
	s1, s2 := floats(ir.Float32, 1e-9, 5), floats(ir.Float32, -2e-9, 5)
	assert.Error(t, CompareTensors("s", s1, s2, "ulp=16"))
	assert.NoError(t, CompareTensors("s", s1, s2, "ulp=16 atol=1e-8"))
	assert.Error(t, CompareTensors("s", s1, floats(ir.Float32, 1e-9, 5.001), "ulp=16 atol=1e-8"))
	assert.NoError(t, CompareTensors("y", i1, i2, "atol=1"))
	assert.Error(t, CompareTensors("y", i1, i2, "atol=0.5"))
	for _, bad := range []string{"ulp=", "atol=x", "atol=-1", "exact=1", "ulp=2 rtol=1"} {
		assert.Error(t, CompareTensors("y", i1, i1, bad), bad)
	}
}
