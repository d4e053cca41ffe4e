package sema

// This file implements tl.inline_asm_elementwise as core.py does: the
// inputs are broadcast to one shape (no type promotion; numbers become
// tensors of their literal type), dtype is one dtype or a tuple of them
// (then the result is a tuple), and each execution of the asm processes
// pack elements, elements narrower than 32 bits packed into 32-bit
// registers. The constraint string must give one register per packed
// group of each result, then of each input, as Triton's lowering passes
// them; sema checks that here rather than leaving it to the CUDA compiler.

import (
	"fmt"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// inlineAsmParams are tl.inline_asm_elementwise's parameters, all required.
var inlineAsmParams = []string{"asm", "constraints", "args", "dtype", "is_pure", "pack"}

func bInlineAsm(c *compiler, a *args) *val {
	const fn = "tl.inline_asm_elementwise"
	text, cons := a.vals[0], a.vals[1]
	if text.k != kStr || cons.k != kStr {
		return c.errorf(a.pos, diag.CodeType, "%s: asm and constraints must be string constants", fn)
	}
	if !a.vals[4].isConst() || a.vals[4].k == kTuple {
		return c.errorf(a.pos, diag.CodeType, "%s: is_pure must be a compile-time bool, got %s", fn, a.vals[4].describe())
	}
	pack, ok := c.constInt(a.vals[5], "pack", a.pos)
	if !ok {
		return invalid
	}
	if pack < 1 || pack&(pack-1) != 0 || pack > 64 {
		return c.errorf(a.pos, diag.CodeValue, "%s: pack must be a power of two from 1 to 64, got %d", fn, pack)
	}
	dtypes, tuple, ok := c.asmDTypes(a.vals[3], a.pos)
	if !ok {
		return invalid
	}
	ins, shape, ok := c.asmInputs(a.vals[2], a.pos)
	if !ok {
		return invalid
	}
	asm := &ir.InlineAsm{Asm: text.s, Constraints: cons.s, Pure: a.vals[4].truth(), Pack: int(pack)}
	if err := checkAsmOperands(asm, dtypes, ins); err != nil {
		return c.errorf(a.pos, diag.CodeValue, "%s: %v", fn, err)
	}
	if !tuple {
		v := c.emit(ir.OpInlineAsm, ir.Type{DType: dtypes[0], Shape: cloneShape(shape)}, a.pos, ins...)
		v.Asm = asm
		return rtVal(v)
	}
	v := c.emit(ir.OpInlineAsm, ir.ScalarType(ir.TVoid), a.pos, ins...)
	v.Asm = asm
	for _, d := range dtypes {
		v.Types = append(v.Types, ir.Type{DType: d, Shape: cloneShape(shape)})
	}
	return c.tupleResults(v)
}

// asmDTypes reads dtype: one dtype, or a tuple of them (tuple is then set).
func (c *compiler) asmDTypes(v *val, pos diag.Pos) (out []ir.DType, tuple bool, ok bool) {
	elts := []*val{v}
	if v.k == kTuple {
		elts, tuple = v.elts, true
		if len(elts) == 0 {
			c.errorf(pos, diag.CodeValue, "tl.inline_asm_elementwise must return at least one tensor: dtype is an empty tuple")
			return nil, false, false
		}
	}
	for _, e := range elts {
		d, ok := c.dtypeArg(e, pos)
		if !ok {
			return nil, false, false
		}
		if d.Kind == ir.Bool {
			c.errorf(pos, diag.CodeType, "tl.inline_asm_elementwise: int1 results are not supported; return int8 or int32 and compare")
			return nil, false, false
		}
		out = append(out, d)
	}
	return out, tuple, true
}

// asmInputs converts args (a list or tuple) to runtime values broadcast to
// their common shape.
func (c *compiler) asmInputs(v *val, pos diag.Pos) ([]*ir.Value, ir.Shape, bool) {
	if v.k != kTuple {
		c.errorf(pos, diag.CodeType, "the args of tl.inline_asm_elementwise must be a list of tensors, got %s", v.describe())
		return nil, nil, false
	}
	var ins []*ir.Value
	var shape ir.Shape
	for i, e := range v.elts {
		x := c.runtimeArg(e, fmt.Sprintf("argument %d of tl.inline_asm_elementwise", i), pos)
		if x == nil {
			return nil, nil, false
		}
		if x.Type.Kind == ir.Bool {
			c.errorf(pos, diag.CodeType, "tl.inline_asm_elementwise: argument %d is int1, which has no register form; convert it with .to(tl.int8) or .to(tl.int32)", i)
			return nil, nil, false
		}
		s, ok := broadcastShape(shape, x.Type.Shape)
		if !ok {
			c.errorf(pos, diag.CodeType, "tl.inline_asm_elementwise: argument %d of shape %s does not broadcast with shape %s", i, x.Type.Shape, shape)
			return nil, nil, false
		}
		shape = s
		ins = append(ins, x)
	}
	for i, x := range ins {
		ins[i] = c.splatTo(x, shape, pos)
	}
	return ins, shape, true
}

// checkAsmOperands checks the constraint string against the registers
// Triton's lowering passes: for each result, then each input, pack/n
// registers of n elements each (ir.AsmElemsPerReg), each register class
// at least as wide as the group it holds (fp32 and fp64 classes exactly),
// and every $N of the text naming one of them.
func checkAsmOperands(asm *ir.InlineAsm, results []ir.DType, ins []*ir.Value) error {
	ops, _, err := asm.Operands()
	if err != nil {
		return err
	}
	var want []groupWidth
	for i, d := range results {
		want = append(want, groups(asm.Pack, d.Kind, true, fmt.Sprintf("result %d (%s)", i, d))...)
	}
	for i, x := range ins {
		want = append(want, groups(asm.Pack, x.Type.Kind, false, fmt.Sprintf("argument %d (%s)", i, x.Type.DType))...)
	}
	nOut, nIn := 0, 0
	for _, w := range want {
		if w.output {
			nOut++
		} else {
			nIn++
		}
	}
	gotOut := 0
	for _, op := range ops {
		if op.Output {
			gotOut++
		}
	}
	if gotOut != nOut || len(ops)-gotOut != nIn {
		return fmt.Errorf("the constraints give %d outputs and %d inputs, but with pack=%d the results take %d output registers and the arguments %d input registers",
			gotOut, len(ops)-gotOut, asm.Pack, nOut, nIn)
	}
	for i, w := range want {
		reg := ops[i].Reg
		bits := ir.RegBits(reg)
		if bits < w.bits || (reg == 'f' || reg == 'd') && bits != w.bits {
			return fmt.Errorf("operand %d (%s, %d bits a register) cannot go in a %q register of %d bits", i, w.what, w.bits, reg, bits)
		}
	}
	_, err = asm.Parts(len(ops))
	return err
}

// groupWidth is one register operand as the lowering passes it.
type groupWidth struct {
	output bool
	bits   int
	what   string
}

// groups lists the registers that pack elements of kind k take.
func groups(pack int, k ir.Kind, output bool, what string) []groupWidth {
	per := ir.AsmElemsPerReg(k, pack)
	out := make([]groupWidth, pack/per)
	for i := range out {
		out[i] = groupWidth{output, per * k.Bits(), what}
	}
	return out
}
