package ir

// This file implements InlineAsm, the attributes of OpInlineAsm
// (tl.inline_asm_elementwise), and the reading of its constraint string
// and operand packing, which sema checks and cudagen prints alike.

import (
	"fmt"
	"strconv"
	"strings"
)

// InlineAsm is the assembly of an OpInlineAsm and how it is called.
type InlineAsm struct {
	// Asm is the assembly as the kernel wrote it, operands named $0, $1,
	// ... in LLVM's syntax ($$ is a literal $).
	Asm string
	// Constraints is the LLVM constraint string: one entry per output
	// register ("=r"), then one per input register ("r", or an output's
	// number for an input tied to it), then clobbers ("~{memory}").
	Constraints string
	Pure        bool // no side effects: the asm may be moved or dropped
	// Pack is the number of elements of each operand one execution of the
	// asm processes.
	Pack int
}

// AsmOperand is one register operand of an inline asm.
type AsmOperand struct {
	Output       bool
	EarlyClobber bool // "=&r": written before the inputs are all read
	// Reg is the register class: 'h' (16 bits), 'r' (32), 'l' (64), 'f'
	// (fp32) or 'd' (fp64); for a tied input, the class of its output.
	Reg  byte
	Tied int // the output a tied input shares a register with; -1 if none
}

// RegBits is the width of register class c (0 if unknown).
func RegBits(c byte) int {
	switch c {
	case 'h':
		return 16
	case 'r', 'f':
		return 32
	case 'l', 'd':
		return 64
	}
	return 0
}

// AsmElemsPerReg is how many elements of kind k one register of an inline
// asm holds when it processes pack elements at a time: elements narrower
// than 32 bits are packed into 32-bit registers (fewer when pack is
// smaller), wider ones take a register each. Pointers count as 64 bits.
func AsmElemsPerReg(k Kind, pack int) int {
	return min(max(32/k.Bits(), 1), pack)
}

// Operands reads the constraint string: the outputs, then the inputs, and
// whether memory is clobbered.
func (a *InlineAsm) Operands() (ops []AsmOperand, memory bool, err error) {
	for _, c := range strings.Split(a.Constraints, ",") {
		c = strings.TrimSpace(c)
		switch {
		case c == "~{memory}":
			memory = true
			continue
		case strings.HasPrefix(c, "~"):
			return nil, false, fmt.Errorf("clobber %q: only ~{memory} is supported", c)
		case memory:
			return nil, false, fmt.Errorf("constraint %q after the clobbers", c)
		}
		op := AsmOperand{Tied: -1}
		body := c
		if rest, ok := strings.CutPrefix(body, "="); ok {
			op.Output, body = true, rest
			if rest, ok := strings.CutPrefix(body, "&"); ok {
				op.EarlyClobber, body = true, rest
			}
		}
		switch {
		case len(body) == 1 && RegBits(body[0]) > 0:
			op.Reg = body[0]
		case !op.Output && body != "" && strings.Trim(body, "0123456789") == "":
			n, err := strconv.Atoi(body)
			if err != nil || n >= len(ops) || !ops[n].Output {
				return nil, false, fmt.Errorf("input %q is tied to %s, which is not an output", c, body)
			}
			op.Tied, op.Reg = n, ops[n].Reg
		default:
			return nil, false, fmt.Errorf("constraint %q: want =r, =h, =l, =f or =d for an output, r, h, l, f, d or an output's number for an input", c)
		}
		if len(ops) > 0 && op.Output && !ops[len(ops)-1].Output {
			return nil, false, fmt.Errorf("output %q after the inputs: outputs come first", c)
		}
		ops = append(ops, op)
	}
	return ops, memory, nil
}

// AsmPart is a piece of an inline asm's text: literal text, or a
// reference to operand Operand (Operand is -1 for text).
type AsmPart struct {
	Text    string
	Operand int
}

// Parts splits the asm text into literal text and operand references
// ($N or ${N}; $$ is a literal $), checking that every reference names
// one of n operands.
func (a *InlineAsm) Parts(n int) ([]AsmPart, error) {
	var parts []AsmPart
	var text strings.Builder
	s := a.Asm
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			text.WriteByte(s[i])
			continue
		}
		rest := s[i+1:]
		braced := strings.HasPrefix(rest, "{")
		if braced {
			rest = rest[1:]
		}
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		switch {
		case !braced && strings.HasPrefix(rest, "$"):
			text.WriteByte('$')
			i++
			continue
		case digits == 0:
			return nil, fmt.Errorf("$ at offset %d names no operand: write $0, $1, ... for operands and $$ for a literal $", i)
		case braced && !strings.HasPrefix(rest[digits:], "}"):
			return nil, fmt.Errorf("operand reference at offset %d: operand modifiers (${N:x}) are not supported", i)
		}
		op, err := strconv.Atoi(rest[:digits])
		if err != nil || op >= n {
			return nil, fmt.Errorf("$%s names no operand: the constraints give %d (numbered from 0)", rest[:digits], n)
		}
		if text.Len() > 0 {
			parts = append(parts, AsmPart{Text: text.String(), Operand: -1})
			text.Reset()
		}
		parts = append(parts, AsmPart{Operand: op})
		i += digits
		if braced {
			i += 2
		}
	}
	if text.Len() > 0 {
		parts = append(parts, AsmPart{Text: text.String(), Operand: -1})
	}
	return parts, nil
}
