package interp

// This file implements the interpreter's dispatch: evaluators gives every
// op its implementation, by the op's class in ir's op table where the
// class says enough (elementwise, compare and math ops), by op otherwise.
// TestEveryOp checks that no op of the table lacks one.

import (
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// evalFunc computes v from its operands' tiles (nil for absent optional
// operands); Void values give nil.
type evalFunc func(p *program, v *ir.Value, args []*tile) (*tile, error)

// evaluators returns the implementation of each op, nil for those the
// interpreter lacks. It is built per program (a table of functions that
// reach back to eval cannot be a package variable).
func evaluators() [ir.NumOps]evalFunc {
	var t [ir.NumOps]evalFunc
	for op := ir.Op(1); op < ir.NumOps; op++ {
		switch op.Info().Class {
		case ir.ClassElementwise:
			t[op] = evalElementwise
		case ir.ClassCompare:
			t[op] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return compare(v.Op, a[0], a[1]), nil }
		case ir.ClassMath:
			if floatUnaryFuncs[op] != nil {
				t[op] = evalMath
			}
		}
	}
	t[ir.OpConst] = func(_ *program, v *ir.Value, _ []*tile) (*tile, error) { return constTile(v.Type.Kind, v.Const), nil }
	t[ir.OpParam] = func(p *program, v *ir.Value, _ []*tile) (*tile, error) { return p.m.params[v.Param.Index], nil }
	t[ir.OpProgramID] = func(p *program, v *ir.Value, _ []*tile) (*tile, error) {
		return intScalar(ir.Int32, int64(p.pid[v.Axis])), nil
	}
	t[ir.OpNumPrograms] = func(p *program, v *ir.Value, _ []*tile) (*tile, error) {
		return intScalar(ir.Int32, int64(p.m.grid[v.Axis])), nil
	}
	t[ir.OpArange] = func(_ *program, v *ir.Value, _ []*tile) (*tile, error) {
		r := newTile(ir.Int32, v.Type.Shape)
		for i := range r.ints {
			r.ints[i] = v.Const.Int + int64(i)
		}
		wrapInts(ir.Int32, r.ints)
		return r, nil
	}
	t[ir.OpVarRead] = func(p *program, v *ir.Value, _ []*tile) (*tile, error) {
		r := p.vars[v.Var.ID]
		if r == nil {
			return nil, p.errorf(v.Pos, diag.CodeInternal, "internal error: %s read before it is assigned", v.Var.Name)
		}
		return r, nil
	}
	// A region's arguments are bound before its body runs.
	t[ir.OpRegionArg] = func(p *program, v *ir.Value, _ []*tile) (*tile, error) { return p.vals[v.ID], nil }
	t[ir.OpSplat] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return splat(a[0], v.Type.Shape), nil }
	t[ir.OpBroadcast] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return broadcast(a[0], v.Type.Shape), nil }
	reshape := func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return a[0].withShape(v.Type.Shape), nil }
	t[ir.OpExpandDims], t[ir.OpReshape], t[ir.OpMultipleOf], t[ir.OpMaxContiguous] = reshape, reshape, reshape, reshape
	t[ir.OpTrans] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return trans(a[0], v.Perm, v.Type.Shape), nil }
	t[ir.OpJoin] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return join(a[0], a[1], v.Type.Shape), nil }
	t[ir.OpSplit] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return split(a[0], v.Types), nil }
	t[ir.OpTupleGet] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return a[0].parts[v.Axis], nil }
	t[ir.OpCast] = func(p *program, v *ir.Value, a []*tile) (*tile, error) {
		return cast(a[0], v.Type.Kind, v.Flags&ir.FlagRoundTZ != 0, p.m.arch), nil
	}
	t[ir.OpBitcast] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return bitcast(a[0], v.Type.Kind), nil }
	t[ir.OpWhere] = func(_ *program, _ *ir.Value, a []*tile) (*tile, error) { return where(a[0], a[1], a[2]), nil }
	t[ir.OpPtrAdd] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) {
		return ptrAdd(a[0], a[1], int64(v.Type.Elem.Bytes())), nil
	}
	t[ir.OpLoad] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return p.load(v, a[0], a[1], a[2]) }
	t[ir.OpStore] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return nil, p.store(v, a[0], a[1], a[2]) }
	t[ir.OpAssume] = func(p *program, v *ir.Value, a []*tile) (*tile, error) {
		if !a[0].truth() {
			return nil, p.errorf(v.Pos, diag.CodeRuntime, "tl.assume does not hold")
		}
		return nil, nil
	}
	// A program is one logical thread: a barrier has nothing to wait for.
	t[ir.OpBarrier] = func(*program, *ir.Value, []*tile) (*tile, error) { return nil, nil }
	// The interpreter runs one launch at a time, to its end: a dependent
	// grid never overlaps the one before it, so both gdc ops are no-ops.
	t[ir.OpGdcWait] = t[ir.OpBarrier]
	t[ir.OpGdcLaunchDependents] = t[ir.OpBarrier]
	t[ir.OpReduce] = func(p *program, v *ir.Value, a []*tile) (*tile, error) {
		if v.Combine == ir.CombineCustom {
			return p.reduceCustom(v, a)
		}
		return reduceBuiltin(v, a[0]), nil
	}
	t[ir.OpScan] = func(p *program, v *ir.Value, a []*tile) (*tile, error) {
		if v.Combine == ir.CombineCustom {
			return p.scanCustom(v, a)
		}
		return scanBuiltin(v, a[0]), nil
	}
	t[ir.OpDot] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) {
		return dot(a[0], a[1], a[2], v.Precision), nil
	}
	t[ir.OpAtomicRMW] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return p.atomicRMW(v, a[0], a[1], a[2]) }
	t[ir.OpAtomicCAS] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return p.atomicCAS(v, a[0], a[1], a[2]) }
	t[ir.OpLibdevice] = evalLibdevice // libdevice.go
	// Printing and assertions (debug.go).
	t[ir.OpPrint] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { p.print(v, a); return nil, nil }
	t[ir.OpAssert] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return nil, p.assert(v, a[0]) }
	t[ir.OpInlineAsm] = evalInlineAsm
	// Tile operations (tileops.go).
	t[ir.OpSort] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return sortTile(v, a[0]), nil }
	t[ir.OpFlip] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return flipTile(a[0], v.Axis), nil }
	t[ir.OpGather] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return p.gatherTile(v, a[0], a[1]) }
	t[ir.OpHistogram] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return histogramTile(v, a[0], a[1]), nil }
	t[ir.OpCat] = func(_ *program, v *ir.Value, a []*tile) (*tile, error) { return catTile(a[0], a[1], v.Type.Shape), nil }
	t[ir.OpMapElementwise] = func(p *program, v *ir.Value, a []*tile) (*tile, error) { return p.mapElementwise(v, a) }
	return t
}

// evalElementwise computes an elementwise op: unary, binary or fma.
func evalElementwise(_ *program, v *ir.Value, a []*tile) (*tile, error) {
	k := v.Type.Kind
	switch {
	case len(a) == 3:
		return fma(k, a[0], a[1], a[2]), nil
	case len(a) == 1 && k.IsFloat():
		return floatUnary(v, a[0]), nil
	case len(a) == 1:
		return intUnary(v, a[0]), nil
	case k.IsFloat():
		return floatBinary(v, a[0], a[1]), nil
	}
	return intBinary(v, a[0], a[1]), nil
}

// evalMath computes a math function (floatUnaryFuncs), or |x| on integers.
func evalMath(_ *program, v *ir.Value, a []*tile) (*tile, error) {
	if !v.Type.Kind.IsFloat() {
		return intUnary(v, a[0]), nil
	}
	return floatUnary(v, a[0]), nil
}

// Supports reports whether the interpreter runs op.
func Supports(op ir.Op) bool { return op > ir.OpInvalid && op < ir.NumOps && evaluators()[op] != nil }
