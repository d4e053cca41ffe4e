package sema

// This file implements Names, the op table read as a language reference:
// every name a kernel can reach under triton, triton.language and
// Python's builtins, whether tri compiles it, and how it differs from
// Triton. docs/LANGUAGE.md is generated from it (internal/langdoc), so the
// reference cannot drift from what sema accepts.

import (
	"slices"
	"sort"
	"strings"
)

//go:generate go run ../internal/langdoc -o ../docs/LANGUAGE.md

// Name is one name of the language tri compiles.
type Name struct {
	// Path is the name as a kernel writes it: "tl.load",
	// "tl.extra.libdevice.asin", "triton.cdiv", "min" (a Python builtin),
	// "x.sum" (a tensor method), "desc.load" (a tensor descriptor's).
	Path string
	// Kind is "function", "method", "dtype", "constant" or "module".
	Kind string
	// Params are a function's parameters, Required of them without a
	// default; a method's are those of the function it calls (Same).
	Params   []string
	Required int
	// Same is the function a method calls with its tensor first.
	Same string
	// Supported is false for a name tri knows but does not compile (using
	// it is a placed error).
	Supported bool
	// Differs says how tri's version differs from Triton's, or what tri
	// does with an argument Triton uses; "" where they behave alike.
	Differs string
}

// Names returns every name of the op table, sorted by Path.
func Names() []Name {
	var out []Name
	for p, b := range builtins {
		n := Name{Path: docPath(p), Kind: "function", Params: b.params, Required: b.required, Supported: true, Differs: differences[p]}
		if rest, ok := strings.CutPrefix(p, "triton.language.tensor_descriptor."); ok && len(b.params) > 0 {
			// desc.load(offsets): the descriptor is the call's self.
			n.Path, n.Kind, n.Params, n.Required = "desc."+rest, "method", b.params[1:], max(b.required-1, 0)
		}
		out = append(out, n)
	}
	for m, p := range members {
		b := builtins[p]
		if b == nil || len(b.params) == 0 {
			continue // TestDifferencesNamed checks that each names a builtin
		}
		out = append(out, Name{Path: "x." + m, Kind: "method", Params: b.params[1:], Required: max(b.required-1, 0), Same: docPath(p), Supported: true})
	}
	for name, ok := range unsupportedNames {
		if ok {
			out = append(out, Name{Path: "tl." + name, Kind: "function", Differs: differences["triton.language."+name]})
		}
	}
	for name, d := range pyDtypes {
		out = append(out, Name{Path: "tl." + name, Kind: "dtype", Supported: true, Differs: differences["triton.language."+name], Same: d.String()})
	}
	for name, d := range pointerAliases {
		out = append(out, Name{Path: "tl." + name, Kind: "dtype", Supported: true, Same: d.String()})
	}
	for p := range constPaths {
		out = append(out, Name{Path: docPath(p), Kind: "constant", Supported: true})
	}
	for p := range modules {
		out = append(out, Name{Path: docPath(p), Kind: "module", Supported: true, Differs: differences[p]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return slices.CompactFunc(out, func(a, b Name) bool { return a.Path == b.Path })
}

// docPath writes a full path as kernels usually do: tl. for
// triton.language.
func docPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "triton.language."); ok {
		return "tl." + rest
	}
	if p == "triton.language" {
		return "tl"
	}
	return p
}

// differences says, by full path, how tri differs from Triton where it
// does. Each entry is checked to name a known path (TestDifferencesNamed).
var differences = map[string]string{
	"triton.language.dot":                    "`input_precision` \"tf32\", \"tf32x3\" and \"ieee\" as Triton; fp16, bf16, fp8 and int8 dots run on tensor cores (`mma.sync`, or `wgmma` on sm_90a), while fp32 \"ieee\", fp64, rank-3 and small dots run as FMAs on the CUDA cores, so float sums may round differently from Triton's in the last bits.",
	"triton.language.dot_scaled":             "Not supported: an error where it is used.",
	"triton.language.inline_asm_elementwise": "GPU only: the interpreter cannot run PTX, so `tri run --check` runs such a kernel on the GPU alone, with a warning.",
	"triton.language.map_elementwise":        "With `pack=N`, tri groups N consecutive elements along the last axis, which must be a multiple of N; Triton leaves the grouping to its layout.",
	"triton.language.range":                  "`num_stages` sets the depth of the loop's software pipeline on sm_90a and changes nothing elsewhere; `loop_unroll_factor` is shown by `--dump=ir` but the loop is emitted as written; `disallow_acc_multi_buffer`, `flatten`, `warp_specialize` and `disable_licm` are checked and ignored.",
	"range":                                  "Its keywords, whatever their names, are evaluated and ignored, as Triton's code generator does: `range(0, n, step=2)` steps by 1.",
	"triton.language.condition":              "`disable_licm` is accepted and ignored: tri's hoisting never moves loads, so a spin loop's load stays in it.",
	"triton.language.device_assert":          "The interpreter always checks it; GPU code checks it only with `--debug` (or `TRITON_DEBUG=1`, or `@triton.jit(debug=True)`), as Triton's `debug=True`.",
	"triton.language.device_print":           "Writes Triton's lines to stdout: in program order in the interpreter, in the GPU's order on the GPU.",
	"print":                                  "As `tl.device_print`.",
	"triton.language.static_print":           "Writes to stderr at compile time, once per specialization.",
	"triton.language.max_constancy":          "Checked (one value per dimension) and ignored: tri does not use constancy hints.",
	"triton.language.make_tensor_descriptor": "The descriptor is taken to follow Triton's contract (a 16-byte aligned base and leading strides); on sm_90a the kernel builds its TMA map itself in a scratch buffer the launch allocates, so `triton.set_allocator` is not needed. A descriptor store done by the TMA unit (sm_90a) clips a row in 16-byte pieces: where the inner dimension's edge falls inside a piece, the elements past it in that piece are written too, as Triton's TMA stores do (measured on an H200); the interpreter writes nothing past the edge, as Triton's does.",
	"triton.language.rand":                   "Philox 4x32-10, bit for bit with Triton.",
	"triton.language.randint":                "Philox 4x32-10, bit for bit with Triton.",
	"triton.language.randn":                  "Philox 4x32-10, bit for bit with Triton.",
	"triton.language.float8e4nv":             "A storage type: loads, stores, casts (with Triton's rounding) and `tl.dot`; GPU code needs sm_89 or later, as Triton's.",
	"triton.language.float8e4b8":             "AMD's fnuz format: GPU code refuses it with Triton's message, as Triton's NVIDIA backend does.",
	"triton.language.float8e5b16":            "AMD's fnuz format: GPU code refuses it with Triton's message, as Triton's NVIDIA backend does.",
	"triton.language.float8e5":               "A storage type: loads, stores, casts (with Triton's rounding) and `tl.dot`.",
	"triton.language.float8e4b15":            "A storage type: loads, stores and casts (with Triton's rounding).",
	"triton.language.extra.libdevice":        "Every function, each as a call of CUDA's math library; docs/LIBDEVICE.md gives each one's CUDA function and error bound.",
	"triton.language.target_info":            "tri targets NVIDIA GPUs only: `is_cuda()` is true and the `is_hip*()` predicates are false.",
}
