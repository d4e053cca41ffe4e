package bind

import (
	"testing"

	"github.com/tri-lang/tri/hosteval"
)

// FuzzLaunch feeds arbitrary launch lines and --let texts through parsing,
// evaluation, binding and grids; none may panic.
func FuzzLaunch(f *testing.F) {
	for _, s := range []string{
		"k[(cdiv(n, 256),)](x, y, n, 1.0, 0, True, x, 'relu', B=512, num_warps=4)",
		"k[lambda meta: (triton.cdiv(n, meta['B']), 2)](x, x, n, 1, 2, False, None, tl.float16)",
		"k[g](*xs)",
		"k[(x.shape[0], x.stride(-1))](x.numel() // 3, min(n, 4), max((1, 2)))",
	} {
		f.Add(s, "x=randn(n, 4, dtype='float16') * 2 + 1")
	}
	f.Add("k[(1,)]()", "g=lambda m: g(m)")
	f.Add("k[(1,)]()", "t=tensor([[1, 2], [3, 4]], dtype='int8')")
	f.Add("k[(1,)]()", "p=ptrs(x, y)")
	_, fn := parseKernel(f)
	f.Fuzz(func(t *testing.T, line, let string) {
		e := hosteval.NewEnv(1)
		e.MaxElements = 1 << 12
		for _, s := range []string{"n=100", "x=randn(n)", "y=zeros(4, 4, dtype='int32')", "xs=(1, 2)", "g=lambda meta: (2,)"} {
			if err := e.Let(s); err != nil {
				t.Fatal(err)
			}
		}
		_ = e.Let(let)
		l, err := hosteval.ParseLaunch(line)
		if err != nil {
			return
		}
		b, err := Args(fn, l, e)
		meta := map[string]hosteval.Value{"B": hosteval.IntValue(64)}
		if err == nil {
			meta = b.Meta
		}
		_, _ = e.Grid(l, meta)
	})
}
