package autotune

// This file instruments the bytecode of host code so that the boundary
// (boundary.go, guard.go) can bound it. gpython's virtual machine has no
// hook in its loop, so the checks travel in the code itself:
//
//   - before every backward jump (the end of a while or for body, a
//     continue, a comprehension's next item) the code calls the guard's
//     tick with the line of the loop's head; the tick stops an evaluation
//     that ran past its time, was cancelled, or holds too much memory;
//   - the operators that can make a huge value in one step (*, **, <<, +
//     and their in-place forms) call the guard's checked version of the
//     operator instead, which refuses a result past the size limits
//     before it is allocated;
//   - the operators that gpython computes by recursing into containers
//     without a limit (==, !=, in, not in, and % on a str, which formats
//     with repr and str) call tri's bounded versions (hostpy_nest.go,
//     hostpy_percent.go);
//   - before a subscript (x[k], x[k] = v, del x[k]) the code calls the
//     guard's key check with x and k: gpython writes a dict's missing
//     key with Go's fmt, which recurses through a dict that holds itself;
//   - reading a dunder attribute that reaches those operations on a
//     built-in value (l.__repr__, s.__mod__, l.__mul__; gpython finds them
//     by reflection) calls the guard's attr hook with the object, which
//     returns the checked method.
//
// The rewrite works on gpython's code objects (CPython 3.4's format: an
// opcode byte, then a two-byte argument from HAVE_ARGUMENT on, with an
// EXTENDED_ARG prefix for the high half). Instructions are decoded into a
// list, the new ones inserted, jump targets kept as instruction indices,
// and the code laid out again: jump arguments are recomputed (growing an
// instruction by an EXTENDED_ARG prefix where a target moves past 65535,
// until the layout stands still) and the line table is re-encoded so that
// every inserted instruction reports the line of the one it was inserted
// for. Exception blocks are set up by the SETUP_* jumps, so they move with
// them.
//
// A binary operator or a comparison becomes LOAD_CONST op; ROT_THREE;
// CALL_FUNCTION 2: with the operands a, b on the stack, the function goes
// under them and the call leaves op(a, b) where the operator's result
// would be. A subscript is preceded by DUP_TOP_TWO; LOAD_CONST key;
// ROT_THREE; CALL_FUNCTION 2; POP_TOP, which calls key(x, k) and leaves
// the stack as it was. LOAD_ATTR of a checked name becomes LOAD_CONST get; ROT_TWO;
// CALL_FUNCTION 1, which leaves get(obj) where the attribute would be.

import (
	"fmt"

	"github.com/go-python/gpython/py"
)

// The opcodes the rewrite reads or writes: CPython 3.4's numbering, which
// gpython's vm package uses (TestOpcodesMatchVM compares them).
const (
	opPopTop          = 1
	opRotTwo          = 2
	opRotThree        = 3
	opDupTopTwo       = 5
	opBinaryPower     = 19
	opBinaryMultiply  = 20
	opBinaryModulo    = 22
	opBinaryAdd       = 23
	opBinarySubscr    = 25
	opInplaceAdd      = 55
	opInplaceMultiply = 57
	opInplaceModulo   = 59
	opStoreSubscr     = 60
	opDeleteSubscr    = 61
	opBinaryLshift    = 62
	opInplacePower    = 67
	opInplaceLshift   = 75
	opHaveArgument    = 90
	opForIter         = 93
	opLoadConst       = 100
	opLoadAttr        = 106
	opCompareOp       = 107
	opJumpForward     = 110
	opJumpIfFalseOrP  = 111
	opJumpIfTrueOrP   = 112
	opJumpAbsolute    = 113
	opPopJumpIfFalse  = 114
	opPopJumpIfTrue   = 115
	opContinueLoop    = 119
	opSetupLoop       = 120
	opSetupExcept     = 121
	opSetupFinally    = 122
	opCallFunction    = 131
	opSetupWith       = 143
	opExtendedArg     = 144
)

// relJump and absJump say how an opcode's argument names a target:
// relative to the next instruction, or as an offset in the code.
func relJump(op byte) bool {
	switch op {
	case opForIter, opJumpForward, opSetupLoop, opSetupExcept, opSetupFinally, opSetupWith:
		return true
	}
	return false
}

func absJump(op byte) bool {
	switch op {
	case opJumpIfFalseOrP, opJumpIfTrueOrP, opJumpAbsolute, opPopJumpIfFalse, opPopJumpIfTrue, opContinueLoop:
		return true
	}
	return false
}

// checkedOps are the operators replaced by a call; the hooks are made per
// code object by the instrumenter's caller.
var checkedOps = map[byte]bool{
	opBinaryMultiply: true, opInplaceMultiply: true,
	opBinaryPower: true, opInplacePower: true,
	opBinaryLshift: true, opInplaceLshift: true,
	opBinaryAdd: true, opInplaceAdd: true,
	opBinaryModulo: true, opInplaceModulo: true,
}

// instr is one decoded instruction. A jump's target is the index of the
// instruction it jumps to (in the old list while decoding, in the new one
// after insertion); line is the source line it reports.
type instr struct {
	op     byte
	arg    uint32
	target int // -1: not a jump
	line   int32
	wide   bool // needs an EXTENDED_ARG prefix
	addr   int  // its offset: the next instruction's while decoding, its own once laid out
}

func (in *instr) size() int {
	switch {
	case in.op < opHaveArgument:
		return 1
	case in.wide:
		return 6
	}
	return 3
}

// hooks are what instrumented code calls: tick(line) before a backward
// jump, op(a, b) for each checked operator, cmp(a, b) for each checked
// comparison, attr(name)(obj) for each read of a checked attribute and
// key(x, k) before each subscript.
type hooks struct {
	tick py.Object
	op   func(op byte) py.Object
	cmp  func(arg uint32) py.Object
	attr func(name string) py.Object
	key  py.Object
}

// instrument rewrites code, and the code objects among its constants, in
// place.
func instrument(code *py.Code, hk hooks) error {
	for _, c := range code.Consts {
		if inner, ok := c.(*py.Code); ok {
			if err := instrument(inner, hk); err != nil {
				return err
			}
		}
	}
	old, err := decode(code)
	if err != nil {
		return err
	}
	konst := func(o py.Object) uint32 {
		code.Consts = append(code.Consts, o)
		return uint32(len(code.Consts) - 1)
	}
	tickAt := map[int32]uint32{} // a line's constant
	var out []*instr
	newIndex := make([]int, len(old)) // where the sequence for old[i] starts
	for i, in := range old {
		newIndex[i] = len(out)
		switch {
		case in.target >= 0 && in.target <= i && absJump(in.op):
			line := old[in.target].line // the loop's head: while, for, comprehension
			k, ok := tickAt[line]
			if !ok {
				k = konst(py.Int(line))
				tickAt[line] = k
			}
			tk := konst(hk.tick)
			out = append(out,
				&instr{op: opLoadConst, arg: tk, target: -1, line: in.line},
				&instr{op: opLoadConst, arg: k, target: -1, line: in.line},
				&instr{op: opCallFunction, arg: 1, target: -1, line: in.line},
				&instr{op: opPopTop, target: -1, line: in.line},
				in)
		case checkedOps[in.op]:
			out = append(out,
				&instr{op: opLoadConst, arg: konst(hk.op(in.op)), target: -1, line: in.line},
				&instr{op: opRotThree, target: -1, line: in.line},
				&instr{op: opCallFunction, arg: 2, target: -1, line: in.line})
		case in.op == opBinarySubscr || in.op == opStoreSubscr || in.op == opDeleteSubscr:
			out = append(out,
				&instr{op: opDupTopTwo, target: -1, line: in.line},
				&instr{op: opLoadConst, arg: konst(hk.key), target: -1, line: in.line},
				&instr{op: opRotThree, target: -1, line: in.line},
				&instr{op: opCallFunction, arg: 2, target: -1, line: in.line},
				&instr{op: opPopTop, target: -1, line: in.line},
				in)
		case in.op == opCompareOp && checkedCompare(in.arg):
			out = append(out,
				&instr{op: opLoadConst, arg: konst(hk.cmp(in.arg)), target: -1, line: in.line},
				&instr{op: opRotThree, target: -1, line: in.line},
				&instr{op: opCallFunction, arg: 2, target: -1, line: in.line})
		case in.op == opLoadAttr && int(in.arg) < len(code.Names) && checkedAttrs[code.Names[in.arg]]:
			out = append(out,
				&instr{op: opLoadConst, arg: konst(hk.attr(code.Names[in.arg])), target: -1, line: in.line},
				&instr{op: opRotTwo, target: -1, line: in.line},
				&instr{op: opCallFunction, arg: 1, target: -1, line: in.line})
		default:
			out = append(out, in)
		}
	}
	for _, in := range old {
		if in.target >= 0 {
			in.target = newIndex[in.target]
		}
	}
	if err := layout(code, out); err != nil {
		return err
	}
	code.Stacksize += 3 // a tick's function and line, an operator's function, a key check's three
	return nil
}

// decode splits code into instructions, with jump targets as indices and
// each instruction's line.
func decode(code *py.Code) ([]*instr, error) {
	b := code.Code
	var list []*instr
	at := map[int]int{} // offset -> index
	var ext uint32
	extended := false
	start := 0
	for pc := 0; pc < len(b); {
		op := b[pc]
		if !extended {
			start = pc
		}
		var arg uint32
		next := pc + 1
		if op >= opHaveArgument {
			if pc+2 >= len(b) {
				return nil, fmt.Errorf("instrumenting %s: truncated bytecode", code.Name)
			}
			arg = uint32(b[pc+1]) | uint32(b[pc+2])<<8
			next = pc + 3
		}
		if op == opExtendedArg {
			ext, extended = arg, true
			pc = next
			continue
		}
		if extended {
			arg |= ext << 16
		}
		at[start] = len(list)
		list = append(list, &instr{op: op, arg: arg, target: -1, line: code.Addr2Line(int32(start)), wide: extended, addr: next})
		extended = false
		pc = next
	}
	for _, in := range list {
		var dest int
		switch {
		case relJump(in.op):
			dest = in.addr + int(in.arg)
		case absJump(in.op):
			dest = int(in.arg)
		default:
			continue
		}
		j, ok := at[dest]
		if !ok {
			return nil, fmt.Errorf("instrumenting %s: a jump to offset %d, which starts no instruction", code.Name, dest)
		}
		in.target = j
	}
	return list, nil
}

// layout encodes list as code's bytecode and line table.
func layout(code *py.Code, list []*instr) error {
	for {
		addr := 0
		for _, in := range list {
			in.addr = addr
			addr += in.size()
		}
		grew := false
		for _, in := range list {
			if in.target < 0 {
				continue
			}
			dest := list[in.target].addr
			if relJump(in.op) {
				dest -= in.addr + in.size()
			}
			if dest < 0 {
				return fmt.Errorf("instrumenting %s: a relative jump backward", code.Name)
			}
			in.arg = uint32(dest)
			if in.arg > 0xFFFF && !in.wide {
				in.wide, grew = true, true
			}
		}
		if !grew {
			break
		}
	}
	var b []byte
	for _, in := range list {
		switch {
		case in.op < opHaveArgument:
			b = append(b, in.op)
		case in.wide:
			b = append(b, opExtendedArg, byte(in.arg>>16), byte(in.arg>>24), in.op, byte(in.arg), byte(in.arg>>8))
		default:
			if in.arg > 0xFFFF {
				return fmt.Errorf("instrumenting %s: argument %d too large", code.Name, in.arg)
			}
			b = append(b, in.op, byte(in.arg), byte(in.arg>>8))
		}
	}
	code.Code = string(b)
	code.Lnotab = string(lineTable(code.Firstlineno, list))
	return nil
}

// lineTable encodes the lines of list as gpython reads them back
// (py.Code.Addr2Line): pairs of an offset increment and a line increment,
// both unsigned bytes, an entry where the line grows.
func lineTable(first int32, list []*instr) []byte {
	var t []byte
	addr, line := 0, first
	for _, in := range list {
		if in.line <= line {
			continue
		}
		da, dl := in.addr-addr, in.line-line
		for da > 255 {
			t = append(t, 255, 0)
			da -= 255
		}
		for dl > 255 {
			t = append(t, byte(da), 255)
			da, dl = 0, dl-255
		}
		t = append(t, byte(da), byte(dl))
		addr, line = in.addr, in.line
	}
	return t
}
