package cudagen

// This file exports, to the tests of package cudagen_test only, what
// they check of the emitter's inner workings.

import "github.com/tri-lang/tri/ir"

// ScratchUse is one printed statement's planned scratch shared memory
// next to what its printers reserved while printing it.
type ScratchUse struct {
	Pos              ir.Pos
	What             string // the statement's kind: the op of a value, for, while or if
	Planned, Printed int
	// PlannedAligned and PrintedAligned, on the kernel's record alone,
	// are whether the plan and the printers put the scratch's start at a
	// 1024-byte boundary.
	PlannedAligned, PrintedAligned bool
}

// GenerateScratch generates k as Generate does and returns the scratch
// shared memory of every statement it printed.
func GenerateScratch(k *ir.Kernel, opt Options) ([]ScratchUse, error) {
	_, uses, err := generate(k, opt, true)
	var out []ScratchUse
	for _, u := range uses {
		if u.stmt == nil {
			out = append(out, ScratchUse{Pos: ir.Pos{File: k.File}, What: "kernel", Planned: u.planned, Printed: u.printed,
				PlannedAligned: u.alignedPlanned, PrintedAligned: u.alignedPrinted})
			continue
		}
		what := ""
		switch s := u.stmt.(type) {
		case *ir.Value:
			what = s.Op.String()
		case *ir.For:
			what = "for"
		case *ir.While:
			what = "while"
		case *ir.If:
			what = "if"
		case *ir.Return:
			what = "return"
		}
		out = append(out, ScratchUse{Pos: u.stmt.Position(), What: what, Planned: u.planned, Printed: u.printed})
	}
	return out, err
}
