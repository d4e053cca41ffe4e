package launch

// This file implements the summary that tri run prints of the outputs a
// file's header checks, one line each, as Triton users print their tensors
// after a launch to see that it did something.

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// summaryValues is how many leading elements a summary shows.
const summaryValues = 6

// printChecked writes the summary of each tensor that the file's header
// names in "# check:" and that the run has bound, in the header's order.
func (p *Prepared) printChecked(w io.Writer) {
	h, err := ParseSampleHeader(p.Source.Path, p.Source.Text)
	if err != nil {
		return // no header, so nothing is named
	}
	for _, name := range h.Checks {
		if v, ok := p.Env.Lookup(name); ok && v.Kind == hosteval.VTensor {
			fmt.Fprintln(w, summarize(name, v.Tensor))
		}
	}
}

// summarize describes t on one line: its name, dtype and shape, its first
// elements, its least and greatest, and how many are NaN (an output made
// with empty() is NaN-filled, so a count of NaNs is the elements the kernel
// did not write).
func summarize(name string, t *tensor.Tensor) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (", name, ir.Scalar(t.Kind).PyName())
	for i, d := range t.Shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(t.Shape) == 1 {
		b.WriteString(",")
	}
	b.WriteString(") [")
	n := t.NumElements()
	for i := 0; i < min(n, summaryValues); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(element(t, i))
	}
	if n > summaryValues {
		b.WriteString(", ...")
	}
	b.WriteString("]")
	if n == 0 {
		return b.String()
	}
	lo, hi, nans := extremes(t)
	if nans < n {
		fmt.Fprintf(&b, " min %s max %s", element(t, lo), element(t, hi))
	}
	if nans > 0 {
		fmt.Fprintf(&b, " (%d of %d NaN)", nans, n)
	}
	return b.String()
}

// extremes returns the indices of t's least and greatest elements, NaNs
// left out, and the count of NaNs.
func extremes(t *tensor.Tensor) (lo, hi, nans int) {
	lo, hi = -1, -1
	less := func(i, j int) bool { return t.Float(i) < t.Float(j) }
	switch {
	case t.Kind.IsUnsigned():
		less = func(i, j int) bool { return uint64(t.Int(i)) < uint64(t.Int(j)) }
	case t.Kind.IsInt():
		less = func(i, j int) bool { return t.Int(i) < t.Int(j) }
	}
	for i := range t.NumElements() {
		if t.Kind.IsFloat() && math.IsNaN(t.Float(i)) {
			nans++
			continue
		}
		if lo < 0 || less(i, lo) {
			lo = i
		}
		if hi < 0 || less(hi, i) {
			hi = i
		}
	}
	return lo, hi, nans
}

// element formats element i as Python prints it: integers exactly, bools
// as True and False, floats with the few digits that tell values apart at
// a glance.
func element(t *tensor.Tensor, i int) string {
	switch {
	case t.Kind == ir.Bool:
		if t.Int(i) != 0 {
			return "True"
		}
		return "False"
	case t.Kind.IsUnsigned():
		return strconv.FormatUint(uint64(t.Int(i)), 10)
	case t.Kind.IsInt():
		return strconv.FormatInt(t.Int(i), 10)
	}
	f := t.Float(i)
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 5, 64)
}
