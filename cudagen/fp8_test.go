package cudagen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fp8Kernel = `# launch: k[(1,)](x, y, BLOCK=128)
# let: x=zeros(128, dtype='%s')
# let: y=zeros(128)
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs).to(tl.float32))
`

// TestFP8Targets checks which fp8 formats each target takes: Triton's
// message for the formats its NVIDIA backend lacks, and tri's own for
// conversions before sm_89.
func TestFP8Targets(t *testing.T) {
	tests := []struct {
		dtype, arch string
		err         string // "" for success
	}{
		{"float8e4nv", "sm_90a", ""},
		{"float8e5", "sm_89", ""},
		{"float8e4nv", "sm_80", `type fp8e4nv not supported in this architecture. The supported fp8 dtypes are \('fp8e4b15', 'fp8e5'\)`},
		{"float8e5", "sm_80", "converting fp8e5 needs sm_89 or newer"},
		{"float8e4b8", "sm_90a", `type fp8e4b8 not supported in this architecture. The supported fp8 dtypes are \('fp8e4b15', 'fp8e4nv', 'fp8e5'\)`},
		{"float8e5b16", "sm_90a", "type fp8e5b16 not supported in this architecture"},
		{"float8e4b15", "sm_80", ""},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.dtype+"_"+tc.arch, func(t *testing.T) {
			file := filepath.Join(dir, tc.dtype+".tri")
			require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf(fp8Kernel, tc.dtype)), 0o644))
			src, err := build(t, file, tc.arch)
			if tc.err == "" {
				require.NoError(t, err)
				assert.Contains(t, src, "_to_h(x[0])")
				return
			}
			require.Error(t, err)
			assert.Regexp(t, tc.err, err.Error())
		})
	}
}

// TestFP8MatmulPipelined checks that the fp8 matmul sample's K loop runs
// as the wgmma pipeline on sm_90a: m64nNk32 on e4m3, b staged K-major,
// and both operands copied 16 bytes at a time (b's K axis is contiguous,
// so its load takes K as its fastest axis), with no element-by-element
// stores or proxy fence.
func TestFP8MatmulPipelined(t *testing.T) {
	src, err := build(t, "../samples/matmul_fp8.tri", "sm_90a")
	require.NoError(t, err)
	assert.Contains(t, src, "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3")
	assert.Contains(t, src, "(a: K-major, b: K-major, 128- and 128-byte swizzled rows)")
	assert.Len(t, regexp.MustCompile(`e \+= 16\) \{\n(?:\s*const .*\n)*\s*tri_cp_async_16\(`).FindAllString(src, -1), 4, "a and b, before and in the loop")
	assert.NotContains(t, src, "tri_st_shared_u8(tri_stage0")
	assert.NotContains(t, src, "tri_fence_proxy_async();")
}
