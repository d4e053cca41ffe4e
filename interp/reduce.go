package interp

// This file implements OpReduce and OpScan with the builtin combiners. A
// float sum or product is combined pairwise along the axis (neighbours,
// then pairs of pairs, ...), as the GPU combines its lanes in a tree: a
// left fold in fp16 or bf16 stalls where the sum's spacing reaches the
// addend (1024 ones sum to 256 in bf16), which a tree does not. Other
// reductions are a left fold from index 0; a scan is an inclusive prefix
// from index 0 (from the last index with FlagReverse). Float sums and
// products may still differ from the GPU's by rounding, and argmax/argmin
// over NaN may pick another index.

import (
	"math"

	"github.com/tri-lang/tri/ir"
)

// axisView sees a tile as [outer, n, inner] around an axis: element j of
// lane q (q = o*inner + i) along the axis is at (o*n+j)*inner + i.
type axisView struct{ outer, n, inner int }

func viewAround(shape ir.Shape, axis int) axisView {
	v := axisView{outer: 1, n: shape[axis], inner: 1}
	for _, d := range shape[:axis] {
		v.outer *= d
	}
	for _, d := range shape[axis+1:] {
		v.inner *= d
	}
	return v
}

// lanes is the number of independent folds.
func (v axisView) lanes() int { return v.outer * v.inner }

// at is the index of element j along the axis of lane q.
func (v axisView) at(q, j int) int {
	return (q/v.inner*v.n+j)*v.inner + q%v.inner
}

// floatCombiner returns the binary function of a builtin combiner on
// floats of kind k (nil for argmax/argmin and custom).
func floatCombiner(c ir.Combine, k ir.Kind, flags ir.Flags) func(a, b float64) float64 {
	nan := flags&ir.FlagPropagateNaN != 0
	switch c {
	case ir.CombineSum:
		return func(a, b float64) float64 { return roundFloat(k, a+b, false) }
	case ir.CombineProd:
		return func(a, b float64) float64 { return roundFloat(k, a*b, false) }
	case ir.CombineMax:
		if nan {
			return math.Max
		}
		return fmax
	case ir.CombineMin:
		if nan {
			return math.Min
		}
		return fmin
	}
	return nil
}

// intCombiner returns the binary function of a builtin combiner on
// canonical integers of kind k, wrapping (nil for argmax/argmin, custom).
func intCombiner(c ir.Combine, k ir.Kind) func(a, b int64) int64 {
	switch c {
	case ir.CombineSum:
		return func(a, b int64) int64 { return wrapInt(k, a+b) }
	case ir.CombineProd:
		return func(a, b int64) int64 { return wrapInt(k, a*b) }
	case ir.CombineMax:
		return func(a, b int64) int64 {
			if less(k, a, b) {
				return b
			}
			return a
		}
	case ir.CombineMin:
		return func(a, b int64) int64 {
			if less(k, b, a) {
				return b
			}
			return a
		}
	case ir.CombineXor:
		return func(a, b int64) int64 { return a ^ b }
	case ir.CombineOr:
		return func(a, b int64) int64 { return a | b }
	}
	return nil
}

// reduceBuiltin reduces a along axis with a builtin combiner into a tile
// of the given shape.
func reduceBuiltin(v *ir.Value, a *tile) *tile {
	w := viewAround(a.shape, v.Axis)
	if v.Combine == ir.CombineArgMax || v.Combine == ir.CombineArgMin {
		return argReduce(v.Combine == ir.CombineArgMax, a, w, v.Type.Shape)
	}
	t := newTile(a.kind, v.Type.Shape)
	if a.flts != nil {
		f := floatCombiner(v.Combine, a.kind, v.Flags)
		if v.Combine == ir.CombineSum || v.Combine == ir.CombineProd {
			pairwise(a.flts, t.flts, w, f)
		} else {
			fold(a.flts, t.flts, w, f)
		}
	} else {
		fold(a.ints, t.ints, w, intCombiner(v.Combine, a.kind))
	}
	return t
}

// fold left-folds each lane of src into out.
func fold[T any](src, out []T, w axisView, f func(a, b T) T) {
	for q := range out {
		i := w.at(q, 0)
		acc := src[i]
		for range w.n - 1 {
			i += w.inner
			acc = f(acc, src[i])
		}
		out[q] = acc
	}
}

// pairwise combines each lane of src into out in a balanced tree: element
// j with j+1 for even j, then the results two apart, four apart, and so on
// (an odd one out waits for the next level). The operands keep their order.
func pairwise(src, out []float64, w axisView, f func(a, b float64) float64) {
	buf := make([]float64, w.n)
	for q := range out {
		for j := range buf {
			buf[j] = src[w.at(q, j)]
		}
		for step := 1; step < w.n; step *= 2 {
			for j := 0; j+step < w.n; j += 2 * step {
				buf[j] = f(buf[j], buf[j+step])
			}
		}
		out[q] = buf[0]
	}
}

// argReduce computes the i32 index of the max (or min) along the axis as
// Triton's _argmax_combine/_argmin_combine do with tie_break_left, folded
// from index 0: the accumulator (value1, index1) is kept when
// value1 > value2 (value1 < value2 for min) or they are equal (index1 is
// the smaller index), else the new element is taken. Comparisons with NaN
// are false, so a NaN is taken when met and replaced by the next element:
// over NaN the result depends on the order of combination.
func argReduce(isMax bool, a *tile, w axisView, shape ir.Shape) *tile {
	t := newTile(ir.Int32, shape)
	for q := range t.ints {
		best, base := 0, w.at(q, 0)
		for j := 1; j < w.n; j++ {
			x, y := base+best*w.inner, base+j*w.inner
			var keep bool
			if a.flts != nil {
				if isMax {
					keep = a.flts[x] >= a.flts[y]
				} else {
					keep = a.flts[x] <= a.flts[y]
				}
			} else if isMax {
				keep = !less(a.kind, a.ints[x], a.ints[y])
			} else {
				keep = !less(a.kind, a.ints[y], a.ints[x])
			}
			if !keep {
				best = j
			}
		}
		t.ints[q] = int64(best)
	}
	return t
}

// scanBuiltin computes the inclusive scan of a along axis with a builtin
// combiner.
func scanBuiltin(v *ir.Value, a *tile) *tile {
	w := viewAround(a.shape, v.Axis)
	rev := v.Flags&ir.FlagReverse != 0
	t := newTile(a.kind, a.shape)
	if a.flts != nil {
		prefix(a.flts, t.flts, w, rev, floatCombiner(v.Combine, a.kind, v.Flags))
	} else {
		prefix(a.ints, t.ints, w, rev, intCombiner(v.Combine, a.kind))
	}
	return t
}

// prefix computes the inclusive prefix of each lane of src into out,
// combining (accumulated, new); rev starts from the last element.
func prefix[T any](src, out []T, w axisView, rev bool, f func(a, b T) T) {
	for q := range w.lanes() {
		j, step := 0, 1
		if rev {
			j, step = w.n-1, -1
		}
		i := w.at(q, j)
		acc := src[i]
		out[i] = acc
		for range w.n - 1 {
			i += step * w.inner
			acc = f(acc, src[i])
			out[i] = acc
		}
	}
}
