package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tableSrc = `import triton
import triton.language as tl


@triton.jit
def k(table, out, n, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    src = tl.load(table + g).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    tl.store(out + g * BLOCK + offs, tl.load(src + offs, mask=offs < n, other=0.0), mask=offs < n)
`

// TestInterpretPointerTables: the interpreter fills a ptrs(...) table with
// its own addresses of the tensors named, so that pointers loaded from it
// reach them; a pointer that reaches no bound tensor, or past the end of
// one, stops the run with an error placed at the access.
func TestInterpretPointerTables(t *testing.T) {
	path := writeKernel(t, tableSrc)
	line := "k[(2,)](t, out, n, BLOCK=16)"
	lets := []string{"n=10", "a=arange(10, dtype='float32')", "b=full(10, 7.0)", "out=zeros(32)", "c=zeros(4)"}
	tests := []struct {
		name, table, err string
	}{
		{"table", "t=ptrs(a, b)", ""},
		{"uint64 table naming a tensor twice", "t=ptrs(b, b, dtype='uint64')", ""},
		{"no tensor there", "t=tensor([16, 0], dtype='int64')", "k.tri:10:38: interpreting k: load address 0x10 points into no tensor at lane [0] (program (0, 0, 0))"},
		{"null", "t=zeros(2, dtype='int64')", "load null pointer"},
		{"too short", "t=ptrs(a, c)", "out of bounds: element 4 of c (float32 of 4 elements, valid indices 0..3)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Prepare(path, line, &Options{Lets: append(append([]string{}, lets...), tc.table)})
			require.NoError(t, err)
			err = p.Interpret(0)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			out, _ := p.Env.Lookup("out")
			v, _ := p.Env.Lookup("t")
			for g, name := range v.Ptrs {
				src, _ := p.Env.Lookup(name)
				for i := range 10 {
					assert.Equal(t, src.Tensor.Float(i), out.Tensor.Float(g*16+i), "row %d element %d", g, i)
				}
			}
		})
	}
}
