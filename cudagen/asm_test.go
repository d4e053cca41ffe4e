package cudagen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/launch"
)

// TestInlineAsm prints inline asm calls that the constructs leave out
// (no inputs, scalars, clobbers, tied inputs, fp16 in 16-bit registers,
// fp64, a thread holding fewer elements than pack) and compiles each with
// clang where it is found.
func TestInlineAsm(t *testing.T) {
	tests := []struct {
		name, call string
		want       []string
	}{
		{"no inputs", `tl.inline_asm_elementwise("mov.u32 $0, %laneid;", "=r", [], dtype=tl.int32, is_pure=False, pack=1) + h.to(tl.int32)`,
			[]string{`asm volatile("mov.u32 %0, %%laneid;"`, `: "=r"(tri_o0));`}},
		{"scalar, memory clobber", `tl.inline_asm_elementwise("add.s32 $0, $1, 1;", "=r,r,~{memory}", [n], dtype=tl.int32, is_pure=True, pack=1) + h.to(tl.int32)`,
			[]string{`asm("add.s32 %0, %1, 1;"`, `: "r"((unsigned int)(n)) : "memory");`}},
		{"tied input", `tl.inline_asm_elementwise("add.s32 $0, $0, $2;", "=r,0,r", [i, i], dtype=tl.int32, is_pure=True, pack=1)`,
			[]string{`: "=r"(tri_o0)`, `: "0"((unsigned int)(i[e])), "r"((unsigned int)(i[e]))`}},
		{"fp16 in h registers", `tl.inline_asm_elementwise("mov.b16 $0, $1;", "=h,h", [h], dtype=tl.float16, is_pure=True, pack=1).to(tl.int32)`,
			[]string{`unsigned short tri_o0;`, `"h"((unsigned short)(h[e]))`, `= (tri_half)(tri_o0);`}},
		{"fp16 pairs", `tl.inline_asm_elementwise("mov.b32 $0, $2; mov.b32 $1, $3;", "=r,=r,r,r", [h], dtype=tl.float16, is_pure=True, pack=4).to(tl.int32)`,
			[]string{`for (int e = 0; e < 8; e += 4) {`, `"r"((unsigned int)(unsigned short)(h[e + 2]) | (unsigned int)(unsigned short)(h[e + 3]) << 16)`,
				`= (tri_half)(tri_o1 >> 16);`}},
		{"fp64", `tl.inline_asm_elementwise("mov.b64 $0, $1;", "=d,d", [h.to(tl.float64)], dtype=tl.float64, is_pure=True, pack=1).to(tl.int32)`,
			[]string{`double tri_o0;`, `= tri_o0;`}},
		{"fp32 bits in r", `tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [h.to(tl.float32)], dtype=tl.float32, is_pure=True, pack=1).to(tl.int32)`,
			[]string{`"r"(tri_bits_f32(`, `= tri_f32_bits((unsigned int)(tri_o0));`}},
		{"fewer elements than pack", `tl.inline_asm_elementwise("mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $6; mov.b32 $3, $7;", "=r,=r,=r,=r,r,r,r,r", [h.to(tl.int8)], dtype=tl.int8, is_pure=True, pack=16).to(tl.int32)`,
			[]string{`"r"((unsigned int)0)`}},
	}
	clang, _ := exec.LookPath("clang")
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := `import triton
import triton.language as tl


@triton.jit
def k(h_ptr, i_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(h_ptr + offs)
    i = tl.load(i_ptr + offs)
    r = ` + tc.call + `
    tl.store(out_ptr + offs, r)
`
			path := filepath.Join(dir, "k.tri")
			require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
			var out bytes.Buffer
			err := launch.BuildFile(path, "", &launch.Options{Kernel: "k", Signature: "*fp16:16, *i32:16, *i32:16, i32, 1024", Arch: "sm_80", Stdout: &out})
			require.NoError(t, err)
			for _, w := range tc.want {
				assert.Contains(t, out.String(), w)
			}
			if clang == "" {
				return
			}
			cu := filepath.Join(dir, "k.cu")
			require.NoError(t, os.WriteFile(cu, out.Bytes(), 0o644))
			msg, err := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
				"-Wno-unknown-cuda-version", "-S", "-o", os.DevNull, cu).CombinedOutput()
			require.NoError(t, err, string(msg))
		})
	}
}
