package cudagen

// This file implements DumpLayouts, behind --dump=layout.

import (
	"fmt"
	"io"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// DumpLayouts describes the layout chosen for every value, next to its
// source line (for --dump=layout): the layouts of the kernel, then each
// tile value with its type, layout and, for loads and stores, the width of
// its accesses.
func DumpLayouts(w io.Writer, k *ir.Kernel) error {
	p, err := newPlan(k)
	if err != nil {
		return err
	}
	e := newEmitter(p, Options{})
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s: %d threads per program (num_warps=%d)\n", k.Name, 32*p.numWarps, p.numWarps)
	for _, l := range p.layouts {
		fmt.Fprintf(&b, "#%s = %s for [%d] tiles: %s\n", l.Tag, l.Layout, l.N, l.describe())
	}
	lastLine := 0
	p.forEachValue(k.Body, func(v *ir.Value) {
		tile := v
		if v.Op == ir.OpStore {
			tile = v.Args[0]
		}
		if tile.Type.IsScalar() {
			return
		}
		if v.Pos.Line != lastLine && v.Pos.IsValid() {
			lastLine = v.Pos.Line
			text := ""
			if v.Pos.Line <= len(e.lines) {
				text = strings.TrimSpace(e.lines[v.Pos.Line-1])
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", k.File, v.Pos.Line, text)
		}
		name := e.names[v.ID]
		if name == "" {
			name = "(" + v.Op.String() + ")"
		}
		fmt.Fprintf(&b, "    %-16s %-12s #%s", name, v.Type, p.layoutOf(tile).Tag)
		if a, ok := accessOf(v); ok {
			if wd := p.vectorWidth(a); wd > 1 {
				fmt.Fprintf(&b, "  %s of %d-byte vectors", v.Op, wd*a.Bytes)
			} else {
				fmt.Fprintf(&b, "  %s element by element", v.Op)
			}
		}
		b.WriteString("\n")
	})
	_, err = io.WriteString(w, b.String())
	return err
}
