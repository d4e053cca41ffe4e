package cudagen

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// cName matches the names the prelude and the helpers define.
var cName = regexp.MustCompile(`\b(?:tri|TRI)_\w+\b`)

// staticGroups are the prelude's groups and the helper groups written out
// in the source (not built per kernel).
func staticGroups() map[string]cgroup {
	gs := map[string]cgroup{"shuffle": shuffleHelpers, "mma": mmaHelpers, "mma_tf32": mmaTF32Helpers,
		"mma_i8": mmaInt8Helpers, "tf32": tf32Helper, "cp_async": cpAsyncHelpers, "ldmatrix_shared": ldmatrixSharedHelpers,
		"mbar_add_tx": mbarAddTx, "stshared": stSharedHelpers, "cp_async_n": cpAsyncNHelpers, "wgmma": wgmmaHelpers,
		"tma": tmaHelpers, "tma5d": tmaLoad5D, "tmap_build": tmapBuildHelper, "tmap_build_rows": tmapBuildRowsHelper,
		"shfl_idx": shflIdxHelper, "printf": printfHelper, "assert": assertHelper, "transpose": transposeHelpers,
		"umulhi32": umulhiHelpers[32], "umulhi64": umulhiHelpers[64], "pack_f16": packHelpers[ir.Float16],
		"pack_bf16": packHelpers[ir.BFloat16]}
	for i, g := range preludeGroups {
		gs["prelude"+string(rune('a'+i))] = g
	}
	for _, g := range libdeviceSupport {
		gs[g.defs[0].name] = g
	}
	return gs
}

// TestDefDeps checks each written-out definition's deps against its text:
// a definition that names another must list it, or a kernel using the
// first would miss the second.
func TestDefDeps(t *testing.T) {
	for key, g := range staticGroups() {
		for _, d := range g.defs {
			named := nameSet{}
			for _, n := range cName.FindAllString(d.text, -1) {
				if n != d.name && n != "TRI_DEV" {
					named.use(n)
				}
			}
			assert.Equal(t, named.sorted(), append([]string{}, d.deps...), "%s: %s", key, d.name)
			assert.True(t, sort.StringsAreSorted(d.deps), "%s: %s", key, d.name)
		}
	}
}

// TestPreludeFor: the prelude holds what the names recorded need and
// nothing else, a definition's deps before it in the table's order.
func TestPreludeFor(t *testing.T) {
	src := preludeFor(nameSet{"tri_h2f": true, "tri_sin_f32": true}, []cgroup{shuffleHelpers})
	for _, want := range []string{"typedef unsigned short tri_half;", "TRI_DEV float tri_h2f(", "TRI_DEV float tri_sin_f32(",
		"#define TRI_SIN_F32(x) __nv_sinf(x)", "#define TRI_SIN_F32(x) sinf(x)"} {
		assert.Contains(t, src, want)
	}
	for _, not := range []string{"tri_bf16", "tri_f2h", "tri_cos_f32", "TRI_COS_F32", "tri_shfl_xor", "helpers used by this kernel"} {
		assert.NotContains(t, src, not)
	}
	assert.Less(t, strings.Index(src, "typedef unsigned short tri_half;"), strings.Index(src, "tri_h2f("))

	// A helper group is printed after the prelude, only its used
	// definitions (one name's overloads together), and what they use.
	src = preludeFor(nameSet{"tri_shfl_xor": true}, []cgroup{shuffleHelpers})
	assert.Contains(t, src, "// ---- helpers used by this kernel ----")
	assert.Equal(t, 11, strings.Count(src, " tri_shfl_xor("))
	for _, want := range []string{"tri_shfl_xor_b64(", "TRI_DEV float tri_f32_bits(", "tri_bits_f64("} {
		assert.Contains(t, src, want)
	}
}

// TestRecorded: the builders of C text record the names they print.
func TestRecorded(t *testing.T) {
	s := nameSet{}
	s.castExpr(ir.TBF16, ir.TFloat16, "x", 0)
	assert.Equal(t, []string{"tri_bf2f", "tri_f2h"}, s.sorted())

	s = nameSet{}
	s.literal(ir.TFloat32, ir.FloatConst(1))
	s.cType(ir.PtrTo(ir.Int32))
	assert.Empty(t, s.sorted(), "plain C needs no definition")
	s.literal(ir.TFloat64, ir.FloatConst(-1/zero()))
	s.cType(ir.PtrTo(ir.BFloat16))
	assert.Equal(t, []string{"tri_bf16", "tri_f64_bits"}, s.sorted())

	// A layout's coordinate names its base; a position over one lane
	// names no lane_id.
	d := &dist{Tag: "L3", Shape: []int{16, 32}, Spt: []int{1, 4}, SptFull: []int{1, 4}, Reps: []int{1, 1}, RStride: []int{1, 1},
		KStride: []int{1, 1}, Span: []int{16, 32}, Elems: 4}
	s = nameSet{}
	s.coord(d, 1, "e")
	s.pos(spread{1, 1}, "lane_id")
	assert.Equal(t, []string{"L3_base1"}, s.sorted())
	s.pos(spread{4, 8}, "lane_id")
	assert.True(t, s["lane_id"])
}

func zero() float64 { return 0 }
