package launch

// This file implements the module-level names that a kernel's parameter
// defaults read (GATHER: tl.constexpr = IS_GATHER_SUPPORTED) when they are
// not literal globals of the kernel's file: names imported from the
// project's other modules, values computed at import.

import "github.com/tri-lang/tri/frontend"

// KernelGlobals returns the module-level globals that the evaluation of
// fn's launch sees (hosteval.Env.UseGlobals): sf's literal and constexpr
// globals, then those that fn's parameter defaults read from elsewhere.
// A nil sf or fn contributes none.
func KernelGlobals(sf *SourceFile, fn *frontend.Func) []*frontend.Global {
	if sf == nil || sf.File == nil || fn == nil {
		return nil
	}
	return append(append([]*frontend.Global(nil), sf.File.Globals...), defaultGlobals(fn)...)
}

// defaultGlobals returns globals holding the constants that Python
// computes for the module-level names fn's defaults read, where the
// frontend can compute them (File.Value); the launch's evaluation of
// defaults sees them after the file's own literal globals.
func defaultGlobals(fn *frontend.Func) []*frontend.Global {
	if fn.File == nil {
		return nil
	}
	own := map[string]bool{}
	for _, g := range fn.File.Globals {
		own[g.Name] = true
	}
	var out []*frontend.Global
	seen := map[string]bool{}
	for _, p := range fn.Params {
		for _, n := range readNames(p.Default) {
			if own[n.ID] || seen[n.ID] {
				continue
			}
			seen[n.ID] = true
			s, d := fn.File.Lookup(n.ID)
			if d != nil || s.Kind != frontend.SymGlobal {
				continue
			}
			if k, ok := s.File.Value(s.Global.Value); ok {
				out = append(out, &frontend.Global{Name: n.ID, Pos: s.Pos, Value: k, Constexpr: s.Global.Constexpr})
			}
		}
	}
	return out
}

// readNames lists the names an expression reads (not attribute names).
func readNames(e frontend.Expr) []*frontend.Name {
	var out []*frontend.Name
	var walk func(frontend.Expr)
	walk = func(e frontend.Expr) {
		switch e := e.(type) {
		case *frontend.Name:
			out = append(out, e)
		case *frontend.Attribute:
			walk(e.X)
		case *frontend.Unary:
			walk(e.X)
		case *frontend.Binary:
			walk(e.X)
			walk(e.Y)
		case *frontend.BoolOp:
			for _, x := range e.Values {
				walk(x)
			}
		case *frontend.Compare:
			walk(e.Left)
			for _, x := range e.Rights {
				walk(x)
			}
		case *frontend.IfExp:
			walk(e.Cond)
			walk(e.Then)
			walk(e.Else)
		case *frontend.Call:
			walk(e.Func)
			for _, x := range e.Args {
				walk(x)
			}
		case *frontend.Tuple:
			for _, x := range e.Elts {
				walk(x)
			}
		}
	}
	walk(e)
	return out
}
