package cudagen

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// TestTileOpTooLargeForSharedMemory checks that a tile operation whose
// scratch does not fit in shared memory is a placed error, not a panic.
func TestTileOpTooLargeForSharedMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		op   ir.Op
		n    int
		want string
	}{
		{"sort", ir.OpSort, 1 << 16, "sort of fp32[65536] needs 256 KiB of shared memory"},
		{"flip", ir.OpFlip, 1 << 16, "flip of fp32[65536] needs 256 KiB of shared memory"},
		{"small sort", ir.OpSort, 1 << 10, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(t, "big_"+tc.name, "misc.tri", 4)
			p := b.param("x_ptr", ir.PtrTo(ir.Float32), true)
			ptrs := b.ptrAdd(b.splat(p, ir.Shape{tc.n}), b.arange(tc.n))
			x := b.load(ptrs, nil, nil)
			v := b.emit(&ir.Value{Op: tc.op, Type: x.Type, Args: []*ir.Value{x}})
			if tc.op == ir.OpSort {
				v.Const = ir.IntConst(int64(ceilLog2(tc.n)))
			}
			b.store(ptrs, v, nil)
			_, err := Generate(b.k, Options{})
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// tileOpsKernel loads a [4, 64] tile of kind k and stores its sort (both
// orders), top 8, flips, gathers and a cat of its rows, and for integer
// kinds its histogram: a kernel for the compile test only.
func tileOpsKernel(t *testing.T, k ir.Kind) *ir.Kernel {
	b := newBuilder(t, "tile_ops_"+k.String(), "misc.tri", 4)
	in := b.param("in", ir.PtrTo(k), true)
	out := b.param("out", ir.PtrTo(k), true)
	shape := ir.Shape{4, 64}
	rows := b.expand(b.op(ir.OpMul, b.arange(4), b.splat(b.i32(64), ir.Shape{4})), 1)
	cols := b.expand(b.arange(64), 0)
	offs := b.op(ir.OpAdd, b.bcast(rows, shape), b.bcast(cols, shape))
	x := b.load(b.ptrAdd(b.splat(in, shape), offs), nil, nil)
	store := func(v *ir.Value) {
		if v.Type.DType != x.Type.DType {
			v = b.cast(v, x.Type.DType)
		}
		o := b.arange(v.Type.Shape.NumElements())
		flat := b.emit(&ir.Value{Op: ir.OpReshape, Type: ir.TileType(v.Type.DType, v.Type.Shape.NumElements()), Args: []*ir.Value{v}})
		b.store(b.ptrAdd(b.splat(out, o.Type.Shape), o), flat, nil)
	}
	for _, desc := range []bool{false, true} {
		v := b.emit(&ir.Value{Op: ir.OpSort, Type: x.Type, Args: []*ir.Value{x}, Const: ir.IntConst(6)})
		if desc {
			v.Flags = ir.FlagReverse
		}
		store(v)
	}
	wide := x
	if k.Bits() < 32 {
		d := ir.TInt32
		if k.IsFloat() {
			d = ir.TFloat32
		}
		wide = b.cast(x, d)
	}
	store(b.emit(&ir.Value{Op: ir.OpSort, Type: ir.Type{DType: wide.Type.DType, Shape: ir.Shape{4, 8}}, Args: []*ir.Value{wide},
		Const: ir.IntConst(3), Flags: ir.FlagReverse}))
	for axis := range 2 {
		store(b.emit(&ir.Value{Op: ir.OpFlip, Type: x.Type, Args: []*ir.Value{x}, Axis: axis}))
	}
	idx := b.op(ir.OpAnd, offs, b.splat(b.i32(63), shape))
	store(b.emit(&ir.Value{Op: ir.OpGather, Type: x.Type, Args: []*ir.Value{x, idx}, Axis: 1}))
	flat := b.emit(&ir.Value{Op: ir.OpReshape, Type: ir.TileType(x.Type.DType, 256), Args: []*ir.Value{x}})
	store(b.emit(&ir.Value{Op: ir.OpCat, Type: ir.TileType(x.Type.DType, 512), Args: []*ir.Value{flat, flat}}))
	if k.IsInt() {
		store(b.emit(&ir.Value{Op: ir.OpHistogram, Type: ir.TileType(ir.TInt32, 16), Args: []*ir.Value{flat, nil}}))
	}
	return b.k
}

// TestTileOpsClang compiles the tile operations on every dtype with
// clang's CUDA mode (skipped where clang is missing).
func TestTileOpsClang(t *testing.T) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found")
	}
	dir := t.TempDir()
	for _, k := range allKinds {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			kern := tileOpsKernel(t, k)
			src, err := gen(kern, Options{})
			require.NoError(t, err)
			file := filepath.Join(dir, kern.Name+".cu")
			require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
			cmd := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib",
				"-Wno-unknown-cuda-version", "-S", "-o", "-", file)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			require.NoError(t, err, stderr.String())
			assert.Contains(t, string(out), ".entry "+kern.Name)
		})
	}
}

// TestPacksInRegisters checks when a thread's consecutive registers hold
// map_elementwise's groups of pack consecutive elements along the last
// axis.
func TestPacksInRegisters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		b     Blocked
		shape []int
		pack  int
		want  bool
	}{
		{"1-D runs of 4", Blocked{[]int{4}, []int{32}, []int{4}, []int{0}}, []int{512}, 2, true},
		{"1-D runs of 4, pack 4", Blocked{[]int{4}, []int{32}, []int{4}, []int{0}}, []int{512}, 4, true},
		{"1-D runs of 4, pack 8", Blocked{[]int{4}, []int{32}, []int{4}, []int{0}}, []int{512}, 8, false},
		{"1-D one element per thread", Blocked{[]int{1}, []int{32}, []int{4}, []int{0}}, []int{64}, 2, false},
		{"1-D runs cut by a small shape", Blocked{[]int{8}, []int{32}, []int{4}, []int{0}}, []int{4}, 4, true},
		{"2-D rows", Blocked{[]int{1, 8}, []int{4, 8}, []int{4, 1}, []int{1, 0}}, []int{16, 64}, 4, true},
		{"2-D columns fastest", Blocked{[]int{4, 1}, []int{8, 4}, []int{1, 4}, []int{0, 1}}, []int{32, 16}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, packsInRegisters(newDist(tc.b, tc.shape, 4), tc.pack))
		})
	}
}

// TestFlipMirrorsWholeCoordinate checks that a flip along an axis where
// each thread holds several consecutive elements reads n-1 minus the whole
// coordinate (the thread's first element plus its register): without the
// parentheses, 63 - base + e read past its row, and past the scratch on
// the last row (Triton's test_flip[2-int32-1-16-64]: an illegal address).
func TestFlipMirrorsWholeCoordinate(t *testing.T) {
	b := newBuilder(t, "flip_rows", "misc.tri", 8)
	in := b.param("in", ir.PtrTo(ir.Int32), true)
	out := b.param("out", ir.PtrTo(ir.Int32), true)
	shape := ir.Shape{16, 64}
	rows := b.expand(b.op(ir.OpMul, b.arange(16), b.splat(b.i32(64), ir.Shape{16})), 1)
	offs := b.op(ir.OpAdd, b.bcast(rows, shape), b.bcast(b.expand(b.arange(64), 0), shape))
	x := b.load(b.ptrAdd(b.splat(in, shape), offs), nil, nil)
	b.store(b.ptrAdd(b.splat(out, shape), offs), b.emit(&ir.Value{Op: ir.OpFlip, Type: x.Type, Args: []*ir.Value{x}, Axis: 1}), nil)
	src, err := gen(b.k, Options{})
	require.NoError(t, err)
	reads := regexp.MustCompile(`tri_smem\)\[[^\]]*63 - [^\]]*\]`).FindAllString(src, -1)
	require.NotEmpty(t, reads, "no mirrored read in:\n%s", src)
	for _, r := range reads {
		assert.Regexp(t, `63 - (\w+|\([^()]*\))\]$`, r, "the mirrored coordinate must be subtracted whole")
	}
}
