package autotune

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
)

// TestAllowIOCodeIsGuarded: with --allow-host-io, code that eval, exec,
// compile or an import of a project file compiles is instrumented too:
// an endless loop there ends at --timeout in a placed error and its
// goroutine ends (before, it was never polled and spun on after tri
// returned).
func TestAllowIOCodeIsGuarded(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "helper.py"), []byte("def spin():\n    while True:\n        pass\n"), 0o644))
	path := filepath.Join(dir, "k.py")
	for _, c := range []struct{ name, body, want string }{
		{"exec", "    exec('while True:\\n    pass\\n')\n", `^` + regexp.QuoteMeta(path) + `:4:1: calling f\(\): host code ran longer than --timeout 200ms`},
		{"eval", "    return eval('[0 for x in iter(lambda: 1, 2)]')\n", `^` + regexp.QuoteMeta(path) + `:4:1: calling f\(\): host code (ran longer than --timeout 200ms|holds more than)`},
		{"compile then exec", "    exec(compile('while 1:\\n    x = 1\\n', 'c', 'exec'))\n", `calling f\(\): host code ran longer than --timeout 200ms`},
		{"an imported file", "    import helper\n    helper.spin()\n", `^` + regexp.QuoteMeta(filepath.Join(dir, "helper.py")) + `:2:1: calling f\(\): host code ran longer than --timeout 200ms`},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			src := "\n\n\ndef f():\n" + c.body
			f, diags := frontend.Parse(path, []byte(src))
			require.False(t, diags.HasErrors(), "%v", diags)
			h, err := newHostPython(&Source{Path: path, Text: []byte(src), File: f}, func() string { return "sm_90" }, Host{Timeout: 200 * time.Millisecond, AllowIO: true}, os.Stderr)
			require.NoError(t, err)
			_, err = h.eval("f()", f.Host["f"].Pos, "calling f()")
			require.Error(t, err)
			assert.Regexp(t, regexp.MustCompile(c.want), err.Error())
			assert.True(t, settles(before), "goroutines: %d before, %d after", before, runtime.NumGoroutine())
		})
	}
}
