package kernelgen

// This file describes the dtypes the generator uses and the value ranges it
// tracks, so that no generated operation overflows, divides by zero or
// leaves the domain of a math function.

import "math"

// dtype is a Triton element type the generator produces.
type dtype int

const (
	f32 dtype = iota
	f16
	bf16
	i32
	i8
	u8
	i64
	boolean
)

// name is the dtype's name in tl (tl.float32) and in --let constructors.
func (d dtype) name() string {
	return [...]string{"float32", "float16", "bfloat16", "int32", "int8", "uint8", "int64", "int1"}[d]
}

func (d dtype) isFloat() bool { return d == f32 || d == f16 || d == bf16 }

func (d dtype) isInt() bool { return d == i32 || d == i8 || d == u8 || d == i64 }

// limits is the range of values the generator lets a dtype hold: the
// integer range, or for floats a bound far below overflow.
func (d dtype) limits() (lo, hi float64) {
	switch d {
	case i8:
		return -128, 127
	case u8:
		return 0, 255
	case i32:
		return math.MinInt32, math.MaxInt32
	case i64:
		return -1 << 52, 1 << 52 // kept exact in the float64 ranges tracked here
	case f16:
		return -6e4, 6e4
	case bf16, f32:
		return -1e30, 1e30
	}
	return 0, 1
}

// exactLimit is the largest magnitude up to which every integer is exact in
// the dtype: integer-valued float arithmetic below it rounds nowhere, so the
// GPU and the interpreter agree bit for bit whatever they fuse or reorder.
func (d dtype) exactLimit() float64 {
	switch d {
	case f16:
		return 2048
	case bf16:
		return 256
	case f32:
		return 1 << 24
	}
	return math.Inf(1)
}

// unitRoundoff is half the distance from 1 to the next float of d.
func (d dtype) unitRoundoff() float64 {
	switch d {
	case f16:
		return 0x1p-11
	case bf16:
		return 0x1p-8
	case f32:
		return 0x1p-24
	}
	return 0
}

// rounding bounds the error of rounding a result in [lo, hi] to d, twice
// over for a fused or approximate operation; exact results round nowhere.
func rounding(d dtype, lo, hi float64, exact bool) float64 {
	if exact || !d.isFloat() {
		return 0
	}
	return 2 * d.unitRoundoff() * max(-lo, hi)
}

// tolerance is the smallest difference `tri run --check` allows between
// the GPU and the interpreter for a value of d in [lo, hi] (see
// launch.ToleranceTable).
func (d dtype) tolerance(lo, hi float64) float64 {
	least := 0.0
	if lo > 0 || hi < 0 {
		least = min(math.Abs(lo), math.Abs(hi))
	}
	switch d {
	case f16:
		return 1e-3 + 2e-3*least
	case bf16:
		return 1e-2 + 1.6e-2*least
	case f32:
		return 1e-6 + 1e-5*least
	}
	return 0
}

// fits reports whether the interval [lo, hi] lies within d's limits.
func (d dtype) fits(lo, hi float64) bool {
	l, h := d.limits()
	return lo >= l && hi <= h
}

// tensorDTypes are the dtypes of loaded inputs.
var tensorDTypes = []dtype{f32, f16, bf16, i32, i8, u8, i64}
