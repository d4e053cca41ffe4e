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
// its accesses; values whose operand changes layout through shared memory
// are marked, and the last line counts them.
func DumpLayouts(w io.Writer, k *ir.Kernel, arch string) error {
	if w == nil || k == nil || k.Body == nil {
		return fmt.Errorf("cudagen.DumpLayouts: want a writer and a kernel with a body (one is nil)")
	}
	p, err := newPlan(k, arch, Options{}.tma())
	if err != nil {
		return err
	}
	e := newEmitter(p, Options{})
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s: %d threads per program (num_warps=%d)\n", k.Name, 32*p.numWarps, p.numWarps)
	for _, l := range p.layouts {
		fmt.Fprintf(&b, "#%s = %s for %s tiles: %s\n", l.Tag, l.Layout, ints(l.Shape), l.describe())
	}
	lastLine, conversions := 0, 0
	for _, t := range p.tiles(e) {
		if t.Pos.Line != lastLine && t.Pos.IsValid() {
			lastLine = t.Pos.Line
			text := ""
			if t.Pos.Line <= len(e.lines) {
				text = strings.TrimSpace(e.lines[t.Pos.Line-1])
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", k.File, t.Pos.Line, text)
		}
		tag := "scalar"
		if t.Layout != "" {
			tag = "#" + t.Layout
		}
		if t.Converted {
			conversions++
		}
		fmt.Fprintf(&b, "    %-16s %-12s %s%s\n", t.Name, t.Type, tag, t.Notes)
	}
	fmt.Fprintf(&b, "%d layout conversion(s) through shared memory\n", conversions)
	_, err = io.WriteString(w, b.String())
	return err
}
