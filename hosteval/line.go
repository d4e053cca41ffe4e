package hosteval

// This file implements parsing of launch lines:
// kernel[GRID](args..., META=value, num_warps=4, num_stages=3).

import (
	"sort"
	"strings"

	"github.com/tri-lang/tri/frontend"
)

// LaunchSource is the source name of launch lines in error positions.
const LaunchSource = "launch"

// Launch is a parsed launch line: kernel[GRID](args..., META=value,
// num_warps=4, num_stages=3).
type Launch struct {
	Kernel string
	// Grid is a tuple, a lambda meta: (...), or a name bound by --let.
	Grid frontend.Expr
	// Args are the positional arguments.
	Args []frontend.Expr
	// Kwargs are the keyword arguments other than integer-literal
	// num_warps/num_stages: meta-parameters, or parameters by name.
	Kwargs []*frontend.Keyword
	// Unpack are the dicts given as **d, in order; Env.ExpandKwargs turns
	// their keys into Kwargs once the names they use are bound.
	Unpack []frontend.Expr
	// NumWarps and NumStages are the launch options given as integer
	// literals; 0 if absent (or given as an expression, which stays in
	// Kwargs and is evaluated by bind.Args).
	NumWarps, NumStages int
	// Src is the text, for error rendering (source name "launch").
	Src string
	// EndCol is the column of the closing parenthesis, where errors about
	// missing arguments are placed.
	EndCol int
}

// ParseLaunch parses a launch line. Errors are diagnostics placed in the
// text under the source name "launch" (launch:1:14: ...).
func ParseLaunch(src string) (_ *Launch, err error) {
	defer AttachSource(&err, LaunchSource, src)
	x, err := ParseExpr(LaunchSource, src)
	if err != nil {
		return nil, err
	}
	shape := "a launch is written kernel[grid](args...), as in Python"
	call, ok := x.(*frontend.Call)
	if !ok {
		return nil, Usage(ErrAt(LaunchSource, col(x), shape))
	}
	sub, ok := call.Func.(*frontend.Subscript)
	if !ok {
		return nil, Usage(ErrAt(LaunchSource, col(call.Func), "missing the grid: "+shape))
	}
	name, ok := sub.X.(*frontend.Name)
	if !ok {
		return nil, Usage(ErrAt(LaunchSource, col(sub.X), "the kernel must be named by a plain name: "+shape))
	}
	if _, ok := sub.Index.(*frontend.Slice); ok {
		return nil, Usage(ErrAt(LaunchSource, col(sub.Index), "the grid must be a tuple, a lambda or a name, not a slice"))
	}
	l := &Launch{Kernel: name.ID, Grid: sub.Index, Src: src}
	l.EndCol = strings.LastIndexByte(strings.TrimRight(src, " \t\r\n"), ')') + 1
	for _, a := range call.Args {
		if b, ok := a.(*frontend.BadExpr); ok && b.Unpacked != nil {
			l.Unpack = append(l.Unpack, b.Unpacked)
			continue
		}
		if s, ok := a.(*frontend.Starred); ok {
			return nil, Usage(ErrAt(LaunchSource, col(s), "*args is not supported in a launch line; list the arguments"))
		}
		l.Args = append(l.Args, a)
	}
	seen := map[string]bool{}
	for _, kw := range call.Keywords {
		if kw.Name == "" {
			l.Unpack = append(l.Unpack, kw.Value)
			continue
		}
		if seen[kw.Name] {
			return nil, Usage(ErrAt(LaunchSource, kw.Pos.Col, "keyword argument '"+kw.Name+"' repeated"))
		}
		seen[kw.Name] = true
		if kw.Name == "num_warps" || kw.Name == "num_stages" {
			if c, ok := kw.Value.(*frontend.Const); ok {
				if c.Kind != frontend.ConstInt || !c.Int.IsInt64() || c.Int.Int64() < 1 || c.Int.Int64() > 64 {
					return nil, Usage(ErrAt(LaunchSource, col(c), kw.Name+" must be a positive integer"))
				}
				n := int(c.Int.Int64())
				if kw.Name == "num_warps" {
					if n&(n-1) != 0 || n > 32 {
						return nil, Usage(ErrAt(LaunchSource, col(c), "num_warps must be a power of two from 1 to 32"))
					}
					l.NumWarps = n
				} else {
					l.NumStages = n
				}
				continue
			}
		}
		l.Kwargs = append(l.Kwargs, kw)
	}
	return l, nil
}

// col is the column of x's position (1 if it has none).
func col(x frontend.Node) int {
	if p := x.Position(); p.Col > 0 {
		return p.Col
	}
	return 1
}

// ExpandKwargs evaluates the dicts a launch line unpacks (**extra_kern_args,
// as tutorial 06 passes its launch options) and adds their keys to
// l.Kwargs, each as d['key'], so that errors point at the dict.
func (e *Env) ExpandKwargs(l *Launch) (err error) {
	if l == nil {
		return errNoLaunch
	}
	defer AttachSource(&err, LaunchSource, l.Src)
	seen := map[string]bool{}
	for _, kw := range l.Kwargs {
		seen[kw.Name] = true
	}
	if l.NumWarps > 0 {
		seen["num_warps"] = true
	}
	if l.NumStages > 0 {
		seen["num_stages"] = true
	}
	for _, x := range l.Unpack {
		v, err := e.Eval(x, nil)
		if err != nil {
			return err
		}
		if v.Kind != VDict || v.Str != "" {
			return Errf(x, "** needs a dict of keyword arguments, not %s", v.Describe())
		}
		keys := make([]string, 0, len(v.Dict))
		for k := range v.Dict {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if seen[k] {
				return Errf(x, "got multiple values for keyword argument '%s'", k)
			}
			seen[k] = true
			at := frontend.At{Pos: x.Position()}
			l.Kwargs = append(l.Kwargs, &frontend.Keyword{Pos: x.Position(), Name: k,
				Value: &frontend.Subscript{At: at, X: x, Index: &frontend.Const{At: at, Kind: frontend.ConstStr, Str: k}}})
		}
	}
	l.Unpack = nil
	return nil
}
