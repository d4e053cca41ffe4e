package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/ir"
)

// attnLoop is flash attention's inner loop in small: k, q @ k, a row max,
// then v for p @ v; {store} is put between the two dots and {vuse} after
// the load of v.
const attnLoop = `
@triton.jit
def k(Q, K, V, O, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    q = tl.load(Q + r[:, None] * BLOCK + r[None, :])
    acc = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)
    for s in range(0, n, BLOCK):
        k = tl.load(K + (s + r)[None, :] * BLOCK + r[:, None])
        qk = tl.dot(q, k)
        p = tl.exp(qk - tl.max(qk, 1)[:, None])
{store}        v = tl.load(V + (s + r)[:, None] * BLOCK + r[None, :])
{vuse}        acc = tl.dot(p.to(tl.float16), v, acc)
    tl.store(O + r[:, None] * BLOCK + r[None, :], acc)
`

// loopOrder compiles the kernel and returns the ops of its loop body's
// statements, with the loads named k and v.
func loopOrder(t *testing.T, store, vuse string) []string {
	t.Helper()
	src := attnLoop
	src = replaceOnce(src, "{store}", store)
	src = replaceOnce(src, "{vuse}", vuse)
	k := compile(t, src, "k", sig(ptr(ir.Float16), ptr(ir.Float16), ptr(ir.Float16), ptr(ir.Float32), scalar(ir.Int32), cInt(16)))
	var loop *ir.For
	for _, s := range k.Body.Stmts {
		if f, ok := s.(*ir.For); ok {
			loop = f
		}
	}
	require.NotNil(t, loop)
	var ops []string
	for _, s := range loop.Body.Stmts {
		v, ok := s.(*ir.Value)
		if !ok {
			continue
		}
		switch {
		case v.Op == ir.OpLoad:
			ops = append(ops, "load "+v.Name)
		case v.Op == ir.OpDot, v.Op == ir.OpStore:
			ops = append(ops, v.Op.String())
		}
	}
	return ops
}

func replaceOnce(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

// TestIssueLoadsEarly: the load of v, which only p @ v reads, moves above
// q @ k with the address arithmetic it needs, so that it runs under the
// first dot; a store between the dots, or a use of v other than a dot,
// keeps it where it is.
func TestIssueLoadsEarly(t *testing.T) {
	assert.Equal(t, []string{"load k", "load v", "dot", "dot"}, loopOrder(t, "", ""),
		"v is loaded before the first dot")
	assert.Equal(t, []string{"load k", "dot", "store", "load v", "dot"},
		loopOrder(t, "        tl.store(O + r, tl.sum(p, 1))\n", ""), "a store between the dots holds the load below it")
	assert.Equal(t, []string{"load k", "dot", "load v", "store", "dot"},
		loopOrder(t, "", "        tl.store(O + r[:, None] * BLOCK + r[None, :], v)\n"), "a load something else reads stays")
}
