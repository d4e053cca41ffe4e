package cudagen_test

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPipelineRecordIsPrinted holds the pipeline record that Describe
// reports against the CUDA printed from it: each pipelined loop's printed
// comment says as many shared-memory buffers as the record has, in the
// same order; the record's shared memory is the operands stored once
// (tri_inv's offset) and its buffers of the stage size the copies step
// by; and the kernel declares at least that much. A printer that sized
// its stages apart from the record, or a record that miscounted them,
// fails here.
func TestPipelineRecordIsPrinted(t *testing.T) {
	reHead := regexp.MustCompile(`Software-pipelined[^\n]*? stream into (\d+) shared-memory (?:stages|buffers)`)
	reInv := regexp.MustCompile(`tri_stage0 = tri_inv \+ (\d+)u`)
	reStage := regexp.MustCompile(`tri_stage0 \+ tri_\w+ \* (\d+)`)
	reShared := regexp.MustCompile(`Dynamic shared memory: (\d+) bytes|unsigned char tri_smem\[(\d+)\]`)
	cases := []struct{ file, arch string }{
		{"attention_fwd", "sm_80"}, {"attention_fwd", "sm_90a"},
		{"matmul_batched", "sm_80"}, {"matmul_batched", "sm_90a"},
		{"matmul_naive", "sm_80"}, {"matmul_naive", "sm_90a"},
		{"matmul_fp8", "sm_90a"}, // its fp8e4nv has no sm_80 form
	}
	pipelined := 0
	for _, c := range cases {
		file := "../samples/" + c.file + ".tri"
		t.Run(fmt.Sprintf("%s %s", c.file, c.arch), func(t *testing.T) {
			d := describe(t, file, "", nil, c.arch)
			src := buildLaunch(t, file, "", nil, c.arch)
			heads := reHead.FindAllStringSubmatch(src, -1)
			at := reHead.FindAllStringIndex(src, -1)
			var loops []int
			for i, l := range d.Loops {
				if l.Pipelined {
					loops = append(loops, i)
				}
			}
			require.Len(t, heads, len(loops), "pipelined loops printed and recorded")
			declared := 0
			if m := reShared.FindStringSubmatch(src); m != nil {
				declared, _ = strconv.Atoi(m[1] + m[2])
			}
			for j, i := range loops {
				l := d.Loops[i]
				assert.Equal(t, strconv.Itoa(l.Buffers), heads[j][1], "loop at line %d", l.Pos.Line)
				assert.LessOrEqual(t, l.SharedBytes, declared, "loop at line %d", l.Pos.Line)
				end := len(src)
				if j+1 < len(at) {
					end = at[j+1][0]
				}
				loop := src[at[j][0]:end]
				inv := 0
				if m := reInv.FindStringSubmatch(loop); m != nil {
					inv, _ = strconv.Atoi(m[1])
				}
				m := reStage.FindStringSubmatch(loop)
				require.NotNil(t, m, "the stage size of the loop at line %d", l.Pos.Line)
				stage, _ := strconv.Atoi(m[1])
				assert.Equal(t, inv+l.Buffers*stage, l.SharedBytes, "loop at line %d", l.Pos.Line)
				assert.Contains(t, []int{l.Stages, l.Stages + 1}, l.Buffers)
				pipelined++
			}
		})
	}
	assert.GreaterOrEqual(t, pipelined, 7, "the cases' pipelined loops")
}
