package autotune

import (
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/go-python/gpython/py"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// TestOneStepAllocations: the methods and constructors that gpython
// implements in Go and that can make a huge value in one call refuse it
// with a MemoryError at the host line, before allocating (they ran to
// Go's "out of memory", or past the timeout in a goroutine that went on
// allocating); those gpython lacks end in a placed error too.
func TestOneStepAllocations(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"str.replace of ''", "    s = 'x' * (1 << 20)\n    return s.replace('', s)\n", `MemoryError: tri's host Python refuses a str of 1099513724928 bytes`},
		{"str.replace growing", "    s = 'ab'\n    for i in range(40):\n        s = s.replace('a', s)\n", `MemoryError: tri's host Python refuses a str of \d+ bytes`},
		{"bytes", "    return bytes(10**10)\n", `MemoryError: tri's host Python refuses a bytes of 10000000000 bytes`},
		{"bytes past int64", "    return bytes(10**30)\n", `MemoryError: tri's host Python refuses a bytes of -1 bytes`},
		{"str.join", "    return ''.join(['x' * (1 << 20)] * 4096)\n", `MemoryError: tri's host Python refuses a str of \d+ bytes`},
		{"range through its type", "    return list(type(range(0))(10**10))\n", `MemoryError: tri's host Python refuses a range of 10000000000 items`},
		{"dict.fromkeys", "    return dict.fromkeys(range(10))\n", `AttributeError: 'type' has no attribute 'fromkeys'`},
		{"list.__mul__", "    return [0].__mul__(10**10)\n", `MemoryError: tri's host Python refuses a list of 10000000000 items`},
		{"int.__pow__", "    return (7).__pow__(10**10)\n", `MemoryError: tri's host Python refuses an int`},
		{"str.__rmul__", "    return 'ab'.__rmul__(10**10)\n", `MemoryError: tri's host Python refuses a str of 20000000000 bytes`},
		{"list.extend", "    l = [0] * (1 << 24)\n    l.extend([1])\n", `MemoryError: tri's host Python refuses a list of 16777217 items`},
		{"a format width", "    return '{:>10000000000}'.format(1)\n", `MemoryError: tri's host Python refuses a str of more than 16777216 bytes`},
		{"str.ljust", "    return 'x'.ljust(10**10)\n", `AttributeError: 'str' has no attribute 'ljust'`},
		{"bytearray", "    return bytearray(10**10)\n", `NameError: name 'bytearray' is not defined`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err, _ := callF(t, "\n\ndef f():\n"+c.body, Host{Timeout: 20 * time.Second})
			require.Error(t, err)
			assert.Regexp(t, regexp.MustCompile(c.want), err.Error())
			assert.Regexp(t, `^k\.py:[4-6]:`, err.Error(), "placed at the host line")
			assert.Equal(t, 2, hosteval.ExitCode(err))
		})
	}
}

// A loop whose every turn makes a large value in one step reads the heap
// at the next poll, not only every heapPollEvery polls: it stops within a
// few turns of passing the limit instead of up to 64 turns later.
func TestBigStepReadsHeap(t *testing.T) {
	h, sf, _ := hostSession(t, "\nturns = [0]\n\ndef f():\n    x = []\n    while True:\n        turns[0] += 1\n        x.append(list(range(1 << 18)))\n", Host{})
	h.guard.maxHeap = 16 << 20
	runtime.GC() // the limit counts from the heap at the start, garbage of earlier tests included
	_, err := h.eval("f()", sf.File.Host["f"].Pos, "calling f()")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "host code holds more than 16 MiB")
	turns, ok := h.globals["turns"].(*py.List)
	require.True(t, ok)
	n, _ := turns.Items[0].(py.Int)
	assert.LessOrEqual(t, int(n), 16, "turns before the stop")
}
