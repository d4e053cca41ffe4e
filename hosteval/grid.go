package hosteval

// This file implements the evaluation of a launch's grid.

import (
	"github.com/tri-lang/tri/frontend"
)

// Grid limits of CUDA: x up to 2^31-1 blocks, y and z up to 65535.
var maxGrid = [3]int64{1<<31 - 1, 65535, 65535}

// Grid evaluates the launch's grid: a tuple of 1 to 3 integers (missing
// dimensions are 1), a lambda called with the meta dict (the kernel's bound
// arguments by name, with num_warps and num_stages; see Bound.Meta), or a
// name bound to either. Errors are placed in the launch line.
func (e *Env) Grid(l *Launch, meta map[string]Value) (_ [3]int, err error) {
	if l == nil {
		return [3]int{}, errNoLaunch
	}
	defer AttachSource(&err, LaunchSource, l.Src)
	defer e.begin(len(e.names))()
	v, err := e.eval(l.Grid, nil)
	if err != nil {
		return [3]int{}, err
	}
	if v.Kind == VLambda {
		if n := len(v.Lambda.Params); n != 1 {
			return [3]int{}, Errf(l.Grid, "a grid lambda takes one parameter (the meta dict), not %d", n)
		}
		d := Value{Kind: VDict, Dict: map[string]Value{}}
		for k, m := range meta {
			d.Dict[k] = m
		}
		if v, err = e.callLambda(l.Grid, v.Lambda, []Value{d}, 0); err != nil {
			return [3]int{}, err
		}
	}
	return gridDims(l.Grid, v)
}

// gridDims checks a grid value and fills missing dimensions with 1.
func gridDims(at frontend.Expr, v Value) ([3]int, error) {
	elems := v.Elems
	if v.Kind != VTuple {
		elems = []Value{v}
	}
	if len(elems) < 1 || len(elems) > 3 {
		return [3]int{}, Errf(at, "the grid must have 1 to 3 dimensions, not %d", len(elems))
	}
	out := [3]int{1, 1, 1}
	axes := "xyz"
	for i, el := range elems {
		el = el.AsInt()
		if el.Kind != VInt {
			return [3]int{}, Errf(at, "grid dimension %c must be an integer, not %s", axes[i], el.Describe())
		}
		if el.Int < 1 {
			return [3]int{}, Errf(at, "grid dimension %c is %d; it must be at least 1", axes[i], el.Int)
		}
		if el.Int > maxGrid[i] {
			return [3]int{}, Errf(at, "grid dimension %c is %d; CUDA allows at most %d", axes[i], el.Int, maxGrid[i])
		}
		out[i] = int(el.Int)
	}
	return out, nil
}
