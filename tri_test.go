package tri

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/x448/float16"
)

const addFile = "samples/add.tri"

const addLine = "add_kernel[(triton.cdiv(n, 4),)](x, y, out, n, BLOCK_SIZE=4)"

// A launch binds Go slices in place: the sums land in the slice given for
// out, across several programs and with the last one masked; a second
// Interpret of the same Launch reads the inputs' new contents.
func TestPrepareInterpret(t *testing.T) {
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"add_kernel"}, f.Kernels())
	n := 10
	x, y, out := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(100*i)
	}
	l, err := f.Prepare(addLine, Args{"x": x, "y": y, "out": out, "n": n})
	require.NoError(t, err)
	assert.Equal(t, [3]int{3, 1, 1}, l.Grid())
	assert.Equal(t, "add_kernel", l.Kernel().Name())
	require.NoError(t, l.Interpret())
	for i := range out {
		assert.Equal(t, float32(101*i), out[i], "element %d", i)
	}
	x[3] = -1
	require.NoError(t, l.Interpret())
	assert.Equal(t, float32(299), out[3])
}

// Every dtype of slice Args lists reaches the kernel as its dtype: the
// kernel copies each element (integers, float16 and bool too).
func TestSliceDTypes(t *testing.T) {
	src := `import triton
import triton.language as tl

@triton.jit
def copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)
`
	f, err := Parse("copy.py", src, nil)
	require.NoError(t, err)
	for _, c := range []struct {
		src, dst any
		want     string
	}{
		{[]float64{1.5, -2}, make([]float64, 2), "[1.5 -2]"},
		{[]int8{-3, 7}, make([]int8, 2), "[-3 7]"},
		{[]int16{-300, 7}, make([]int16, 2), "[-300 7]"},
		{[]int32{-3e6, 7}, make([]int32, 2), "[-3000000 7]"},
		{[]int64{-3e12, 7}, make([]int64, 2), "[-3000000000000 7]"},
		{[]uint8{200, 7}, make([]uint8, 2), "[200 7]"},
		{[]uint16{60000, 7}, make([]uint16, 2), "[60000 7]"},
		{[]uint32{4e9, 7}, make([]uint32, 2), "[4000000000 7]"},
		{[]uint64{1 << 63, 7}, make([]uint64, 2), "[9223372036854775808 7]"},
		{[]bool{true, false}, []bool{false, true}, "[true false]"},
		{[]float16.Float16{float16.Fromfloat32(0.5), float16.Fromfloat32(-8)}, make([]float16.Float16, 2), "[0.5 -8]"},
	} {
		err := f.Interpret("copy[(1,)](a, b, 2, BLOCK=2)", Args{"a": c.src, "b": c.dst})
		require.NoError(t, err, "%T", c.src)
		assert.Equal(t, c.want, sprint(c.dst), "%T", c.src)
	}
}

func sprint(v any) string {
	if h, ok := v.([]float16.Float16); ok {
		fs := make([]float32, len(h))
		for i := range h {
			fs[i] = h[i].Float32()
		}
		v = fs
	}
	return fmt.Sprint(v)
}

// A Tensor gives a slice its shape, which the launch line reads
// (x.shape[0], x.stride(0)); a shape that does not hold the slice's
// elements is refused.
func TestTensorShape(t *testing.T) {
	src := `import triton
import triton.language as tl

@triton.jit
def rowsum(x, out, stride, N: tl.constexpr):
    r = tl.program_id(0)
    tl.store(out + r, tl.sum(tl.load(x + r * stride + tl.arange(0, N)), axis=0))
`
	f, err := Parse("rowsum.py", src, nil)
	require.NoError(t, err)
	x := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	out := make([]float32, 2)
	line := "rowsum[(x.shape[0],)](x, out, x.stride(0), N=x.shape[1])"
	require.NoError(t, f.Interpret(line, Args{"x": Tensor{Data: x, Shape: []int{2, 4}}, "out": out}))
	assert.Equal(t, []float32{10, 26}, out)
	err = f.Interpret(line, Args{"x": Tensor{Data: x, Shape: []int{3, 4}}, "out": out})
	assert.ErrorContains(t, err, "a Tensor of shape [3 4] holds 12 elements, but its Data has 8")
	assert.ErrorIs(t, err, ErrBadInput)
}

// Kernel.Interpret checks its arguments against the specialization: the
// count, a pointer's dtype, a number for a pointer, an integer
// specialized as a multiple of 16, a float for an integer.
func TestKernelArgumentErrors(t *testing.T) {
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32:16, 4")
	require.NoError(t, err)
	x := make([]float32, 32)
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{x, x, x}, "add_kernel takes 4 runtime arguments (x_ptr, y_ptr, output_ptr, n_elements), got 3"},
		{[]any{x, []float64{1}, x, 32}, "parameter y_ptr is *fp32 but got fp64 data"},
		{[]any{x, x, 5, 32}, "parameter output_ptr is a pointer (*fp32) and takes a slice, a *Buffer or a Tensor, not int"},
		{[]any{x, x, x, 30}, "parameter n_elements was specialized for a multiple of 16 (i32:16) but got 30"},
		{[]any{x, x, x, 1.5}, "parameter n_elements is i32 but got the float 1.5"},
		{[]any{x, x, x, int64(1) << 40}, "parameter n_elements is i32 and cannot hold 1099511627776"},
		{[]any{x, x, x, "32"}, "parameter n_elements is i32 and takes a number, not string"},
		{[]any{x, x, (*Buffer)(nil), 32}, "parameter output_ptr: a nil *Buffer"},
		{[]any{x, x, &Buffer{}, 32}, "parameter output_ptr: a Buffer not made by NewBuffer"},
	} {
		err := k.Interpret([3]int{1, 1, 1}, c.args...)
		assert.ErrorContains(t, err, c.want)
		assert.ErrorIs(t, err, ErrBadInput)
	}
	assert.ErrorContains(t, k.Interpret([3]int{-1, 1, 1}, x, x, x, 32), "negative dimension")
	require.NoError(t, k.Interpret([3]int{8, 1, 1}, x, x, x, 32))
}

// Errors of the source, the signature and the launch line are placed in
// their texts; Report shows the line with a caret.
func TestDiagnosticsPlaced(t *testing.T) {
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	_, err = f.Compile("add_kernel", "*fp32, *fp32, *fp32, i33, 4")
	d := firstDiag(t, err)
	assert.Equal(t, Diagnostic{File: "--signature", Line: 1, Column: 22, Severity: "error", Code: "launch",
		Message: `parameter n_elements: "i33" is neither a type (*fp32, i32, fp16, ...) nor a literal`}, d)
	assert.ErrorIs(t, err, ErrBadInput)

	err = f.Interpret("add_kernel[(1,)](x, y, out)", Args{"x": []float32{1}, "y": []float32{1}, "out": []float32{1}})
	d = firstDiag(t, err)
	assert.Equal(t, "launch", d.File)
	assert.Contains(t, d.Message, "n_elements")

	_, err = Parse("bad.py", "import triton\n\n@triton.jit\ndef k(x:\n    pass\n", nil)
	d = firstDiag(t, err)
	assert.Equal(t, "bad.py", d.File)
	assert.Equal(t, 5, d.Line)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "bad.py:5:9: syntax error: invalid syntax\n        pass\n            ^\n", e.Report())
}

func firstDiag(t *testing.T, err error) Diagnostic {
	t.Helper()
	var e *Error
	require.ErrorAs(t, err, &e)
	require.NotEmpty(t, e.Diagnostics, "%v", err)
	return e.Diagnostics[0]
}

// Options are checked as the command line's flags are, and reach the
// compile: NumWarps sets the kernel's warps.
func TestOptions(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{NumWarps: 3}, "Options.NumWarps"},
		{Options{NumStages: -2}, "Options.NumStages"},
		{Options{Arch: "sm_7"}, "Options.Arch"},
		{Options{Timeout: -1}, "Options.Timeout is negative"},
		{Options{MaxMemory: -1}, "Options.MaxMemory is negative"},
	} {
		_, err := ParseFile(addFile, &c.o)
		assert.ErrorContains(t, err, c.want)
		assert.ErrorIs(t, err, ErrBadInput)
	}
	f, err := ParseFile(addFile, &Options{NumWarps: 8, Arch: "sm_80"})
	require.NoError(t, err)
	k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024")
	require.NoError(t, err)
	cuda, err := k.CUDA()
	require.NoError(t, err)
	assert.Contains(t, cuda, "__launch_bounds__(256)")
}

// Warnings go to Options.Warnings with their source line; without it
// they are dropped.
func TestWarnings(t *testing.T) {
	src := "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x):\n    for i in range(2):\n        break\n"
	var w bytes.Buffer
	f, err := Parse("w.py", src, &Options{Warnings: &w})
	require.NoError(t, err)
	require.NoError(t, f.Check())
	assert.Contains(t, w.String(), "w.py:7:9: warning: break is not supported in Triton")
}

// Without a GPU, the GPU entry points fail with ErrNoGPU and the
// interpreter still runs.
func TestNoGPU(t *testing.T) {
	if _, err := NewStream(); err == nil || !errors.Is(err, ErrNoGPU) {
		t.Skip("a GPU is present")
	}
	if os.Getenv("TRI_REQUIRE_GPU") == "1" {
		t.Fatal("TRI_REQUIRE_GPU=1 but no GPU")
	}
	_, err := NewBuffer([]float32{1})
	assert.ErrorIs(t, err, ErrNoGPU)
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	x := []float32{1, 2}
	err = f.Run(nil, addLine, Args{"x": x, "y": x, "out": x, "n": 2})
	assert.ErrorIs(t, err, ErrNoGPU)
	assert.NotErrorIs(t, err, ErrBadInput)
	var s *Stream
	assert.ErrorIs(t, s.Synchronize(), ErrNoGPU)
}

// A file's relative imports are searched for from its folder, for Parse
// as for ParseFile.
func TestParseImports(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "helpers.py"), []byte("import triton\nimport triton.language as tl\n\n@triton.jit\ndef twice(v):\n    return v * 2\n"), 0o644))
	src := "import triton\nimport triton.language as tl\nfrom helpers import twice\n\n@triton.jit\ndef k(x):\n    tl.store(x, twice(tl.load(x)))\n"
	f, err := Parse(filepath.Join(dir, "k.py"), src, nil)
	require.NoError(t, err)
	x := []int32{21}
	require.NoError(t, f.Interpret("k[(1,)](x)", Args{"x": x}))
	assert.Equal(t, []int32{42}, x)
}

func TestCDiv(t *testing.T) {
	assert.Equal(t, []int{0, 1, 1, 2, 0, 0}, []int{CDiv(0, 4), CDiv(1, 4), CDiv(4, 4), CDiv(5, 4), CDiv(5, 0), CDiv(-3, 4)})
}

// One File serves several goroutines at once, each with its own data
// (run with -race: the calls share nothing they write).
func TestConcurrentUse(t *testing.T) {
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 4")
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			n := 5 + g
			x, y, out, out2 := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range x {
				x[i], y[i] = float32(g), float32(i)
			}
			assert.NoError(t, f.Interpret(addLine, Args{"x": x, "y": y, "out": out, "n": n}))
			assert.NoError(t, k.Interpret([3]int{CDiv(n, 4), 1, 1}, x, y, out2, n))
			_, err := k.CUDA()
			assert.NoError(t, err)
			for i := range out {
				assert.Equal(t, float32(g+i), out[i])
				assert.Equal(t, float32(g+i), out2[i])
			}
		})
	}
	wg.Wait()
}

// Values of no kind a kernel takes are errors naming the argument, for a
// launch (Args) and for a compiled kernel (Run's and Interpret's
// arguments), never panics.
func TestOddValues(t *testing.T) {
	f, err := ParseFile(addFile, nil)
	require.NoError(t, err)
	x := []float32{1, 2}
	for _, v := range []any{struct{}{}, make(chan int), func() {}, []string{"a"}, map[string]int{}, Tensor{}, &Tensor{}, (*Tensor)(nil), Tensor{Data: Tensor{Data: x}}, uint64(1) << 63, complex(1, 2)} {
		err := f.Interpret(addLine, Args{"x": x, "y": x, "out": v, "n": 2})
		assert.ErrorIs(t, err, ErrBadInput, "%T", v)
	}
	k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 4")
	require.NoError(t, err)
	for _, v := range []any{nil, struct{}{}, []float32(nil)} {
		assert.ErrorIs(t, k.Interpret([3]int{1, 1, 1}, x, x, x, v), ErrBadInput, "%T", v)
	}
	// A nil slice is an empty tensor: nothing to read where the mask is
	// off everywhere (n = 0).
	assert.NoError(t, k.Interpret([3]int{1, 1, 1}, []float32(nil), []float32(nil), []float32(nil), 0))
	// A read past a slice's end is the kernel's error, placed at its load.
	err = k.Interpret([3]int{1, 1, 1}, []float32(nil), x, x, 2)
	d := firstDiag(t, err)
	assert.Equal(t, [3]any{"samples/add.tri", 25, 9}, [3]any{d.File, d.Line, d.Column})
	assert.Contains(t, d.Message, "load out of bounds: element 0 of x_ptr (float32 of 0 elements")
	assert.NotErrorIs(t, err, ErrBadInput)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Contains(t, e.Report(), "x = tl.load(x_ptr + offsets, mask=mask)\n            ^")
}

// TestShiftSignedByUnsigned: x >> y with x int8 and y uint8 shifts the
// promoted uint8 bits arithmetically, as Triton's tensor.__rshift__ picks
// ashr from the left operand (test_core.py's test_shift_op[1-int8-uint8->>]
// gave 3 where Triton gives 255); uint8 >> int8 stays logical, and the
// same-signedness cases are unchanged.
func TestShiftSignedByUnsigned(t *testing.T) {
	src := `import triton
import triton.language as tl

@triton.jit
def shr(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) >> tl.load(y_ptr + offs))
`
	f, err := Parse("shr.py", src, nil)
	require.NoError(t, err)
	out := make([]uint8, 4)
	require.NoError(t, f.Interpret("shr[(1,)](x, y, out, BLOCK=4)",
		Args{"x": []int8{-1, -128, 64, -2}, "y": []uint8{6, 1, 2, 0}, "out": out}))
	assert.Equal(t, []uint8{255, 192, 16, 254}, out)
	uout := make([]uint8, 2)
	require.NoError(t, f.Interpret("shr[(1,)](x, y, out, BLOCK=2)",
		Args{"x": []uint8{255, 128}, "y": []int8{6, 1}, "out": uout}))
	assert.Equal(t, []uint8{3, 64}, uout)
}

// TestAbsFP8: tl.abs of an 8-bit float clears the sign bit of its code
// (test_core.py's test_abs_fp8 was an internal error: abs on fp8e4nv in
// the IR); an e4m3 NaN (0x7f, 0xff) stays NaN, its sign cleared.
func TestAbsFP8(t *testing.T) {
	src := `import triton
import triton.language as tl

@triton.jit
def absk(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.uint8, bitcast=True).to(tl.float8e4nv, bitcast=True)
    tl.store(out_ptr + offs, tl.abs(x).to(tl.uint8, bitcast=True))
`
	f, err := Parse("absk.py", src, nil)
	require.NoError(t, err)
	out := make([]uint8, 4)
	require.NoError(t, f.Interpret("absk[(1,)](x, out, BLOCK=4)", Args{"x": []uint8{0xb8, 0x38, 0x80, 0xff}, "out": out}))
	assert.Equal(t, []uint8{0x38, 0x38, 0x00, 0x7f}, out)
}
