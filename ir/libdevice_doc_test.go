package ir_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

const libdeviceDocHead = `# libdevice in tri

Every function of Triton's ` + "`triton.language.extra.cuda.libdevice`" + ` (reached as
` + "`libdevice.f`" + ` after ` + "`from triton.language.extra import libdevice`" + ` or
` + "`from triton.language.extra.cuda import libdevice`" + `, and as ` + "`tl.extra.libdevice.f`" + `,
` + "`tl.extra.cuda.libdevice.f`" + `), one row per dtype signature Triton accepts. Operands
of other dtypes are promoted to one computation type first, as Triton does;
fp16 and bf16 operands are an error (convert with ` + "`.to(tl.float32)`" + `).

- **CUDA function**: what tri's generated code calls under NVRTC (the CUDA math
  API; "tri" where tri writes the function: bit tests, rcp64h as
  ` + "`rcp.approx.ftz.f64`" + `, powi as a call of libdevice's ` + "`__nv_powif`" + `/` + "`__nv_powi`" + `,
  declared, which NVRTC links). Triton calls the libdevice symbol; under clang
  without the CUDA headers tri does too.
- **ftz**: Triton links libdevice in flush-to-zero mode (` + "`enable_reflect_ftz`" + `, on
  by default). What that does differs per function, and tri reproduces what
  real Triton 3.6 gave on an H100, on the GPU and in the interpreter: "ftz"
  flushes subnormal operands and results to zeros of their sign; "ftz
  operands" and "ftz result" only those; the rest names what a subnormal
  first operand x gives. Bit casts, classification, copysign and fp64 flush
  nothing. ` + "`tl.div_rn`" + ` (not a libdevice function: Triton emits ` + "`div.rn.f32`" + `)
  flushes nothing either, unlike ` + "`libdevice.div_rn`" + `.
- **documented error**: the largest error CUDA's Math API appendix gives, which
  ` + "`tri run --check`" + ` allows (plus an ulp for the interpreter's rounding). "exact":
  correctly rounded, or an integer or bit result; the interpreter is then bit
  for bit equal.
- **max ulp vs Triton**: the largest difference measured between tri's GPU
  results and real Triton's (3.6, H100, CUDA 13.0 NVRTC) on the construct
  kernels (conformance/constructs/libdevice_*.tri, 32 edge values each:
  ±0, ±inf, NaN, ±1e-40, huge values) and tutorial 07; "not measured" where
  no kernel calls the overload. Measured on 2026-11-24 with
  ` + "`python3 bench/triton_compare.py --tri bin/tri --gpu conformance/constructs/libdevice_*.tri samples/extern_tutorial07.tri`" + `:
  all 13 construct files match Triton within their tolerances; tutorial
  07 differs by up to 3 ulp in 46 of 98432 values (below).

## Why tri can differ from Triton

- **Flush to zero.** Triton's libdevice runs its flush-to-zero code, tri's
  NVRTC build does not (compiling whole kernels with ` + "`-ftz=true`" + ` would flush
  ordinary arithmetic too, which Triton does not). tri's wrappers flush per
  function as measured; a function whose flush-to-zero code does something
  else on a subnormal than the rows say (only the construct kernels' inputs
  were measured) may differ there.
- **Approximate internals.** Triton compiles libdevice without
  ` + "`__CUDA_PREC_SQRT`" + ` and ` + "`__CUDA_PREC_DIV`" + `, so square roots and divisions inside
  libdevice functions are the approximate instructions; tri's are IEEE.
- **Another libdevice.** Triton 3.6 bundles its own ` + "`libdevice.10.bc`" + `, NVRTC
  links CUDA's, and the two differ: ` + "`__nv_asinf`" + ` uses another split point and
  polynomial, so tutorial 07's ` + "`asin`" + ` differs from Triton by up to 3 ulp in 46
  of 98432 values. No flag changes this.

This file is checked against ir/libdevice.go's table by a test; regenerate it
with ` + "`UPDATE_GOLDEN=1 go test ./ir`" + ` (the measured column is kept).

| function | dtypes | libdevice symbol | CUDA function | ftz | documented error | max ulp vs Triton |
| --- | --- | --- | --- | --- | --- | --- |
`

// libdeviceDocRow is the table row of o, with its measured column.
func libdeviceDocRow(o *ir.LibdeviceOverload, measured string) string {
	args := make([]string, len(o.Args))
	for i, k := range o.Args {
		args[i] = k.String()
	}
	cuda := "`" + o.CUDA + "`"
	if o.CUDA == "" {
		cuda = "tri"
	}
	doc := o.Doc
	switch {
	case doc != "":
	case o.ULP == 0:
		doc = "exact"
	default:
		doc = fmt.Sprintf("%d ulp", o.ULP)
	}
	ftz := ftzDoc(o)
	return fmt.Sprintf("| %s | (%s) -> %s | `%s` | %s | %s | %s | %s |\n", o.Func, strings.Join(args, ", "), o.Result, o.Symbol, cuda, ftz, doc, measured)
}

// ftzDoc describes o's flush-to-zero behaviour for the table.
func ftzDoc(o *ir.LibdeviceOverload) string {
	var parts []string
	switch {
	case o.FTZIn && o.FTZOut:
		parts = append(parts, "ftz")
	case o.FTZIn:
		parts = append(parts, "ftz operands")
	case o.FTZOut:
		parts = append(parts, "ftz result")
	}
	rule := map[ir.SubnormalRule]string{
		ir.SubnormalNaN:      "subnormal x: NaN",
		ir.SubnormalLogb:     "subnormal x: -150",
		ir.SubnormalTwice:    "subnormal x: 2x",
		ir.SubnormalPow:      "subnormal x: ±2^-127",
		ir.SubnormalPositive: "positive subnormal x flushed",
		ir.SubnormalNext:     "steps over the subnormals",
	}[o.Subnormal]
	if rule != "" {
		parts = append(parts, rule)
	}
	return strings.Join(parts, "; ")
}

// TestLibdeviceDoc: docs/LIBDEVICE.md lists every overload of the table
// with its CUDA function and documented error.
func TestLibdeviceDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "LIBDEVICE.md")
	old, err := os.ReadFile(path)
	if err != nil && os.Getenv("UPDATE_GOLDEN") == "" {
		require.NoError(t, err)
	}
	measured := map[string]string{}
	for _, l := range strings.Split(string(old), "\n") {
		cells := strings.Split(l, "|")
		if len(cells) == 9 && strings.HasPrefix(strings.TrimSpace(cells[3]), "`__nv_") {
			measured[strings.Trim(strings.TrimSpace(cells[3]), "`")] = strings.TrimSpace(cells[7])
		}
	}
	var b strings.Builder
	b.WriteString(libdeviceDocHead)
	for _, name := range ir.LibdeviceNames() {
		f, _ := ir.LibdeviceFuncNamed(name)
		for _, o := range f.Overloads {
			b.WriteString(libdeviceDocRow(o, measured[o.Symbol]))
		}
	}
	want := strings.ReplaceAll(strings.ReplaceAll(b.String(), "|  |", "| |"), "|  |", "| |")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	assert.Equal(t, want, string(old), "docs/LIBDEVICE.md is stale: UPDATE_GOLDEN=1 go test ./ir")
}
