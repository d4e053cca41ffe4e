package kernelgen

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

func TestDeterministic(t *testing.T) {
	for seed := range uint64(20) {
		a, b := Generate(seed), Generate(seed)
		assert.Equal(t, a.Source, b.Source, "seed %d", seed)
		assert.NotEqual(t, a.Source, Generate(seed+1).Source, "seeds %d and %d", seed, seed+1)
	}
}

// TestCoverage checks that the generator still makes every construct of
// testdata/constructs.txt.
func TestCoverage(t *testing.T) {
	data, err := os.ReadFile("testdata/constructs.txt")
	require.NoError(t, err)
	var all strings.Builder
	for seed := range uint64(400) {
		all.WriteString(Generate(seed).Source)
	}
	for _, c := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(c, "#") {
			continue
		}
		assert.Contains(t, all.String(), c)
	}
}

func TestOutputCheck(t *testing.T) {
	cases := []struct {
		name    string
		out     Output
		values  []float64
		wantErr string
	}{
		{"inside", Output{Name: "o", Lo: -1, Hi: 2, Float: true}, []float64{-1, 0, 2}, ""},
		{"rounding slack", Output{Name: "o", Lo: 0, Hi: 1, Float: true}, []float64{1.005}, ""},
		{"above", Output{Name: "o", Lo: 0, Hi: 1, Float: true}, []float64{0.5, 1.5}, "o[1] = 1.5 lies outside [0, 1]"},
		{"nan", Output{Name: "o", Lo: 0, Hi: 1, Float: true}, []float64{math.NaN()}, "o[0] = NaN"},
		{"no slack for integers", Output{Name: "o", Lo: 0, Hi: 1}, []float64{1.005}, "o[0] = 1.00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := tensor.New(ir.Float32, len(c.values))
			for i, v := range c.values {
				x.SetFloat(i, v)
			}
			err := c.out.Check(x)
			if c.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.wantErr)
		})
	}
}

// TestInterpret runs the first 50 kernels and those of testdata/seeds.txt
// in the interpreter and checks that their outputs lie in the generator's
// intervals. trifuzz runs more, with clang and on the GPU.
func TestInterpret(t *testing.T) {
	data, err := os.ReadFile("testdata/seeds.txt")
	require.NoError(t, err)
	var seeds []uint64
	for seed := range uint64(50) {
		seeds = append(seeds, seed)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		f, _, _ := strings.Cut(l, " ")
		seed, err := strconv.ParseUint(f, 10, 64)
		require.NoError(t, err, l)
		seeds = append(seeds, seed)
	}
	dir := t.TempDir()
	for _, seed := range seeds {
		k := Generate(seed)
		path := filepath.Join(dir, k.Name+".tri")
		require.NoError(t, os.WriteFile(path, []byte(k.Source), 0o644))
		s, err := launch.ReadSample(path)
		require.NoError(t, err)
		out, err := s.Interpret(0)
		if !assert.NoError(t, err, "seed %d:\n%s", seed, k.Source) {
			continue
		}
		for _, o := range k.Outputs {
			assert.NoError(t, o.Check(out.After[o.Name]), "seed %d:\n%s", seed, k.Source)
		}
	}
}
