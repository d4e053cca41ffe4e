package hosteval

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

// evalText parses text as a launch argument and evaluates it.
func evalText(t *testing.T, e *Env, text string) (Value, error) {
	t.Helper()
	x, diags := frontend.ParseExpr(LaunchSource, text)
	require.False(t, diags.HasErrors(), "%s: %v", text, diags)
	return e.Eval(x, &Source{Name: LaunchSource, Text: text})
}

func TestEval(t *testing.T) {
	e := lets(t, "n=1000", "x=zeros(64, 32, dtype='float16')", "grid=lambda meta: (cdiv(n, meta['B']),)")
	for _, tc := range []struct {
		text string
		want Value
	}{
		{"n", IntValue(1000)},
		{"42", IntValue(42)},
		{"2.5", FloatValue(2.5)},
		{"None", None},
		{"True", BoolValue(true)},
		{"'relu'", StrValue("relu")},
		{"tl.float16", DTypeValue(ir.TFloat16)},
		{"triton.language.int64", DTypeValue(ir.TInt64)},
		{"torch.float32", DTypeValue(ir.TFloat32)},
		{"x.stride(0)", IntValue(32)},
		{"x.stride(-1)", IntValue(1)},
		{"x.shape[0]", IntValue(64)},
		{"x.shape[-1]", IntValue(32)},
		{"x.size(1)", IntValue(32)},
		{"x.numel()", IntValue(2048)},
		{"x.dtype", DTypeValue(ir.TFloat16)},
		{"x.numel() // 16 + 1", IntValue(129)},
		{"triton.cdiv(n, 128)", IntValue(8)},
		{"cdiv(n, 1000)", IntValue(1)},
		{"triton.next_power_of_2(n)", IntValue(1024)},
		{"next_power_of_2(1)", IntValue(1)},
		{"min(n, 512)", IntValue(512)},
		{"max(4, n // 8, 2)", IntValue(125)},
		{"min((3, 1, 2))", IntValue(1)},
		{"int(n / 3)", IntValue(333)},
		{"int(2.9)", IntValue(2)},
		{"-7 // 2", IntValue(-4)},
		{"7 % -3", IntValue(-2)},
		{"2 ** 10", IntValue(1024)},
		{"1 << 20", IntValue(1 << 20)},
		{"(n, x.shape[1])", TupleValue(IntValue(1000), IntValue(32))},
		{"(n,)", TupleValue(IntValue(1000))},
		{"n if n > 10 else 0", IntValue(1000)},
		{"n * 0.5", FloatValue(500)},
	} {
		v, err := evalText(t, e, tc.text)
		require.NoError(t, err, tc.text)
		assert.Equal(t, tc.want, v, tc.text)
	}
}

func TestEvalErrors(t *testing.T) {
	e := lets(t, "n=1000", "x=zeros(64, 32)", "xs=zeros(8)")
	for _, tc := range []struct{ text, want string }{
		{"m", "launch:1:1: name 'm' is not bound; bind it with --let m=..."},
		{"x.stride(2)", "launch:1:10: axis 2 is out of range for a tensor of rank 2"},
		{"x.shape[5]", "launch:1:9: index 5 is out of range for a tuple of 2"},
		{"x.foo", "launch:1:1: a tensor has no attribute 'foo'"},
		{"x.contiguous()", "launch:1:1: tensors have no method 'contiguous' here (stride, size, numel, dim and element_size are supported)"},
		{"n.stride(0)", "launch:1:1: an int has no method 'stride'"},
		{"tl.float42", "launch:1:1: unknown name tl.float42"},
		{"triton.cdiv(n)", "launch:1:1: triton.cdiv() takes 2 arguments but 1 were given"},
		{"cdiv(n, 0)", "launch:1:9: cdiv by zero"},
		{"min()", "launch:1:1: min() of nothing"},
		{"n + 'a'", "launch:1:1: unsupported operand types for +: an int and a str"},
		{"{1: 2}", "launch:1:2: dict keys must be strings here, not an int"},
		{"{**d}", "launch:1:4: ** inside a dict is not supported here; list the keys"},
		{"[i for i in n]", "launch:1:1: list comprehension is not supported in a launch line or --let"},
		{"n(3)", "launch:1:1: an int is not callable"},
		{"tl", "launch:1:1: tl is a module, not a value"},
	} {
		_, err := evalText(t, e, tc.text)
		require.Error(t, err, tc.text)
		assert.Equal(t, tc.want, err.Error(), tc.text)
	}
	_, err := evalText(t, e, "xz")
	var d *diag.Diagnostic
	require.ErrorAs(t, err, &d)
	assert.Equal(t, "did you mean x?", d.Suggestion)
	assert.Equal(t, 2, ExitCode(err))
}
