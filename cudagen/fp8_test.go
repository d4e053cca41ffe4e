package cudagen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
// message for the formats its NVIDIA backend lacks (fp8e4nv before sm_89
// among them), and how each converts: with the cvt instructions from
// sm_89, fp8e5 in software before (as Triton lowers it there).
func TestFP8Targets(t *testing.T) {
	tests := []struct {
		dtype, arch string
		want        string // the widening, where it builds
		err         string // "" for success
	}{
		{"float8e4nv", "sm_90a", "tri_h2f(tri_e4m3_to_h(x[0]))", ""},
		{"float8e5", "sm_89", "tri_h2f(tri_e5m2_to_h(x[0]))", ""},
		{"float8e5", "sm_80", "tri_h2f(tri_e5m2_to_h_sw(x[0]))", ""},
		{"float8e5", "sm_86", "tri_h2f(tri_e5m2_to_h_sw(x[0]))", ""},
		{"float8e4nv", "sm_80", "", `type fp8e4nv not supported in this architecture. The supported fp8 dtypes are \('fp8e4b15', 'fp8e5'\)`},
		{"float8e4nv", "sm_86", "", `type fp8e4nv not supported in this architecture. The supported fp8 dtypes are \('fp8e4b15', 'fp8e5'\)`},
		{"float8e4b8", "sm_90a", "", `type fp8e4b8 not supported in this architecture. The supported fp8 dtypes are \('fp8e4b15', 'fp8e4nv', 'fp8e5'\)`},
		{"float8e5b16", "sm_90a", "", "type fp8e5b16 not supported in this architecture"},
		{"float8e4b15", "sm_80", "tri_h2f(tri_e4b15_to_h(x[0]))", ""},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.dtype+"_"+tc.arch, func(t *testing.T) {
			file := filepath.Join(dir, tc.dtype+".tri")
			require.NoError(t, os.WriteFile(file, []byte(fmt.Sprintf(fp8Kernel, tc.dtype)), 0o644))
			src, err := build(t, file, tc.arch)
			if tc.err == "" {
				require.NoError(t, err)
				assert.Contains(t, src, tc.want)
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

// fp8E5Kernel converts fp8e5 every way Triton does and runs two dots of
// fp8e5 tiles: one the tensor cores take, one too small for their warp
// split (16 x 16 over 4 warps), on the CUDA cores.
const fp8E5Kernel = `# launch: k[(1,)](x, h, b, f, y, a, c, d, BLOCK=32)
# let: x=zeros(32, dtype='float8e5')
# let: h=zeros(32, dtype='float16')
# let: b=zeros(32, dtype='bfloat16')
# let: f=zeros(32)
# let: y=zeros(32, dtype='float8e5')
# let: a=zeros(32, 32, dtype='float8e5')
# let: c=zeros(32, 32)
# let: d=zeros(16, 16)
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, h_ptr, b_ptr, f_ptr, y_ptr, a_ptr, c_ptr, d_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(h_ptr + offs, x.to(tl.float16))
    tl.store(b_ptr + offs, x.to(tl.bfloat16))
    tl.store(f_ptr + offs, x.to(tl.float32))
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    f = tl.load(f_ptr + offs)
    tl.store(y_ptr + offs, h.to(tl.float8e5))
    tl.store(y_ptr + offs, b.to(tl.float8e5))
    tl.store(y_ptr + offs, f.to(tl.float8e5))
    tl.store(y_ptr + offs, f.to(tl.float8e5, fp_downcast_rounding="rtz"))
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], tl.dot(a, a))
    s = tl.arange(0, 16)
    a16 = tl.load(a_ptr + s[:, None] * 32 + r[None, :])
    b16 = tl.load(a_ptr + r[:, None] * 32 + s[None, :])
    tl.store(d_ptr + s[:, None] * 16 + s[None, :], tl.dot(a16, b16))
`

// TestFP8E5Software checks that fp8e5 converts in software before sm_89,
// as Triton lowers it there, every way and in both dots (the tensor-core
// one as two fp16 mma.sync per k32 step), and with the cvt and fp8
// mma.sync instructions from sm_89 on.
func TestFP8E5Software(t *testing.T) {
	file := filepath.Join(t.TempDir(), "fp8e5.tri")
	require.NoError(t, os.WriteFile(file, []byte(fp8E5Kernel), 0o644))
	soft := []string{
		"= tri_e5m2_to_h_sw(x[0]);", "= tri_e5m2_to_bf_sw(x[0]);", "= tri_h2f(tri_e5m2_to_h_sw(x[0]));",
		"= tri_h_to_e5m2_sw(h[0]);", "= tri_bf_to_e5m2_sw(b[0]);", "= tri_f_to_e5m2_sw(f[0]);", "= tri_f_to_e5m2_rz(f[0]);",
		"mma.sync m16n8k16 on fp8 widened to fp16", "tri_mma_e5m2_f16(tri_c0, tri_c1, tri_c2, tri_c3, tri_af, tri_bf);",
		"tri_mma_f16(c0, c1, c2, c3, ah, bh);", // with the fragments TestFP8E5MmaFragments checks:
		"const unsigned int ah[4] = {tri_e5m2_lo_h2(a0), tri_e5m2_lo_h2(a1), tri_e5m2_hi_h2(a0), tri_e5m2_hi_h2(a1)};",
		"const unsigned int bh[2] = {tri_e5m2_lo_h2(b[h]), tri_e5m2_hi_h2(b[h])};", "tri_fma_f32(tri_h2f(tri_e5m2_to_h_sw(a[k])), tri_h2f(tri_e5m2_to_h_sw(b[k * ldb])), acc)",
	}
	for _, arch := range []string{"sm_80", "sm_86"} {
		src, err := build(t, file, arch)
		require.NoError(t, err)
		for _, s := range soft {
			assert.True(t, strings.Contains(src, s), "%s: no %q", arch, s)
		}
		for _, s := range []string{"cvt.rn.satfinite", "e5m2x2", "mma.sync.aligned.m16n8k32"} {
			assert.False(t, strings.Contains(src, s), "%s: %q", arch, s)
		}
	}
	for _, arch := range []string{"sm_89", "sm_90a"} {
		src, err := build(t, file, arch)
		require.NoError(t, err)
		assert.False(t, strings.Contains(src, "_sw("), arch)
		for _, s := range []string{"= tri_f2bf(tri_h2f(tri_e5m2_to_h(x[0])));", "= tri_f_to_e5m2(tri_bf2f(b[0]));", "= tri_h_to_e5m2(h[0]);"} {
			assert.True(t, strings.Contains(src, s), "%s: no %q", arch, s)
		}
	}
}
