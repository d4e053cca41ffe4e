package kernelgen

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/launch"
)

// dotSeeds is the range of seeds, from 0, whose dot-position kernels the
// tests below generate, interpret and build.
const dotSeeds = 160

func dotKernels() []*Kernel {
	ks := make([]*Kernel, dotSeeds)
	for seed := range ks {
		ks[seed] = GenerateWith(uint64(seed), Options{DotPositions: 1})
	}
	return ks
}

func (k *Kernel) has(f string) bool { return slices.Contains(k.Features, f) }

// dots is the number of dots of a kernel of attentionDots, 1 for one of
// kLoopDot.
func (k *Kernel) dots() int {
	for n := 2; n <= 5; n++ {
		if k.has("dots" + string(rune('0'+n))) {
			return n
		}
	}
	return 1
}

// dotPositions are the positions of dots.go's comment, each a test of a
// kernel; wgmma says the position must be seen reaching wgmma on sm_90a
// (and falling back) in the seed range, not only generated.
var dotPositions = []struct {
	name  string
	wgmma bool
	is    func(k *Kernel) bool
}{
	{"one dot outside any loop", true, func(k *Kernel) bool { return k.has("alone") && k.dots() == 1 }},
	{"dots outside any loop, one feeding the next", true, func(k *Kernel) bool { return k.has("alone") && k.dots() > 1 }},
	{"K loop at num_stages=1", true, func(k *Kernel) bool { return k.has("stages1") && k.dots() == 1 }},
	{"K loop at num_stages 2 to 4", true, func(k *Kernel) bool { return k.has("stagesN") && k.dots() == 1 }},
	{"two dots in a loop", true, func(k *Kernel) bool { return !k.has("alone") && k.dots() == 2 }},
	{"three dots in a loop", true, func(k *Kernel) bool { return !k.has("alone") && k.dots() == 3 }},
	{"four dots in a loop", true, func(k *Kernel) bool { return !k.has("alone") && k.dots() == 4 }},
	{"dots in a loop at num_stages=1", true, func(k *Kernel) bool { return k.has("stages1") && k.dots() > 1 }},
	{"dots in a loop at num_stages 2 to 4", true, func(k *Kernel) bool { return k.has("stagesN") && k.dots() > 1 }},
	{"num_stages from tl.range", true, func(k *Kernel) bool { return strings.Contains(k.Source, ", num_stages=") }},
	{"num_stages from the launch", true, func(k *Kernel) bool { return strings.Contains(k.Source, "num_warps=4, num_stages=") }},
	{"a result feeding the next dot twice", true, func(k *Kernel) bool { return k.has("chain") }},
	{"a computed from a result", true, func(k *Kernel) bool { return k.has("a-computed") }},
	{"a defined before the loop", true, func(k *Kernel) bool { return k.has("invariant-a") && !k.has("alone") }},
	{"b defined before the loop", true, func(k *Kernel) bool { return k.has("invariant-b") }},
	{"a load two dots read, one through a transpose", true, func(k *Kernel) bool { return k.has("shared-load") && !k.has("alone") }},
	{"b through tl.trans", true, func(k *Kernel) bool { return strings.Contains(k.Source, "tl.trans(") }},
	{"b through .T", true, func(k *Kernel) bool { return strings.Contains(k.Source, ".T") }},
	{"b through transposed strides", true, func(k *Kernel) bool { return k.has("b-strided") }},
	{"a through transposed strides", true, func(k *Kernel) bool { return k.has("a-strided") }},
	{"acc = tl.dot(a, b, acc)", true, func(k *Kernel) bool { return k.has("acc-arg") }},
	{"acc += tl.dot(a, b)", true, func(k *Kernel) bool { return k.has("acc-add") }},
	{"unmasked loads", true, func(k *Kernel) bool { return !strings.Contains(k.Source, "other=") }},
	{"bf16", true, func(k *Kernel) bool { return k.has("dot-bfloat16") }},
	{"8 warps", true, func(k *Kernel) bool { return strings.Contains(k.Source, "num_warps=8") }},
	{"fp32 (tf32)", false, func(k *Kernel) bool { return k.has("dot-float32") }},
	{"fp32 ieee", false, func(k *Kernel) bool { return strings.Contains(k.Source, `input_precision="ieee"`) }},
	{"fp32 tf32x3", false, func(k *Kernel) bool { return strings.Contains(k.Source, `input_precision="tf32x3"`) }},
	{"int8", false, func(k *Kernel) bool { return k.has("dot-int8") }},
	{"fp64", false, func(k *Kernel) bool { return k.has("dot-float64") }},
	{"fp16 or bf16 below 16 rows a warp", false, func(k *Kernel) bool {
		return !k.Wgmma && (k.has("dot-float16") || k.has("dot-bfloat16"))
	}},
}

// TestDotPositionsGenerated checks that each position is generated in the
// seed range, those meant for wgmma both with shapes that reach it and
// with shapes that fall back.
func TestDotPositionsGenerated(t *testing.T) {
	ks := dotKernels()
	for _, p := range dotPositions {
		var fast, slow int
		for _, k := range ks {
			if p.is(k) {
				if k.Wgmma {
					fast++
				} else {
					slow++
				}
			}
		}
		t.Logf("%-50s %d %d", p.name, fast, slow)
		assert.Positive(t, fast+slow, "%s: never generated", p.name)
		if p.wgmma {
			assert.Positive(t, fast, "%s: never with a wgmma form", p.name)
			assert.Positive(t, slow, "%s: never falling back", p.name)
		}
	}
}

// TestDotPositionsBuild interprets every kernel of the seed range (its
// outputs in the generator's intervals) and builds it for sm_80 and sm_90a:
// on sm_90a every dot of a kernel meant for wgmma is one (the instructions
// wgmma.mma_async.sync and no mma.sync, not the prelude's comments), and
// its loop is pipelined at 2 to 4 stages; on sm_80 no dot is a wgmma.
func TestDotPositionsBuild(t *testing.T) {
	dir := t.TempDir()
	for _, k := range dotKernels() {
		path := filepath.Join(dir, k.Name+".tri")
		require.NoError(t, os.WriteFile(path, []byte(k.Source), 0o644))
		s, err := launch.ReadSample(path)
		require.NoError(t, err)
		out, err := s.Interpret(0)
		if !assert.NoError(t, err, "seed %d:\n%s", k.Seed, k.Source) {
			continue
		}
		for _, o := range k.Outputs {
			assert.NoError(t, o.Check(out.After[o.Name]), "seed %d:\n%s", k.Seed, k.Source)
		}
		for _, arch := range []string{"sm_80", "sm_90a"} {
			var b bytes.Buffer
			if !assert.NoError(t, launch.BuildFile(path, "", &launch.Options{Arch: arch, Stdout: &b}), "seed %d at %s:\n%s", k.Seed, arch, k.Source) {
				continue
			}
			cuda := b.String()
			wgmma, mma := strings.Contains(cuda, "wgmma.mma_async.sync"), strings.Contains(cuda, "mma.sync.aligned")
			switch {
			case arch == "sm_80":
				assert.False(t, wgmma, "seed %d: wgmma at sm_80", k.Seed)
			case k.Wgmma:
				assert.True(t, wgmma && !mma, "seed %d (%s): at sm_90a, wgmma %v, mma.sync %v:\n%s", k.Seed, strings.Join(k.Features, ", "), wgmma, mma, k.Source)
				// A loop of 2 to 4 stages whose b operands are all loaded in
				// it is software-pipelined: its copies run ahead.
				// (The copy helpers are printed only where a kernel uses
				// them; the prelude's comments name cp.async too.)
				copies := strings.Contains(cuda, "cp.async.commit_group") || strings.Contains(cuda, "cp.async.bulk")
				if k.has("stagesN") && !k.has("invariant-b") {
					assert.True(t, copies, "seed %d (%s): not pipelined at sm_90a:\n%s", k.Seed, strings.Join(k.Features, ", "), k.Source)
				}
			}
		}
	}
}

// TestDotShare checks that Options.DotPositions gates the dot positions:
// none at 0, all at 1, about the default share by default, and that the
// other kernels are the same whatever the share.
func TestDotShare(t *testing.T) {
	n := 0
	for seed := range uint64(2000) {
		k := Generate(seed)
		none, all := GenerateWith(seed, Options{}), GenerateWith(seed, Options{DotPositions: 1})
		assert.False(t, none.has("dots"), "seed %d", seed)
		assert.True(t, all.has("dots"), "seed %d", seed)
		if k.has("dots") {
			n++
			assert.Equal(t, all.Source, k.Source, "seed %d", seed)
		} else {
			assert.Equal(t, none.Source, k.Source, "seed %d", seed)
		}
	}
	assert.InDelta(t, DefaultDotPositions, float64(n)/2000, 0.03)
}

// TestDotOperandsFit checks, from the launch lines of many dot-position
// kernels, that the operands of each dot fit maxOperandBytes (tri refuses
// fp64 operands beyond a program's shared memory).
func TestDotOperandsFit(t *testing.T) {
	block := regexp.MustCompile(`\bB([MNKL])=(\d+)`)
	for seed := range uint64(5000) {
		k := GenerateWith(seed, Options{DotPositions: 1})
		b := map[string]int{}
		for _, m := range block.FindAllStringSubmatch(k.Source, -1) {
			b[m[1]], _ = strconv.Atoi(m[2])
		}
		var e dotElem
		for _, x := range dotElems {
			if k.has("dot-" + x.name) {
				e = x
			}
		}
		dots := [][3]int{{b["M"], b["K"], b["N"]}}
		if b["L"] > 0 {
			q := b["K"]
			if k.has("shared-load") {
				q = b["N"]
			}
			dots = [][3]int{{b["M"], q, b["L"]}, {b["M"], b["L"], b["L"]}, {b["M"], b["L"], b["N"]}}
		}
		for _, d := range dots {
			assert.LessOrEqual(t, e.operandBytes(d[0], d[1], d[2]), maxOperandBytes, "seed %d: %s dot %v", seed, e.name, d)
		}
	}
}
