package cudagen

// This file implements OpInlineAsm (tl.inline_asm_elementwise) as
// Triton's NVIDIA lowering does: each thread runs the asm once per group of
// pack of its elements; in each group, an operand's elements narrower than
// 32 bits are packed into registers (element j of a register in bits
// j*width up), results come back the same way, and the registers are
// numbered outputs first, then inputs, in the order of the results and of
// the arguments. The asm is printed as a GCC-style asm statement: LLVM's
// $N becomes %N, and a literal % becomes %%. A thread whose share is
// smaller than pack pads the inputs with zeros and drops the extra
// outputs. Registers travel as their bits in unsigned integers (or float
// and double for the f and d classes), so an fp32 value may sit in an r
// register as Triton allows.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// uintOfBits is the unsigned C type of n bits.
func uintOfBits(n int) string {
	switch {
	case n <= 8:
		return "unsigned char"
	case n <= 16:
		return "unsigned short"
	case n <= 32:
		return "unsigned int"
	}
	return "unsigned long long"
}

// regCType is the C type of a register of class c.
func regCType(c byte) string {
	switch c {
	case 'f':
		return "float"
	case 'd':
		return "double"
	}
	return uintOfBits(ir.RegBits(c))
}

// elemBits is the bit pattern of x, an element of kind k, as an unsigned
// integer of k's width.
func (s nameSet) elemBits(k ir.Kind, x string) string {
	switch k {
	case ir.Float32:
		s.use("tri_bits_f32")
		return "tri_bits_f32(" + x + ")"
	case ir.Float64:
		s.use("tri_bits_f64")
		return "tri_bits_f64(" + x + ")"
	}
	return fmt.Sprintf("(%s)(%s)", uintOfBits(k.Bits()), x)
}

// elemFromBits is the element of kind k whose bits are the low bits of the
// unsigned expression u.
func (s nameSet) elemFromBits(d ir.DType, u string) string {
	switch d.Kind {
	case ir.Float32:
		s.use("tri_f32_bits")
		return "tri_f32_bits((unsigned int)(" + u + "))"
	case ir.Float64:
		s.use("tri_f64_bits")
		return "tri_f64_bits((unsigned long long)(" + u + "))"
	}
	return fmt.Sprintf("(%s)(%s)", s.cType(d), u)
}

// asmText is the asm's text as C string literals, one per line of it, with
// its operand references in GCC's syntax.
func asmText(parts []ir.AsmPart) []string {
	var b strings.Builder
	for _, p := range parts {
		if p.Operand >= 0 {
			fmt.Fprintf(&b, "%%%d", p.Operand)
			continue
		}
		b.WriteString(strings.ReplaceAll(p.Text, "%", "%%"))
	}
	lines := strings.SplitAfter(b.String(), "\n")
	var out []string
	for _, l := range lines {
		if l == "" {
			continue
		}
		nl := strings.HasSuffix(l, "\n")
		q := strings.ReplaceAll(cString(strings.TrimSuffix(l, "\n")), `\011`, `\t`)
		if nl {
			q = q[:len(q)-1] + `\n"`
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		out = []string{`""`}
	}
	return out
}

// inlineAsm writes the asm statement of v once per group of pack elements
// of each thread, and the unpacking of its results.
func (e *emitter) inlineAsm(v *ir.Value) {
	asm := v.Asm
	ops, memory, err := asm.Operands()
	if err != nil {
		panic(fmt.Sprintf("inline asm constraints %q: %v", asm.Constraints, err))
	}
	parts, err := asm.Parts(len(ops))
	if err != nil {
		panic(fmt.Sprintf("inline asm text: %v", err))
	}
	types, names := v.Types, e.resNames[v.ID]
	if len(types) == 0 {
		types, names = []ir.Type{v.Type}, []string{e.names[v.ID]}
	}
	elems := 1
	if !types[0].IsScalar() {
		elems = e.layoutOf(v).Elems
	}
	if !e.outside[v.ID] && !e.fused[v.ID] {
		for i, t := range types {
			e.declare(t, e.layoutOf(v), names[i], "")
		}
	}
	pack := asm.Pack
	kind := "asm volatile"
	if asm.Pure {
		kind = "asm"
	}
	what := "asm volatile: it may have side effects"
	if asm.Pure {
		what = "pure asm"
	}
	e.w.line("// Inline PTX (tl.inline_asm_elementwise), %s at a time; %s.", diag.Count(int64(pack), "element"), what)
	// index is the C index of element k of the group starting at the
	// loop's e ("" for scalars); ok says the thread holds that element.
	loop := elems > pack
	index := func(k int) (string, bool) {
		switch {
		case types[0].IsScalar():
			return "", k == 0
		case loop && k == 0:
			return "e", true
		case loop:
			return "e + " + strconv.Itoa(k), true
		}
		return strconv.Itoa(k), k < elems
	}
	if loop {
		e.w.line("#pragma unroll")
		e.w.open("for (int e = 0; e < %d; e += %d) {", elems, pack)
	} else {
		e.w.open("{")
	}
	// The outputs: one register per group of each result.
	var outs, ins []string
	type unpack struct {
		result, first, per, reg int
	}
	var unpacks []unpack
	for r, t := range types {
		per := ir.AsmElemsPerReg(t.Kind, pack)
		for first := 0; first < pack; first += per {
			j := len(outs)
			outs = append(outs, fmt.Sprintf("%q(tri_o%d)", asmConstraint(ops[j]), j))
			e.w.line("%s tri_o%d;", regCType(ops[j].Reg), j)
			unpacks = append(unpacks, unpack{r, first, per, j})
		}
	}
	for _, x := range v.Args {
		per := ir.AsmElemsPerReg(x.Type.Kind, pack)
		for first := 0; first < pack; first += per {
			op := ops[len(outs)+len(ins)]
			ins = append(ins, fmt.Sprintf("%q(%s)", asmConstraint(op), e.asmInput(x, op.Reg, first, per, index)))
		}
	}
	text := asmText(parts)
	e.w.line("%s(%s", kind, text[0])
	for _, l := range text[1:] {
		e.w.line("    %s", l)
	}
	clobbers := ""
	if memory {
		clobbers = ` : "memory"`
	}
	if len(ins) == 0 && clobbers == "" {
		e.w.line("    : %s);", strings.Join(outs, ", "))
	} else {
		e.w.line("    : %s", strings.Join(outs, ", "))
		e.w.line("    : %s%s);", strings.Join(ins, ", "), clobbers)
	}
	for _, u := range unpacks {
		t := types[u.result]
		for q := range u.per {
			idx, ok := index(u.first + q)
			if !ok {
				continue
			}
			e.w.line("%s = %s;", e.elem(names[u.result], t, idx), e.asmOutput(t.DType, ops[u.reg].Reg, u.reg, q, u.per))
		}
	}
	e.w.close("}")
}

// asmConstraint is the GCC spelling of an operand's constraint.
func asmConstraint(op ir.AsmOperand) string {
	switch {
	case op.Tied >= 0:
		return strconv.Itoa(op.Tied)
	case op.Output && op.EarlyClobber:
		return "=&" + string(op.Reg)
	case op.Output:
		return "=" + string(op.Reg)
	}
	return string(op.Reg)
}

// asmInput is the C value of the input register of class reg holding the
// per elements of x from element first of the group on.
func (e *emitter) asmInput(x *ir.Value, reg byte, first, per int, index func(int) (string, bool)) string {
	k := x.Type.Kind
	u := uintOfBits(ir.RegBits(reg))
	if _, ok := index(first); !ok {
		// Padding: the thread holds fewer elements than pack.
		return "(" + regCType(reg) + ")0"
	}
	if per == 1 && (reg == 'f' && k == ir.Float32 || reg == 'd' && k == ir.Float64) {
		idx, _ := index(first)
		return e.expr(x, idx)
	}
	var terms []string
	for q := range per {
		idx, ok := index(first + q)
		if !ok {
			continue
		}
		t := e.elemBits(k, e.expr(x, idx))
		if k.Bits() != ir.RegBits(reg) {
			t = fmt.Sprintf("(%s)%s", u, t)
		}
		if q > 0 {
			t = fmt.Sprintf("%s << %d", t, q*k.Bits())
		}
		terms = append(terms, t)
	}
	bits := strings.Join(terms, " | ")
	switch reg {
	case 'f':
		e.use("tri_f32_bits")
		return "tri_f32_bits(" + bits + ")"
	case 'd':
		e.use("tri_f64_bits")
		return "tri_f64_bits(" + bits + ")"
	}
	if len(terms) > 1 && reg == 'h' {
		// An | of unsigned shorts is an int.
		return "(" + u + ")(" + bits + ")"
	}
	return bits
}

// asmOutput is element q of the per elements of dtype d that output
// register tri_o<j> of class reg holds.
func (s nameSet) asmOutput(d ir.DType, reg byte, j, q, per int) string {
	r := fmt.Sprintf("tri_o%d", j)
	if per == 1 && (reg == 'f' && d.Kind == ir.Float32 || reg == 'd' && d.Kind == ir.Float64) {
		return r
	}
	switch reg {
	case 'f':
		s.use("tri_bits_f32")
		r = "tri_bits_f32(" + r + ")"
	case 'd':
		s.use("tri_bits_f64")
		r = "tri_bits_f64(" + r + ")"
	}
	if q > 0 {
		r = fmt.Sprintf("%s >> %d", r, q*d.Kind.Bits())
	}
	return s.elemFromBits(d, r)
}
