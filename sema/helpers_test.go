package sema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// Shorthands for signatures in tests.
func ptr(k ir.Kind) Arg         { return Arg{Kind: ArgRuntime, DType: ir.PtrTo(k)} }
func scalar(k ir.Kind) Arg      { return Arg{Kind: ArgRuntime, DType: ir.Scalar(k)} }
func cInt(n int64) Arg          { return Arg{Kind: ArgConstexpr, Value: Constexpr{Kind: CInt, Int: n}} }
func cStr(s string) Arg         { return Arg{Kind: ArgConstexpr, Value: Constexpr{Kind: CStr, Str: s}} }
func cDType(d ir.DType) Arg     { return Arg{Kind: ArgConstexpr, Value: Constexpr{Kind: CDType, DType: d}} }
func sig(args ...Arg) Signature { return Signature{Args: args} }

const header = "import triton\nimport triton.language as tl\n\n"

// compile parses src (with the usual imports prepended when it has none)
// and specializes kernel name; it fails the test on any error and verifies
// the IR.
func compile(t *testing.T, src, name string, s Signature) *ir.Kernel {
	t.Helper()
	k, errs := tryCompile(t, src, name, s)
	require.NoError(t, errs, "specialize %s", name)
	require.NoError(t, ir.Verify(k))
	return k
}

func tryCompile(t *testing.T, src, name string, s Signature) (*ir.Kernel, error) {
	t.Helper()
	if !strings.Contains(src, "import triton") {
		src = header + src
	}
	f, d := frontend.Parse("k.tri", []byte(src))
	require.NoError(t, d.Err(), "parse")
	k, diags := Specialize(f, name, s)
	return k, diags.Err()
}

func printed(k *ir.Kernel) string {
	var b strings.Builder
	ir.Print(&b, k)
	return b.String()
}

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "samples", name))
	require.NoError(t, err)
	return string(b)
}
