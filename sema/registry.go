package sema

// This file implements the tables of names kernels can reach through
// triton, triton.language (tl) and Python's builtins.

import (
	"sort"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// builtin is a function implemented by sema.
type builtin struct {
	params   []string
	required int
	fn       func(c *compiler, a *args) *val
}

// builtins maps full paths ("triton.language.load", "min") to their
// implementations. Filled in init to break the initialization cycle through
// compiler methods.
var builtins map[string]*builtin

// members maps tensor member functions (x.to(...)) to the builtin they call
// with the tensor as first argument.
var members = map[string]string{
	"to": "triton.language.cast", "cast": "triton.language.cast", "exp": "triton.language.exp", "exp2": "triton.language.exp2",
	"log": "triton.language.log", "log2": "triton.language.log2", "sqrt": "triton.language.sqrt",
	"rsqrt": "triton.language.rsqrt", "abs": "triton.language.abs", "sin": "triton.language.sin",
	"cos": "triton.language.cos", "floor": "triton.language.floor", "ceil": "triton.language.ceil",
	"sigmoid": "triton.language.sigmoid", "cdiv": "triton.language.cdiv",
	"expand_dims": "triton.language.expand_dims", "broadcast_to": "triton.language.broadcast_to",
	"sum": "triton.language.sum", "max": "triton.language.max", "min": "triton.language.min",
	"argmax": "triton.language.argmax", "argmin": "triton.language.argmin",
	"reshape": "triton.language.reshape", "trans": "triton.language.trans", "permute": "triton.language.permute",
	"split": "triton.language.split", "view": "triton.language.view", "ravel": "triton.language.ravel",
	"softmax": "triton.language.softmax", "cumsum": "triton.language.cumsum", "reduce": "triton.language.reduce", "item": "triton.language.tensor.item",
	"erf": "triton.language.erf", "logical_and": "triton.language.logical_and", "logical_or": "triton.language.logical_or",
	"xor_sum": "triton.language.xor_sum", "reduce_or": "triton.language.reduce_or", "cumprod": "triton.language.cumprod", "associative_scan": "triton.language.associative_scan",
	"join": "triton.language.join", "atomic_add": "triton.language.atomic_add", "atomic_max": "triton.language.atomic_max",
	"atomic_min": "triton.language.atomic_min", "atomic_and": "triton.language.atomic_and", "atomic_or": "triton.language.atomic_or",
	"atomic_xor": "triton.language.atomic_xor", "atomic_xchg": "triton.language.atomic_xchg", "atomic_cas": "triton.language.atomic_cas",
	// Tile operations (tileops.go).
	"flip": "triton.language.flip", "histogram": "triton.language.histogram", "gather": "triton.language.gather",
	// Block pointers (blockptr.go).
	"advance": "triton.language.advance",
}

// modules are the module paths a name can stand for.
var modules = map[string]bool{
	"triton": true, "triton.language": true, "triton.language.extra": true,
	"triton.language.extra.libdevice": true, "triton.language.PropagateNan": true,
	"triton.language.math": true, "triton.language.core": true, "triton.language.standard": true,
	"triton.language.extra.cuda": true, "triton.language.random": true,
	"triton.language.target_info": true, // targetinfo.go
}

// unsupportedNames are triton.language names tri knows but does not
// implement yet.
var unsupportedNames = map[string]bool{
	"dot_scaled": true,
	"zeros_like": false, "extra": false,
	"clamp": false, "range": false,
	"static_assert": false,
}

// pyDtypes are the dtype names triton.language defines.
var pyDtypes = map[string]ir.DType{
	"int1": ir.TBool, "int8": ir.TInt8, "int16": ir.TInt16, "int32": ir.TInt32, "int64": ir.TInt64,
	"uint8": ir.TUint8, "uint16": ir.TUint16, "uint32": ir.TUint32, "uint64": ir.TUint64,
	"float16": ir.TFloat16, "bfloat16": ir.TBF16, "float32": ir.TFloat32, "float64": ir.TFloat64,
	// fp8 storage types (ir/fp8.go).
	"float8e4nv": ir.Scalar(ir.Float8E4NV), "float8e5": ir.Scalar(ir.Float8E5), "float8e4b15": ir.Scalar(ir.Float8E4B15),
	"float8e4b8": ir.Scalar(ir.Float8E4B8), "float8e5b16": ir.Scalar(ir.Float8E5B16),
}

// torchReexports are the modules of Triton's that PyTorch's Inductor
// binds in torch/_inductor/runtime/triton_helpers.py (from
// triton.language.extra import libdevice; math = tl.math), which kernels
// import from there (tritonbench's gdpa and welford operators).
var torchReexports = [][2]string{
	{"torch._inductor.runtime.triton_helpers.libdevice", "triton.language.extra.libdevice"},
	{"torch._inductor.runtime.triton_helpers.math", "triton.language.math"},
}

// normalizePath maps submodule spellings to the flat triton.language names
// (tl.math.exp is tl.exp).
func normalizePath(p string) string {
	if strings.HasPrefix(p, "triton.language.standard._") {
		return p // a private name of tl.standard is not one of tl's
	}
	for _, r := range torchReexports {
		if p == r[0] || strings.HasPrefix(p, r[0]+".") {
			p = r[1] + p[len(r[0]):]
		}
	}
	for _, sub := range []string{"math.", "core.", "standard.", "semantic.", "random."} {
		if strings.HasPrefix(p, "triton.language."+sub) {
			return "triton.language." + strings.TrimPrefix(p, "triton.language."+sub)
		}
	}
	if strings.HasPrefix(p, "triton.language.extra.cuda.libdevice") {
		return "triton.language.extra.libdevice" + strings.TrimPrefix(p, "triton.language.extra.cuda.libdevice")
	}
	return p
}

func dtypeByPath(p string) (ir.DType, bool) {
	name, ok := strings.CutPrefix(p, "triton.language.")
	if !ok {
		return ir.DType{}, false
	}
	if d, ok := pointerAliases[name]; ok {
		return d, true
	}
	d, ok := pyDtypes[name]
	return d, ok
}

// unsupported reports whether p is a known name tri does not implement.
func unsupported(p string) bool {
	name, ok := strings.CutPrefix(p, "triton.language.")
	return ok && unsupportedNames[name]
}

// memberNames lists the names under a module path, for suggestions.
func memberNames(parent string) []string {
	var out []string
	prefix := parent + "."
	for p := range builtins {
		if rest, ok := strings.CutPrefix(p, prefix); ok && !strings.Contains(rest, ".") {
			out = append(out, rest)
		}
	}
	if parent == "triton.language" {
		for n, ok := range unsupportedNames {
			if ok {
				out = append(out, n)
			}
		}
		for n := range pyDtypes {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// suggestMember returns the member of the module parent that name was
// likely meant to be, or "". Under tl, a dtype spelled as Triton's
// signatures, numpy or torch spell it (fp32, i32, bf16, half), or as MLIR
// and so Triton's IR dumps do (f32, f16), is the tl dtype it names, however
// far its letters are from that name's.
func suggestMember(parent, name string) string {
	if parent == "triton.language" {
		mlir := name
		if rest, ok := strings.CutPrefix(name, "f"); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			mlir = "fp" + rest
		}
		if d, ok := ir.ParseDType(mlir); ok && !d.IsPtr() {
			return d.PyName()
		}
	}
	return suggest(name, memberNames(parent))
}

func sortedJoin(names []string) string {
	sort.Strings(names)
	return strings.Join(names, ", ")
}
