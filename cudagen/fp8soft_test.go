package cudagen

import "strings"

// FP8SoftC is the C text of fp8e5's software conversions before sm_89 and
// of the widening of its mma fragments, for the tests of package
// cudagen_test to compile and run on the host: every definition of
// fp8SoftPrelude and fp8MmaF16Helper whose text uses no inline PTX, after
// the fp8e5 typedef.
func FP8SoftC() string {
	var b strings.Builder
	for _, g := range []cgroup{fp8Prelude, fp8SoftPrelude, fp8MmaF16Helper} {
		for _, d := range g.defs {
			if d.name == "tri_fp8e5" || g.head != fp8Prelude.head && !strings.Contains(d.text, "asm") && !strings.Contains(d.text, "tri_mma_f16(") && !strings.Contains(d.text, "tri_f2h_rz(") {
				b.WriteString(d.text + "\n")
			}
		}
	}
	return b.String()
}
