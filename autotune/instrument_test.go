package autotune

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-python/gpython/py"
	"github.com/go-python/gpython/vm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpcodesMatchVM: the rewrite's opcode numbers are gpython's.
func TestOpcodesMatchVM(t *testing.T) {
	for got, want := range map[byte]vm.OpCode{
		opPopTop: vm.POP_TOP, opRotThree: vm.ROT_THREE, opBinaryPower: vm.BINARY_POWER, opBinaryMultiply: vm.BINARY_MULTIPLY,
		opBinaryAdd: vm.BINARY_ADD, opInplaceAdd: vm.INPLACE_ADD, opInplaceMultiply: vm.INPLACE_MULTIPLY,
		opBinaryLshift: vm.BINARY_LSHIFT, opInplacePower: vm.INPLACE_POWER, opInplaceLshift: vm.INPLACE_LSHIFT,
		opHaveArgument: vm.HAVE_ARGUMENT, opForIter: vm.FOR_ITER, opLoadConst: vm.LOAD_CONST, opJumpForward: vm.JUMP_FORWARD,
		opJumpIfFalseOrP: vm.JUMP_IF_FALSE_OR_POP, opJumpIfTrueOrP: vm.JUMP_IF_TRUE_OR_POP, opJumpAbsolute: vm.JUMP_ABSOLUTE,
		opPopJumpIfFalse: vm.POP_JUMP_IF_FALSE, opPopJumpIfTrue: vm.POP_JUMP_IF_TRUE, opContinueLoop: vm.CONTINUE_LOOP,
		opSetupLoop: vm.SETUP_LOOP, opSetupExcept: vm.SETUP_EXCEPT, opSetupFinally: vm.SETUP_FINALLY,
		opCallFunction: vm.CALL_FUNCTION, opSetupWith: vm.SETUP_WITH, opExtendedArg: vm.EXTENDED_ARG,
		opRotTwo: vm.ROT_TWO, opBinaryModulo: vm.BINARY_MODULO, opInplaceModulo: vm.INPLACE_MODULO,
		opLoadAttr: vm.LOAD_ATTR, opCompareOp: vm.COMPARE_OP, opDupTopTwo: vm.DUP_TOP_TWO,
		opBinarySubscr: vm.BINARY_SUBSCR, opStoreSubscr: vm.STORE_SUBSCR, opDeleteSubscr: vm.DELETE_SUBSCR,
	} {
		assert.Equal(t, byte(want), got, "%v", want)
	}
	for got, want := range map[uint32]int{cmpEq: vm.PyCmp_EQ, cmpNe: vm.PyCmp_NE, cmpIn: vm.PyCmp_IN, cmpNotIn: vm.PyCmp_NOT_IN} {
		assert.Equal(t, uint32(want), got)
	}
}

// TestInstrumentKeepsMeaning: instrumented code computes what the code
// computed before, through every kind of jump, block and line, and polls
// the guard on every turn of a loop.
func TestInstrumentKeepsMeaning(t *testing.T) {
	long := "    x = 0\n    for i in range(3):\n" + strings.Repeat("        x = x + i * 2\n", 4000) + "    return x\n"
	cases := map[string]string{
		"loops": `
def f():
    out = []
    for i in range(10):
        if i == 2:
            continue
        if i == 8:
            break
        out.append(i * i)
    else:
        out.append(-1)
    n = 0
    while n < 5:
        n += 1
        if n == 3:
            continue
        out.append(n << 2)
    else:
        out.append(100)
    return out
`,
		"exceptions in loops": `
def f():
    out = []
    for i in range(6):
        try:
            if i % 2:
                raise ValueError(i)
            out.append(i)
        except ValueError as e:
            out.append(-i)
            continue
        finally:
            out.append(10 + i)
    return out
`,
		"comprehensions and closures": `
def f():
    k = 3
    g = lambda y: y * k
    xs = [g(i) for i in range(5) if i % 2 == 0]
    d = {str(i): i ** 2 for i in range(4)}
    s = sum(x for x in xs if x > 0)
    return xs, sorted(d.keys()), s, [(a, b) for a in range(3) for b in range(a) if a + b > 1]
`,
		"generators": `
def gen(n):
    i = 0
    while i < n:
        yield i
        i += 1


def f():
    return list(gen(4)) + [x * 2 for x in gen(3)]
`,
		"operators": `
def f():
    a = [1, 2] * 3
    a *= 2
    s = 'ab' + 'cd'
    s += 'e'
    return a, s, 2 ** 10, 3 << 4, 1.5 * 2, [1] + [2], 7 * 6
`,
		"and, or, conditional": `
def f():
    out = []
    for i in range(5):
        out.append(i and i or -1)
        out.append(i if i > 2 else None)
    return out
`,
		"comparisons, subscripts, % and dunders": `
def f():
    out = []
    d = {'a': 1}
    d['b'] = 2
    del d['a']
    l = [1, [2, 3], (4,)]
    for i in range(3):
        out.append((i == 1, i != 1, i in [0, 2], i not in (0,), l == [1, [2, 3], (4,)], [l] != [l]))
        out.append('%d-%s' % (i, 'x'))
    out.append((d['b'], 'b' in d, l[1][0], d.get('b'), d.get('z', 7), l.__len__(), l.__eq__(l), 'ab'.__mod__(())))
    return out
`,
		"a jump past 65535": "\ndef f():\n" + long,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			plain := runSnippet(t, src, false)
			inst := runSnippet(t, src, true)
			assert.NotContains(t, plain, "error:")
			assert.Equal(t, plain, inst)
		})
	}
}

// runSnippet runs f() of src, instrumented or not, and returns its repr or
// error; instrumented, the guard must have been polled.
func runSnippet(t *testing.T, src string, instrumented bool) string {
	t.Helper()
	ctx := py.NewContext(py.ContextOpts{})
	defer ctx.Close()
	code, err := py.Compile(src, "s.py", py.ExecMode, 0, true)
	require.NoError(t, err)
	fixCells(code)
	g := &guard{maxHeap: maxHostHeap}
	ticks := 0
	if instrumented {
		tick := py.MustNewMethod("tick", func(_ py.Object, line py.Object) (py.Object, error) {
			ticks++
			return py.None, nil
		}, 0, "")
		hk := g.hooks("s.py")
		hk.tick = tick
		require.NoError(t, instrument(code, hk))
	}
	globals := py.NewStringDict()
	_, err = ctx.RunCode(code, globals, globals, nil)
	require.NoError(t, err)
	v, err := py.Call(globals["f"], nil, nil)
	if instrumented && !strings.Contains(src, "return a, s") {
		assert.Positive(t, ticks, "the loops poll")
	}
	if err != nil {
		return "error: " + err.Error()
	}
	r, err := py.Repr(v)
	require.NoError(t, err)
	return fmt.Sprint(r)
}

// A traceback through instrumented code names the line that raised.
func TestInstrumentLines(t *testing.T) {
	err, _ := callF(t, "\n\ndef f():\n    x = 1\n    for i in range(3):\n        x = x * 2\n    y = x + 'a'\n", Host{})
	require.Error(t, err)
	assert.Regexp(t, `^k\.py:7:5: calling f\(\): TypeError`, err.Error())
}
