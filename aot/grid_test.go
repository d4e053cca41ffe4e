package aot

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gridTestNames are the names of a kernel with integer parameters n (i32)
// and total (i64), a constexpr BLOCK=128, a :1 stride, a pointer and a
// string constexpr.
var gridTestNames = map[string]gridName{
	"n":      {c: "n", cType: "int32_t"},
	"total":  {c: "total", cType: "int64_t"},
	"BLOCK":  {value: 128},
	"stride": {value: 1},
	"x_ptr":  {why: "a pointer; the grid is computed from integer parameters"},
	"ACT":    {why: "the constexpr is 'relu', not an integer"},
}

func TestGridC(t *testing.T) {
	for _, tc := range []struct {
		text  string
		want  [3]string // each dimension's C
		shown string
	}{
		{"(n + 1023) / 1024, 1, 1", [3]string{"((int64_t)n + 1023) / 1024", "1", "1"}, "((n + 1023) / 1024, 1, 1)"},
		{"cdiv(n, BLOCK)", [3]string{"tri_cdiv((int64_t)n, 128)", "1", "1"}, "(cdiv(n, BLOCK))"},
		{"(triton.cdiv(n, BLOCK), 4,)", [3]string{"tri_cdiv((int64_t)n, 128)", "4", "1"}, "(triton.cdiv(n, BLOCK), 4,)"},
		{"(n + 1) // 2", [3]string{"((int64_t)n + 1) / 2", "1", "1"}, "((n + 1) // 2)"},
		{"n - (total - 3) * stride", [3]string{"(int64_t)n - (total - 3)", "1", "1"}, "(n - (total - 3) * stride)"},
		{"BLOCK * 2 - 6 % 4, max(n, total), min(3, tl.cdiv(total, 7))", [3]string{"254", "tri_max((int64_t)n, total)", "tri_min(3, tri_cdiv(total, 7))"}, ""},
		{"-(-n) % 8, 2 * (3 + 4), cdiv(1025, BLOCK)", [3]string{"-(-(int64_t)n) % 8", "14", "9"}, ""},
		{"n * total * 4", [3]string{"(int64_t)n * total * 4", "1", "1"}, ""},
		{"n - (1 - total)", [3]string{"(int64_t)n - (1 - total)", "1", "1"}, ""},
		{"0x10, 1_000", [3]string{"16", "1000", "1"}, ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			g, err := parseGrid(tc.text, gridTestNames)
			require.NoError(t, err)
			for i, d := range g.dims {
				assert.Equal(t, tc.want[i], d.cExpr(), "dimension %d", i)
			}
			if tc.shown != "" {
				assert.Equal(t, tc.shown, g.text)
			}
		})
	}
}

// TestGridErrors: every refusal is placed at its column of the --grid
// text, as "--grid:1:COL: message".
func TestGridErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "--grid:1:1: the grid is empty"},
		{"cdiv(m, BLOCK)", "--grid:1:6: unknown name m in the grid; it may use the integer parameters n, total; the constants BLOCK, stride; integers and cdiv, min, max"},
		{"n, x_ptr", "--grid:1:4: x_ptr in the grid: a pointer; the grid is computed from integer parameters"},
		{"ACT", "--grid:1:1: ACT in the grid: the constexpr is 'relu', not an integer"},
		{"n / total", "--grid:1:3: the grid divides by a runtime parameter; it may divide only by a positive integer or constexpr"},
		{"cdiv(n, total)", "--grid:1:1: the grid divides by a runtime parameter"},
		{"n % (BLOCK - 128)", "--grid:1:3: the grid divides by 0; a divisor must be positive"},
		{"1, 2, 3, 4", "--grid:1:10: a grid has at most three dimensions, this one has 4"},
		{"n, 0", "--grid:1:4: grid dimension 1 is 0: no program would run"},
		{"n, 1 - 5", "--grid:1:4: grid dimension 1 is -4: no program would run"},
		{"n, 70000", "--grid:1:4: grid dimension 1 is 70000, more than CUDA's 65535"},
		{"3000000000", "--grid:1:1: grid dimension 0 is 3000000000, more than CUDA's 2147483647"},
		{"9223372036854775807 + 1", "--grid:1:21: the grid's arithmetic overflows int64 (9223372036854775807 + 1)"},
		{"n +", "--grid:1:4: expected a number, a parameter or a parenthesis in the grid, found the end of the grid"},
		{"(n + 1", "--grid:1:7: expected \")\" to close the parenthesis, found the end of the grid"},
		{"n 2", "--grid:1:3: expected \",\" between the grid's dimensions, found \"2\""},
		{"n ** 2", "--grid:1:4: expected a number, a parameter or a parenthesis in the grid, found \"*\""},
		{"n << 2", "--grid:1:3: unexpected \"<\" in the grid"},
		{"1.5", "--grid:1:1: \"1.5\" is not an integer the grid can use"},
		{"next_power_of_2(n)", "--grid:1:1: the grid cannot call next_power_of_2; it knows cdiv(a, b), min(a, b) and max(a, b)"},
		{"min(n)", "--grid:1:1: min takes 2 arguments, got 1"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			_, err := parseGrid(tc.text, gridTestNames)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestCString(t *testing.T) {
	assert.Equal(t, `"a \"q\" \\ ?\? \t\n\303\274\001"`, cString("a \"q\" \\ ?? \t\n\u00fc\x01"))
}
