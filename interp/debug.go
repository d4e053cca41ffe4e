package interp

// This file implements OpPrint and OpAssert. A print writes one line per
// element of each printed value, in row-major order, formatted by the
// printf format ir.PrintFormat gives (the format of Triton's GPU lines);
// cprintf below implements the few conversions those formats use, with C's
// meaning. Programs run in parallel, so each program's lines are kept until
// every lower-numbered program has finished: the output is in program
// order, and within a program in the order of its prints. An assertion
// that fails in any lane stops the program with an error naming the
// message, the program and the first failing element.

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// output orders the lines the programs of one Run print.
type output struct {
	next    int64            // the lowest program whose lines are not written yet
	pending map[int64][]byte // finished programs above next, by index
}

// hasPrint reports whether k prints anything.
func hasPrint(k *ir.Kernel) bool {
	found := false
	ir.Inspect(k.Body, func(v *ir.Value) { found = found || v.Op == ir.OpPrint })
	return found
}

// printed hands over the lines of program i (possibly none) and writes
// those whose turn has come.
func (m *machine) printed(i int64, p *program) {
	if m.stdout == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.out.pending[i] = bytes.Clone(p.out.Bytes())
	p.out.Reset()
	for {
		b, ok := m.out.pending[m.out.next]
		if !ok {
			return
		}
		_, _ = m.stdout.Write(b)
		delete(m.out.pending, m.out.next)
		m.out.next++
	}
}

// print runs an OpPrint.
func (p *program) print(v *ir.Value, args []*tile) {
	pid := []any{uint32(p.pid[0]), uint32(p.pid[1]), uint32(p.pid[2])}
	if len(args) == 0 {
		p.out.WriteString(cprintf(ir.PrintBareFormat(v.Msg.Text), pid))
		return
	}
	for n, t := range args {
		format := ir.PrintFormat(v.Msg.Text, v.Args[n].Type, n, len(args), v.Msg.Hex)
		shape := v.Args[n].Type.Shape
		for i := range t.len() {
			vals := append([]any{}, pid...)
			rest := i
			idx := make([]any, len(shape))
			for a := len(shape) - 1; a >= 0; a-- {
				idx[a] = uint32(rest % shape[a])
				rest /= shape[a]
			}
			vals = append(vals, idx...)
			vals = append(vals, printArg(t, i, v.Msg.Hex))
			p.out.WriteString(cprintf(format, vals))
		}
	}
}

// printArg is element i of t as the printf argument the GPU passes: floats
// widened to double (their bits, in their own width, with hex), integers
// of 32 bits or fewer widened to 32 bits by their signedness.
func printArg(t *tile, i int, hex bool) any {
	k := t.kind
	switch {
	case k.IsFloat() && hex:
		return floatBits(k, t.flts[i])
	case k.IsFloat():
		return t.flts[i]
	case k == ir.Ptr:
		return pointer(t.ints[i])
	case k.Bits() == 64:
		if k.IsSigned() {
			return t.ints[i]
		}
		return uint64(t.ints[i])
	case k.IsSigned():
		return int32(t.ints[i])
	}
	return uint32(t.ints[i])
}

// pointer is an address printed with %p.
type pointer int64

// assert runs an OpAssert.
func (p *program) assert(v *ir.Value, cond *tile) error {
	for i, x := range cond.ints {
		if x == 0 {
			where := ""
			if len(cond.shape) > 0 {
				where = " at index " + laneString(cond.shape, i)
			}
			msg := ""
			if v.Msg.Text != "" {
				msg = ": " + v.Msg.Text
			}
			return p.errorf(v.Pos, diag.CodeRuntime, "assertion failed%s%s", where, msg)
		}
	}
	return nil
}

// cprintf formats args as C's printf does for the conversions of
// ir.PrintFormat: %u, %i, %lli, %llu and %x with flags 0 and a width, %f,
// %p and %%. Arguments are uint32, int32, int64, uint64, float64 or
// pointer values, consumed in order.
func cprintf(format string, args []any) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		zero := false
		for i < len(format) && format[i] == '0' {
			zero = true
			i++
		}
		width := 0
		for i < len(format) && format[i] >= '1' && format[i] <= '9' || width > 0 && i < len(format) && format[i] == '0' {
			width = width*10 + int(format[i]-'0')
			i++
		}
		for i < len(format) && format[i] == 'l' {
			i++
		}
		if i >= len(format) || len(args) == 0 {
			break
		}
		s := convert(format[i], args[0])
		args = args[1:]
		if pad := width - len(s); pad > 0 {
			if zero && format[i] != 'p' && format[i] != 'f' {
				s = strings.Repeat("0", pad) + s
			} else {
				s = strings.Repeat(" ", pad) + s
			}
		}
		b.WriteString(s)
	}
	return b.String()
}

// convert formats one argument with conversion c.
func convert(c byte, a any) string {
	switch x := a.(type) {
	case float64:
		switch {
		case math.IsNaN(x) && math.Signbit(x):
			return "-nan"
		case math.IsNaN(x):
			return "nan"
		case math.IsInf(x, 1):
			return "inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		return strconv.FormatFloat(x, 'f', 6, 64)
	case pointer:
		if x == 0 {
			return "(nil)"
		}
		return "0x" + strconv.FormatUint(uint64(x), 16)
	case int32:
		if c == 'x' {
			return strconv.FormatUint(uint64(uint32(x)), 16)
		}
		return strconv.FormatInt(int64(x), 10)
	case uint32:
		if c == 'x' {
			return strconv.FormatUint(uint64(x), 16)
		}
		return strconv.FormatUint(uint64(x), 10)
	case int64:
		if c == 'x' {
			return strconv.FormatUint(uint64(x), 16)
		}
		return strconv.FormatInt(x, 10)
	case uint64:
		if c == 'x' {
			return strconv.FormatUint(x, 16)
		}
		return strconv.FormatUint(x, 10)
	}
	return fmt.Sprint(a)
}
