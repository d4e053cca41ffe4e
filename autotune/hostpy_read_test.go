package autotune

import (
	"fmt"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
)

// TestConfigReadsGuarded: tri's reading of a config, a heuristic's result
// and a timing argument runs user code (a subclass of triton.Config whose
// __getattr__ loops, a __repr__ that loops, a value whose conversion asks
// __getattr__); each now ends at --timeout in an error placed at the
// loop, and leaves no goroutine (they ran on tri's goroutine, unbounded).
func TestConfigReadsGuarded(t *testing.T) {
	const kernel = "\n@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n    pass\n"
	const head = "import triton\nimport triton.language as tl\n\n\ndef configs():\n    class Evil%s:\n        def __init__(self):\n            pass\n\n        def %s(self%s):\n            while True:\n                pass\n    return %s\n\n\n"
	for _, c := range []struct{ name, src string }{
		{"a __getattr__ of a Config subclass", fmt.Sprintf(head, "(triton.Config)", "__getattr__", ", name", "[Evil()]") +
			"@triton.autotune(configs=configs(), key=['n'])" + kernel},
		{"a __repr__ in a message", fmt.Sprintf(head, "", "__repr__", "", "[triton.Config({'BLOCK': 64}, num_warps=Evil())]") +
			"@triton.autotune(configs=configs(), key=['n'])" + kernel},
		{"a __getattr__ of a meta-parameter", fmt.Sprintf(head, "", "__getattr__", ", name", "[triton.Config({'BLOCK': Evil()})]") +
			"@triton.autotune(configs=configs(), key=['n'])" + kernel},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			f, diags := frontend.Parse("k.py", []byte(c.src))
			require.False(t, diags.HasErrors(), "%v", diags)
			fn := f.Func("k")
			require.NotNil(t, fn)
			done := make(chan error, 1)
			go func() {
				_, err := Read(&Source{Path: "k.py", Text: []byte(c.src), File: f}, fn, func() string { return "sm_90" }, Host{Timeout: 200 * time.Millisecond})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("reading the configs hangs")
			}
			require.Error(t, err)
			assert.Regexp(t, regexp.MustCompile(`^k\.py:1[01]:\d+: @triton.autotune.*host code ran longer than --timeout 200ms`), err.Error())
			assert.True(t, settles(before), "goroutines: %d before, %d after", before, runtime.NumGoroutine())
		})
	}
}
