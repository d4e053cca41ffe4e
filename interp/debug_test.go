package interp

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// TestCPrintf holds cprintf to C's printf (glibc) for the conversions
// ir.PrintFormat uses; the wants are what printf writes.
func TestCPrintf(t *testing.T) {
	tests := []struct {
		format string
		args   []any
		want   string
	}{
		{"%u %i", []any{uint32(4294967295), int32(-7)}, "4294967295 -7"},
		{"(%2u, %0u)", []any{uint32(3), uint32(12)}, "( 3, 12)"},
		{"%3u|", []any{uint32(12345)}, "12345|"},
		{"%lli %llu", []any{int64(math.MinInt64), uint64(math.MaxUint64)}, "-9223372036854775808 18446744073709551615"},
		{"0x%02x 0x%04x", []any{int32(-3), uint32(0xab)}, "0xfffffffd 0x00ab"},
		{"0x%00x", []any{uint32(1)}, "0x1"},
		{"0x%016llx", []any{uint64(0x3ff0000000000000)}, "0x3ff0000000000000"},
		{"%f %f %f", []any{1.5, -0.0000004, 123456789.0625}, "1.500000 -0.000000 123456789.062500"},
		{"%f %f %f %f", []any{math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1)}, "inf -inf nan -nan"},
		{"%f", []any{0.1234565}, "0.123456"},
		{"%p %p", []any{pointer(0), pointer(0x1000)}, "(nil) 0x1000"},
		{"100%% %u", []any{uint32(1)}, "100% 1"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, cprintf(tc.format, tc.args), tc.format)
	}
}

// TestPrintDTypes prints a one-element tile of each dtype, plain and hex,
// in the interpreter: integers by signedness (narrow ones widened to 32
// bits), bools as unsigned, floats with %f (their own bits with hex).
func TestPrintDTypes(t *testing.T) {
	tests := []struct {
		d         ir.DType
		c         ir.Const
		want, hex string
	}{
		{ir.TInt8, ir.IntConst(-2), "-2", "0xfffffffe"},
		{ir.TUint8, ir.IntConst(200), "200", "0xc8"},
		{ir.TInt16, ir.IntConst(-300), "-300", "0xfffffed4"},
		{ir.TUint16, ir.IntConst(65535), "65535", "0xffff"},
		{ir.TInt32, ir.IntConst(-1), "-1", "0xffffffff"},
		{ir.TUint32, ir.IntConst(4000000000), "4000000000", "0xee6b2800"},
		{ir.TInt64, ir.IntConst(-5), "-5", "0xfffffffffffffffb"},
		{ir.TUint64, ir.IntConst(-1), "18446744073709551615", "0xffffffffffffffff"},
		{ir.TBool, ir.IntConst(1), "1", "0x1"},
		{ir.TFloat16, ir.FloatConst(-1.5), "-1.500000", "0xbe00"},
		{ir.TBF16, ir.FloatConst(2), "2.000000", "0x4000"},
		{ir.TFloat32, ir.FloatConst(0.1), "0.100000", "0x3dcccccd"},
		{ir.TFloat64, ir.FloatConst(1), "1.000000", "0x3ff0000000000000"},
	}
	for _, tc := range tests {
		for _, hex := range []bool{false, true} {
			b := newBuilder("print_" + tc.d.String())
			c := b.value(ir.OpConst, ir.ScalarType(tc.d))
			c.Const = tc.c
			x := b.splat(c, 1)
			p := b.value(ir.OpPrint, ir.ScalarType(ir.TVoid), x)
			p.Msg = &ir.Message{Text: " v: ", Hex: hex}
			var out bytes.Buffer
			require.NoError(t, Run(b.done(t), [3]int{1, 1, 1}, nil, Options{Stdout: &out}))
			want := tc.want
			if hex {
				want = tc.hex
			}
			assert.Equal(t, "pid (0, 0, 0) idx (0) v: "+want+"\n", out.String(), "%s hex=%v", tc.d, hex)
		}
	}
}

// TestPrintProgramOrder: the programs run on several workers, yet their
// lines come out in program order, each program's in its order.
func TestPrintProgramOrder(t *testing.T) {
	b := newBuilder("order")
	pid := b.pid(0)
	for _, prefix := range []string{" a: ", " b: "} {
		p := b.value(ir.OpPrint, ir.ScalarType(ir.TVoid), pid)
		p.Msg = &ir.Message{Text: prefix}
	}
	var out bytes.Buffer
	require.NoError(t, Run(b.done(t), [3]int{40, 1, 1}, nil, Options{Stdout: &out, Workers: 4}))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	require.Len(t, lines, 80)
	for i := range 40 {
		assert.Equal(t, "pid ("+itoa(i)+", 0, 0) idx () a: "+itoa(i), lines[2*i])
		assert.Equal(t, "pid ("+itoa(i)+", 0, 0) idx () b: "+itoa(i), lines[2*i+1])
	}
}

func itoa(i int) string { return cprintf("%i", []any{int32(i)}) }

// TestAssert: a failing lane stops the run with the message, the program
// and the element; lanes that hold pass.
func TestAssert(t *testing.T) {
	build := func(limit int64) *ir.Kernel {
		b := newBuilder("asserting")
		x := b.bin(ir.OpAdd, b.arange(0, 8), b.splat(b.bin(ir.OpMul, b.pid(0), b.i32(8)), 8))
		b.at(7)
		a := b.value(ir.OpAssert, ir.ScalarType(ir.TVoid), b.cmp(ir.OpLt, x, b.splat(b.i32(limit), 8)))
		a.Msg = &ir.Message{Text: "x < limit"}
		return b.done(t)
	}
	require.NoError(t, Run(build(32), [3]int{4, 1, 1}, nil, Options{}))
	err := Run(build(21), [3]int{4, 1, 1}, nil, Options{Workers: 1})
	require.Error(t, err)
	assert.Equal(t, "k.tri:7:5: interpreting asserting: assertion failed at index [5]: x < limit (program (2, 0, 0))", err.Error())
}
