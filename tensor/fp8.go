package tensor

// This file implements a fast path for rounding float64s to an 8-bit float
// code, for tensors of millions of fp8 elements (randn of an attention's
// inputs). ir.FP8Format's RoundSat and Encode take some tens of
// nanoseconds a value; this takes a table look-up for almost every value.
//
// The table is indexed by a value's sign, exponent and first five mantissa
// bits. Rounding to a format of at most three mantissa bits is monotone, so
// every value in a cell rounds to the one code that both ends of the cell
// round to, when those agree; they disagree only in cells that hold a
// point halfway between two codes (or the edge of the range), and values
// in those cells, or outside the exponents the table covers (zeros, NaNs,
// infinities, magnitudes far below the smallest subnormal or above the
// largest finite), take RoundSat and Encode themselves. The table is made
// from RoundSat and Encode, so both paths give the same code.

import (
	"math"
	"sync"

	"github.com/tri-lang/tri/ir"
)

const (
	fp8CellBits = 5                   // mantissa bits in a cell's index
	fp8ExpLo    = 1023 - 40           // lowest biased float64 exponent in the table (2^-40)
	fp8ExpHi    = 1023 + 20           // the first past it (2^20)
	fp8ExpCells = fp8ExpHi - fp8ExpLo // exponents in the table
	fp8Slow     = 0x100               // a cell whose values need RoundSat
)

// fp8Encoder rounds to one format; cells is indexed by sign, exponent and
// the leading mantissa bits, as cell computes.
type fp8Encoder struct {
	f     ir.FP8Format
	cells [2 * fp8ExpCells << fp8CellBits]uint16
}

// fp8Encoders holds one encoder for each fp8 kind, made on first use.
var fp8Encoders sync.Map // ir.Kind -> *fp8Encoder

// fp8EncoderOf returns the encoder of kind k, or nil if k is not an 8-bit
// float.
func fp8EncoderOf(k ir.Kind) *fp8Encoder {
	if e, ok := fp8Encoders.Load(k); ok {
		return e.(*fp8Encoder)
	}
	f, ok := k.FP8()
	if !ok {
		return nil
	}
	e := newFP8Encoder(f)
	actual, _ := fp8Encoders.LoadOrStore(k, e)
	return actual.(*fp8Encoder)
}

func newFP8Encoder(f ir.FP8Format) *fp8Encoder {
	e := &fp8Encoder{f: f}
	const low = 64 - 1 - 11 - fp8CellBits // float64 bits below a cell's index
	for sign := range uint64(2) {
		for exp := uint64(fp8ExpLo); exp < fp8ExpHi; exp++ {
			for m := range uint64(1 << fp8CellBits) {
				first := sign<<63 | exp<<52 | m<<low
				last := first | (1<<low - 1)
				lo, hi := e.slow(math.Float64frombits(first)), e.slow(math.Float64frombits(last))
				c := uint16(fp8Slow)
				if lo == hi {
					c = uint16(lo)
				}
				e.cells[cell(first)] = c
			}
		}
	}
	return e
}

// cell is the index in cells of the cell holding a value of these bits,
// or -1 outside the exponents the table covers.
func cell(bits uint64) int {
	exp := int(bits>>52) & 0x7ff
	if exp < fp8ExpLo || exp >= fp8ExpHi {
		return -1
	}
	sign := int(bits >> 63)
	m := int(bits>>(52-fp8CellBits)) & (1<<fp8CellBits - 1)
	return (sign*fp8ExpCells+exp-fp8ExpLo)<<fp8CellBits | m
}

// slow is the code of v as SetFloat computes it.
func (e *fp8Encoder) slow(v float64) uint8 { return e.f.Encode(e.f.RoundSat(v, false)) }

// encode is the code of v, as slow but mostly by the table.
func (e *fp8Encoder) encode(v float64) uint8 {
	if i := cell(math.Float64bits(v)); i >= 0 {
		if c := e.cells[i]; c != fp8Slow {
			return uint8(c)
		}
	}
	return e.slow(v)
}
