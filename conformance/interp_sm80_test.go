package conformance

// This file runs the fp8e5 constructs in the interpreter with sm_80 as the
// target, as `tri run --check --arch sm_80` does: its conversions must then
// be Triton's below sm_89 (sm80References and the soft* narrowings of
// refs_fp8e5_sm80_test.go, written apart from the interpreter's).

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// interpretFor runs the sample's launch in the interpreter for target
// arch and returns its tensors before and after, and its numbers.
func interpretFor(t *testing.T, s *launch.Sample, arch string) (before, after tensors, num map[string]float64) {
	t.Helper()
	p, err := launch.Prepare(s.Path, s.Launch, &launch.Options{Lets: s.Lets, Seed: seed, Arch: arch})
	require.NoError(t, err)
	before, after, num = tensors{}, tensors{}, map[string]float64{}
	for _, n := range p.Env.Names() {
		v, _ := p.Env.Lookup(n)
		switch v.Kind {
		case hosteval.VTensor:
			before[n], after[n] = v.Tensor.Clone(), v.Tensor
		case hosteval.VInt:
			num[n] = float64(v.Int)
		}
	}
	require.NoError(t, p.Interpret(0))
	return before, after, num
}

// TestInterpreterSM80 runs the fp8e5 constructs in the interpreter at
// sm_80 and compares them with Triton's results there; at sm_90 the codes'
// construct keeps its cvt references.
func TestInterpreterSM80(t *testing.T) {
	byKey := map[string]testCase{}
	for _, c := range testCases(t) {
		byKey[c.key] = c
	}
	run := func(key, arch string, ref Reference) {
		t.Run(key+"@"+arch, func(t *testing.T) {
			c, ok := byKey[key]
			require.True(t, ok, "no file for %s", key)
			before, after, num := interpretFor(t, c.sample, arch)
			want := ref(before, num)
			for _, name := range c.sample.Checks {
				require.Contains(t, want, name)
				if err := launch.CompareTensors(name, after[name], want[name], c.sample.Tolerance); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for _, key := range []string{"fp8e5_sm80", "fp8_e5_codes", "wgmma_alone_fp8_pack"} {
		run(key, "sm_80", sm80References[key])
		run(key, "sm_90a", references[key])
	}
}

const fp8BitsSM80Kernel = `# launch: k[(64,)](he, bfe, fe, BLOCK=1024)
# let: he=zeros(65536, dtype='uint8')
# let: bfe=zeros(65536, dtype='uint8')
# let: fe=zeros(65536, dtype='uint8')
import triton
import triton.language as tl


@triton.jit
def k(he_ptr, bfe_ptr, fe_ptr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    h = i.to(tl.int16).to(tl.float16, bitcast=True)
    tl.store(he_ptr + i, h.to(tl.float8e5).to(tl.uint8, bitcast=True))
    b = i.to(tl.int16).to(tl.bfloat16, bitcast=True)
    tl.store(bfe_ptr + i, b.to(tl.float8e5).to(tl.uint8, bitcast=True))
    f = ((i << 16) | ((i >> 7) & ~(i >> 8) & 1)).to(tl.float32, bitcast=True)
    tl.store(fe_ptr + i, f.to(tl.float8e5).to(tl.uint8, bitcast=True))
`

// TestInterpreterSM80Bits narrows every fp16 and bf16 bit pattern and an
// fp32 sweep (every sign, exponent and 7 top mantissa bits, the lowest bit
// set where the exponent's low bits are 01: ties and values just past
// them, subnormals, inf and NaNs) to
// fp8e5 in the interpreter at sm_80 and holds each code to the soft*
// narrowings.
func TestInterpreterSM80Bits(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bits.tri")
	require.NoError(t, os.WriteFile(file, []byte(fp8BitsSM80Kernel), 0o644))
	s, err := launch.ReadSample(file)
	require.NoError(t, err)
	_, after, _ := interpretFor(t, s, "sm_80")
	f32 := func(i uint32) uint32 { return i<<16 | (i>>7)&^(i>>8)&1 }
	bad := map[string]int{}
	for i := range uint32(65536) {
		got := func(name string) *tensor.Tensor { return after[name] }
		for _, c := range []struct {
			name string
			want uint8
			in   uint32
		}{
			{"he", softFromF16(i), i},
			{"bfe", softFromBF16(i), i},
			{"fe", softFromF32(f32(i)), f32(i)},
		} {
			if g := got(c.name).Data[i]; g != c.want {
				if bad[c.name]++; bad[c.name] <= 5 {
					t.Errorf("%s: input %#x: got %#x, want %#x", c.name, c.in, g, c.want)
				}
			}
		}
	}
	assert.Empty(t, bad)
	// The sweep reaches ties, values just past them, NaN and inf.
	var nan, inf, ties, past int
	for i := range uint32(65536) {
		x := math.Float32frombits(f32(i))
		if x != x {
			nan++
		}
		if math.IsInf(float64(x), 0) {
			inf++
		}
		if b := f32(i); b&0x1fffff == 0x100000 {
			ties++
		} else if b&0x1fffff == 0x100001 {
			past++
		}
	}
	assert.Positive(t, nan)
	assert.Positive(t, inf)
	assert.Positive(t, ties)
	assert.Positive(t, past)
}
