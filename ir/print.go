package ir

// This file implements Print, the readable text form of a kernel used by
// --dump=ir and by tests.

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
)

// Print writes k in a readable text form: one line per value, such as
//
//	%12 offsets: i32[1024] = add %10, %11   // k.tri:7
//
// with nested blocks indented. The output is deterministic.
func Print(w io.Writer, k *Kernel) {
	p := &printer{w: w, file: filepath.Base(k.File)}
	var params []string
	for _, prm := range k.Params {
		s := fmt.Sprintf("%s: %s", prm.Name, prm.DType)
		if prm.DivisibleBy16 {
			s += ":16"
		}
		params = append(params, s)
	}
	p.line(0, fmt.Sprintf("kernel %s(%s) num_warps=%d num_stages=%d", k.Name, strings.Join(params, ", "), k.NumWarps, k.NumStages))
	for _, s := range k.Spec {
		p.line(1, fmt.Sprintf("spec %s %s %s", s.Name, s.Kind, s.Value))
	}
	p.block(1, k.Body)
}

type printer struct {
	w    io.Writer
	file string
}

func (p *printer) line(depth int, s string) {
	fmt.Fprintf(p.w, "%s%s\n", strings.Repeat("  ", depth), s)
}

func (p *printer) block(depth int, b *Block) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		p.stmt(depth, s)
	}
}

func ref(v *Value) string {
	if v == nil {
		return "_"
	}
	return fmt.Sprintf("%%%d", v.ID)
}

func varRef(v *Var) string {
	if v == nil {
		return "$?"
	}
	return fmt.Sprintf("$%d %s", v.ID, v.Name)
}

func (p *printer) where(line int) string {
	if line <= 0 {
		return ""
	}
	return fmt.Sprintf("   // %s:%d", p.file, line)
}

func (p *printer) stmt(depth int, s Stmt) {
	switch s := s.(type) {
	case *Value:
		if s.Region == nil {
			p.line(depth, FormatValue(s)+p.where(s.Pos.Line))
			break
		}
		p.line(depth, FormatValue(s)+" {"+p.where(s.Pos.Line))
		p.region(depth+1, s.Region)
		p.line(depth, "}")
	case *Assign:
		p.line(depth, fmt.Sprintf("%s: %s = %s", varRef(s.Var), s.Var.Type, ref(s.Value))+p.where(s.Pos.Line))
	case *For:
		extra := ""
		if s.NumStages != 0 {
			extra += fmt.Sprintf(" num_stages=%d", s.NumStages)
		}
		if s.LoopUnroll != 0 {
			extra += fmt.Sprintf(" loop_unroll_factor=%d", s.LoopUnroll)
		}
		if s.DisallowAccMMA {
			extra += " disallow_acc_multi_buffer"
		}
		p.line(depth, fmt.Sprintf("for %s: %s = %s to %s step %s%s {", varRef(s.Var), s.Var.Type, ref(s.Lo), ref(s.Hi), ref(s.Step), extra)+p.where(s.Pos.Line))
		p.block(depth+1, s.Body)
		p.line(depth, "}")
	case *While:
		p.line(depth, "while {"+p.where(s.Pos.Line))
		p.block(depth+1, s.Cond)
		p.line(depth, fmt.Sprintf("} do %s {", ref(s.CondValue)))
		p.block(depth+1, s.Body)
		p.line(depth, "}")
	case *If:
		p.line(depth, fmt.Sprintf("if %s {", ref(s.Cond))+p.where(s.Pos.Line))
		p.block(depth+1, s.Then)
		if s.Else != nil && len(s.Else.Stmts) > 0 {
			p.line(depth, "} else {")
			p.block(depth+1, s.Else)
		}
		p.line(depth, "}")
	case *Return:
		p.line(depth, "return"+p.where(s.Pos.Line))
	}
}

// FormatValue formats one value as Print does, without the position.
func FormatValue(v *Value) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%%%d", v.ID)
	if v.Name != "" {
		fmt.Fprintf(&b, " %s", v.Name)
	}
	if v.Type.Kind != Void {
		fmt.Fprintf(&b, ": %s", v.Type)
	} else if len(v.Types) > 0 {
		ts := make([]string, len(v.Types))
		for i, t := range v.Types {
			ts[i] = t.String()
		}
		fmt.Fprintf(&b, ": (%s)", strings.Join(ts, ", "))
	}
	b.WriteString(" = ")
	b.WriteString(v.Op.String())
	var operands []string
	switch v.Op {
	case OpConst:
		operands = append(operands, formatConst(v))
	case OpParam:
		if v.Param != nil {
			operands = append(operands, fmt.Sprint(v.Param.Index))
		}
	case OpProgramID, OpNumPrograms:
		operands = append(operands, fmt.Sprint(v.Axis))
	case OpArange:
		end := v.Const.Int
		if len(v.Type.Shape) > 0 {
			end += int64(v.Type.Shape[0])
		}
		operands = append(operands, fmt.Sprint(v.Const.Int), fmt.Sprint(end))
	case OpVarRead:
		operands = append(operands, varRef(v.Var))
	}
	for _, a := range v.Args {
		operands = append(operands, ref(a))
	}
	operands = append(operands, tileAttrs(v)...)
	if v.Msg != nil {
		operands = append(operands, fmt.Sprintf("%q", v.Msg.Text))
		if v.Msg.Hex {
			operands = append(operands, "hex")
		}
	}
	if len(v.Hints) > 0 {
		operands = append(operands, fmt.Sprint(v.Hints))
	}
	if len(operands) > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Join(operands, ", "))
	}
	if f := formatFlags(v.Flags); f != "" {
		b.WriteString(" {" + f + "}")
	}
	return b.String()
}

func formatConst(v *Value) string {
	switch {
	case v.Type.Kind.IsFloat():
		f := v.Const.Float
		switch {
		case math.IsInf(f, 1):
			return "inf"
		case math.IsInf(f, -1):
			return "-inf"
		case math.IsNaN(f):
			return "nan"
		}
		return fmt.Sprint(f)
	case v.Type.Kind == Bool:
		if v.Const.Int != 0 {
			return "true"
		}
		return "false"
	case v.Type.Kind.IsUnsigned():
		return fmt.Sprint(v.Const.Uint())
	}
	return fmt.Sprint(v.Const.Int)
}

var flagNames = []string{"propagate_nan", "rtz", "volatile", "evict_first", "evict_last", "cg", "ca", "cs", "wt", "reverse"}

func formatFlags(f Flags) string {
	var parts []string
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, ",")
}
