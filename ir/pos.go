package ir

// This file implements Pos, the source position every node carries.

import "fmt"

// Pos is a 1-based source position. It has the fields of diag.Pos, so the
// two convert to each other (diag.Pos(p), ir.Pos(p)) where a position
// crosses from the IR to a diagnostic; ir itself depends on no other
// package of tri.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, leaving out what is unknown.
func (p Pos) String() string {
	switch {
	case !p.IsValid():
		return p.File
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}
