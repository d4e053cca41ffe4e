package sema

// This file implements the values a kernel computes with a module that
// is not Triton's, at compile time: torch.finfo(torch.float32).max,
// torch.version.hip is not None, math.sqrt(2.0). Triton's code generator
// evaluates such an expression as Python (a global that is a module may
// be read; a call of a Python function runs and its result becomes a
// constexpr), so tri computes it as it computes module-level values
// (frontend.File.Value, with its stand-ins for torch and math), when it
// reads nothing of the kernel's own.

import (
	"math"
	"math/big"
	"strings"

	"github.com/tri-lang/tri/frontend"
)

// hostConstant is the value of e, an attribute or call chain whose root
// is a module outside Triton, computed as a module-level value; false if
// e is not such a chain, reads a local of the kernel, or the value is not
// a constant tri computes (the caller then reports what it cannot do).
func (c *compiler) hostConstant(fr *frame, e frontend.Expr) (*val, bool) {
	if fr == nil {
		return nil, false
	}
	k, ok := foreignConst(c.fileOf(fr), e, func(name string) bool {
		return fr.env[name] != nil || closureFunc(fr.fn, name) != nil
	})
	if !ok {
		return nil, false
	}
	return c.expr(fr, k), true
}

// foreignConst is the module-level value of e in f when e is an attribute
// or call chain whose root names a module outside Triton and that reads
// no name for which local is true.
func foreignConst(f *frontend.File, e frontend.Expr, local func(string) bool) (*frontend.Const, bool) {
	root := chainRoot(e)
	if root == nil || local(root.ID) {
		return nil, false
	}
	sym, d := f.Lookup(root.ID)
	if d != nil || sym.Kind != frontend.SymPath {
		return nil, false
	}
	if _, foreign := foreignPath(sym.Path); !foreign {
		return nil, false
	}
	reads := false
	walkNames(e, func(n *frontend.Name) {
		if local(n.ID) {
			reads = true
		}
	})
	if reads {
		return nil, false
	}
	if k, ok := f.Value(e); ok {
		return k, true
	}
	return torchConst(e, sym.Path)
}

// torchConst is the value of torch.version.hip (None: tri compiles for
// NVIDIA GPUs) and of torch.finfo(torch.T).attr and torch.iinfo(torch.T).attr,
// torch's numbers for its dtypes (the host stand-in in package autotune
// answers host code with the same), where e is one of those and root the
// path its first name stands for.
func torchConst(e frontend.Expr, root string) (*frontend.Const, bool) {
	a, ok := e.(*frontend.Attribute)
	if !ok || root != "torch" {
		return nil, false
	}
	at := frontend.At{Pos: e.Position()}
	if dottedPath(a) == "torch.version.hip" {
		return &frontend.Const{At: at, Kind: frontend.ConstNone}, true
	}
	call, ok := a.X.(*frontend.Call)
	if !ok || len(call.Args) != 1 || len(call.Keywords) != 0 {
		return nil, false
	}
	fn, dt := dottedPath(call.Func), strings.TrimPrefix(dottedPath(call.Args[0]), "torch.")
	switch fn {
	case "torch.finfo":
		info, ok := torchFinfo[dt]
		if !ok {
			return nil, false
		}
		v, ok := map[string]float64{"max": info[0], "min": -info[0], "eps": info[1], "tiny": info[2], "smallest_normal": info[2]}[a.Name]
		if !ok {
			return nil, false
		}
		return &frontend.Const{At: at, Kind: frontend.ConstFloat, Float: v}, true
	case "torch.iinfo":
		bits, ok := torchIinfo[dt]
		if !ok {
			return nil, false
		}
		lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), bits)
		if dt[0] != 'u' {
			hi.Rsh(hi, 1)
			lo.Neg(hi)
		}
		hi.Sub(hi, big.NewInt(1))
		v, ok := map[string]*big.Int{"max": hi, "min": lo, "bits": big.NewInt(int64(bits))}[a.Name]
		if !ok {
			return nil, false
		}
		return &frontend.Const{At: at, Kind: frontend.ConstInt, Int: v}, true
	}
	return nil, false
}

// torchFinfo holds torch.finfo's max, eps and tiny of each floating dtype.
var torchFinfo = map[string][3]float64{
	"float16":       {65504, 0x1p-10, 0x1p-14},
	"half":          {65504, 0x1p-10, 0x1p-14},
	"bfloat16":      {0x1.fep127, 0x1p-7, 0x1p-126},
	"float32":       {math.MaxFloat32, 0x1p-23, 0x1p-126},
	"float":         {math.MaxFloat32, 0x1p-23, 0x1p-126},
	"float64":       {math.MaxFloat64, 0x1p-52, 0x1p-1022},
	"double":        {math.MaxFloat64, 0x1p-52, 0x1p-1022},
	"float8_e4m3fn": {448, 0x1p-3, 0x1p-6},
	"float8_e5m2":   {57344, 0x1p-2, 0x1p-14},
}

// torchIinfo holds the width of each integer dtype.
var torchIinfo = map[string]uint{
	"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
}

// dottedPath is a.b.c for a chain of attributes over a name, else "".
func dottedPath(e frontend.Expr) string {
	switch x := e.(type) {
	case *frontend.Name:
		return x.ID
	case *frontend.Attribute:
		if p := dottedPath(x.X); p != "" {
			return p + "." + x.Name
		}
	}
	return ""
}

// chainRoot is the name an attribute or call chain starts from
// (torch in torch.finfo(torch.float32).max), or nil.
func chainRoot(e frontend.Expr) *frontend.Name {
	for {
		switch x := e.(type) {
		case *frontend.Name:
			return x
		case *frontend.Attribute:
			e = x.X
		case *frontend.Call:
			e = x.Func
		default:
			return nil
		}
	}
}

// walkNames calls f on every name that e reads, in the operands of an
// attribute or call chain.
func walkNames(e frontend.Expr, f func(*frontend.Name)) {
	switch x := e.(type) {
	case *frontend.Name:
		f(x)
	case *frontend.Attribute:
		walkNames(x.X, f)
	case *frontend.Call:
		walkNames(x.Func, f)
		for _, a := range x.Args {
			walkNames(a, f)
		}
		for _, k := range x.Keywords {
			walkNames(k.Value, f)
		}
	case *frontend.Binary:
		walkNames(x.X, f)
		walkNames(x.Y, f)
	case *frontend.Unary:
		walkNames(x.X, f)
	case *frontend.Tuple:
		for _, a := range x.Elts {
			walkNames(a, f)
		}
	case *frontend.List:
		for _, a := range x.Elts {
			walkNames(a, f)
		}
	case *frontend.Subscript:
		walkNames(x.X, f)
		walkNames(x.Index, f)
	}
}
