package ir

// This file implements the printing of the attributes of shape ops,
// reductions, scans and atomics, and of regions.

import (
	"fmt"
	"strings"
)

var semNames = [...]string{"acq_rel", "acquire", "release", "relaxed"}

func (s MemSem) String() string {
	if int(s) < len(semNames) {
		return semNames[s]
	}
	return "sem?"
}

var scopeNames = [...]string{"gpu", "cta", "sys"}

func (s MemScope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return "scope?"
}

// tileAttrs are the attributes printed after the operands of v.
func tileAttrs(v *Value) []string {
	switch v.Op {
	case OpExpandDims:
		return []string{fmt.Sprintf("axis=%d", v.Axis)}
	case OpTrans:
		return []string{fmt.Sprintf("perm=%v", v.Perm)}
	case OpReduce, OpScan:
		return []string{fmt.Sprintf("axis=%d", v.Axis), "combine=" + v.Combine.String()}
	case OpTupleGet:
		return []string{fmt.Sprintf("index=%d", v.Axis)}
	case OpAtomicRMW:
		return []string{"op=" + v.Atomic.String(), "sem=" + v.Sem.String(), "scope=" + v.Scope.String()}
	case OpAtomicCAS:
		return []string{"sem=" + v.Sem.String(), "scope=" + v.Scope.String()}
	case OpLibdevice:
		return []string{v.Extern}
	case OpInlineAsm:
		if v.Asm != nil {
			return []string{fmt.Sprintf("asm=%q", v.Asm.Asm), fmt.Sprintf("constraints=%q", v.Asm.Constraints),
				fmt.Sprintf("pure=%t", v.Asm.Pure), fmt.Sprintf("pack=%d", v.Asm.Pack)}
		}
	case OpDot:
		if v.Args[0].Type.Kind == Float32 {
			return []string{"input_precision=" + v.Precision.String()}
		}
	case OpSort:
		if v.Axis == 1 {
			return []string{"merge"}
		}
		return []string{fmt.Sprintf("keep=%d", 1<<v.Const.Int)}
	case OpMapElementwise:
		if p := v.MapPack(); p > 1 {
			return []string{fmt.Sprintf("pack=%d", p)}
		}
	case OpFlip, OpGather:
		return []string{fmt.Sprintf("axis=%d", v.Axis)}
	}
	return nil
}

// region prints a custom combine region: its arguments, its body and the
// values it yields.
func (p *printer) region(depth int, r *Region) {
	args := make([]string, len(r.Args))
	for i, a := range r.Args {
		args[i] = fmt.Sprintf("%s %s: %s", ref(a), a.Name, a.Type)
	}
	p.line(depth, "args "+strings.Join(args, ", "))
	p.block(depth, r.Body)
	ys := make([]string, len(r.Yields))
	for i, y := range r.Yields {
		ys[i] = ref(y)
	}
	p.line(depth, "yield "+strings.Join(ys, ", "))
}
