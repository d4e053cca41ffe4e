package ir

// This file implements IssueLoadsEarly, which moves the load of a dot's
// operand above the dot before it in a loop body.
//
// Flash attention's inner loop reads k, computes qk = tl.dot(q, k), runs
// the online softmax on qk, then reads v for tl.dot(p, v, acc). Where the
// loop is not software-pipelined (num_stages=1, or a loop the pipeliner
// refuses), each statement is printed where it stands, and the dot before
// the load of v waits for its tensor cores with an asm statement that
// ptxas does not move loads across: the load of v then starts only after
// the first dot is done, and its whole latency from global memory is
// exposed once per iteration. Issued before the first dot, it runs under
// that dot and the softmax, as Triton's code issues it. On an H200 that
// took the attention sample at num_stages=1 from 0.88 of Triton's speed to
// 1.02-1.05.
//
// A load moves when dots are all that read it and the statements between
// the dot before it and the load neither write memory nor change control
// flow; the pure address arithmetic it needs from those statements moves
// with it, in order. Nothing that reads a Var assigned in between moves.
// Semantics are unchanged: a load reads the same memory anywhere in a run
// of statements that write none.

// IssueLoadsEarly moves, in every loop body of k, each load that only dots
// read above the dot before it, where that is allowed (see above).
func IssueLoadsEarly(k *Kernel) {
	others := map[*Value]bool{} // values something other than a dot reads
	var count func(b *Block)
	count = func(b *Block) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *Value:
				if s.Op != OpDot {
					for _, a := range s.Args {
						others[a] = true
					}
				}
				if s.Desc != nil {
					for _, a := range s.Desc.Scalars() {
						others[a] = true
					}
				}
			case *Assign:
				others[s.Value] = true
			case *For:
				others[s.Lo], others[s.Hi], others[s.Step] = true, true, true
				count(s.Body)
			case *While:
				others[s.CondValue] = true
				count(s.Cond)
				count(s.Body)
			case *If:
				others[s.Cond] = true
				count(s.Then)
				count(s.Else)
			}
		}
	}
	count(k.Body)
	var walk func(b *Block, loop bool)
	walk = func(b *Block, loop bool) {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *For:
				walk(s.Body, true)
			case *While:
				walk(s.Cond, false)
				walk(s.Body, true)
			case *If:
				walk(s.Then, loop)
				walk(s.Else, loop)
			}
		}
		if loop {
			loadsEarly(b, others)
		}
	}
	walk(k.Body, false)
}

// loadsEarly moves the loads of body b that only dots read (others holds
// the values something else reads) above the dot before each.
func loadsEarly(b *Block, others map[*Value]bool) {
	for j := 0; j < len(b.Stmts); j++ {
		ld, ok := b.Stmts[j].(*Value)
		if !ok || ld.Op != OpLoad || ld.Flags&FlagVolatile != 0 || others[ld] {
			continue
		}
		d := dotBefore(b.Stmts, j)
		if d < 0 {
			continue
		}
		cone, ok := loadCone(b.Stmts, d, j)
		if !ok {
			continue
		}
		var out []Stmt
		out = append(out, b.Stmts[:d]...)
		for i := d + 1; i < j; i++ {
			if cone[i] {
				out = append(out, b.Stmts[i])
			}
		}
		out = append(out, ld)
		for i := d; i < j; i++ {
			if !cone[i] {
				out = append(out, b.Stmts[i])
			}
		}
		b.Stmts = append(out, b.Stmts[j+1:]...)
	}
}

// dotBefore is the index of the dot nearest before stmts[j] with nothing
// between them that writes memory or changes control flow, or -1.
func dotBefore(stmts []Stmt, j int) int {
	for i := j - 1; i >= 0; i-- {
		switch s := stmts[i].(type) {
		case *Assign:
		case *Value:
			if s.Op == OpDot {
				return i
			}
			if effect(s) {
				return -1
			}
		default:
			return -1
		}
	}
	return -1
}

// effect reports whether v writes memory or has another effect a load may
// not move across: stores, atomics, inline assembly, prints, asserts and
// barriers (every value of no result but a dot's), and volatile loads.
func effect(v *Value) bool {
	switch v.Op.Info().Class {
	case ClassAtomic, ClassInlineAsm:
		return true
	}
	return v.Type.Kind == Void || v.Op == OpLoad && v.Flags&FlagVolatile != 0
}

// loadCone marks the statements between the dot stmts[d] and the load
// stmts[j] that the load reads, directly or through others; ok is false
// where one of them cannot move above the dot: it is not pure arithmetic,
// it is the dot, or it reads a Var assigned between the dot and the load.
func loadCone(stmts []Stmt, d, j int) (cone map[int]bool, ok bool) {
	at := map[*Value]int{}
	assigned := map[*Var]bool{}
	for i := d; i < j; i++ {
		switch s := stmts[i].(type) {
		case *Value:
			at[s] = i
		case *Assign:
			assigned[s.Var] = true
		}
	}
	cone = map[int]bool{}
	ok = true
	var need func(v *Value)
	need = func(v *Value) {
		i, inside := at[v]
		if v == nil || !inside || cone[i] || !ok {
			return
		}
		if i == d || !IsPure(v) || v.Op == OpVarRead && assigned[v.Var] {
			ok = false
			return
		}
		cone[i] = true
		for _, a := range v.Args {
			need(a)
		}
	}
	ld := stmts[j].(*Value)
	for _, a := range ld.Args {
		need(a)
	}
	if ld.Desc != nil {
		for _, a := range ld.Desc.Scalars() {
			need(a)
		}
	}
	return cone, ok
}
