package survey

// This file implements tuple arguments: a parameter that the kernel
// indexes with integer literals (mamba's stride_q[0], stride_q[2]) is a
// Python tuple at the launch, which Triton 3.6 passes element by element.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/frontend"
)

// tupleParams maps each parameter of fn that is not a tl.constexpr and
// that fn indexes with an integer literal (p[2]) to the length of the
// tuple that holds every such index.
func tupleParams(fn *frontend.Func) map[string]int {
	out := map[string]int{}
	walkExprs(fn.Body, func(x frontend.Expr) {
		sub, ok := x.(*frontend.Subscript)
		if !ok {
			return
		}
		n, ok := sub.X.(*frontend.Name)
		c, ok2 := sub.Index.(*frontend.Const)
		if !ok || !ok2 || c.Kind != frontend.ConstInt || !c.Int.IsInt64() || c.Int.Sign() < 0 {
			return
		}
		if p := paramOf(fn, n.ID); p != nil && !p.Constexpr {
			out[n.ID] = max(out[n.ID], int(c.Int.Int64())+1)
		}
	})
	return out
}

// tupleArg is the launch's value of tuple parameter name of n elements:
// pointers to tensors of elem, bound by the lets returned, or the integer
// 64 each (strides).
func tupleArg(name string, n int, pointers bool, elem string) (string, []string) {
	elts := make([]string, n)
	var lets []string
	for i := range elts {
		elts[i] = "64"
		if pointers {
			elts[i] = fmt.Sprintf("%s_%d", name, i)
			lets = append(lets, fmt.Sprintf("%s=empty(16, dtype='%s')", elts[i], elem))
		}
	}
	return "(" + strings.Join(elts, ", ") + ",)", lets
}
