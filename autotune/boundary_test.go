package autotune

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
)

// hostSession starts an interpreter over a kernel file's host code.
func hostSession(t *testing.T, src string, host Host) (*hostPython, *Source, *bytes.Buffer) {
	t.Helper()
	f, diags := frontend.Parse("k.py", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	sf := &Source{Path: "k.py", Text: []byte(src), File: f}
	var stderr bytes.Buffer
	h, err := newHostPython(sf, func() string { return "sm_90" }, host, &stderr)
	require.NoError(t, err)
	return h, sf, &stderr
}

// callF evaluates f() of src and returns the error tri reports.
func callF(t *testing.T, src string, host Host) (error, *bytes.Buffer) {
	t.Helper()
	h, sf, stderr := hostSession(t, src, host)
	hf, ok := sf.File.Host["f"]
	require.True(t, ok, "the case defines f")
	_, err := h.eval("f()", hf.Pos, "calling f()")
	return err, stderr
}

// TestBoundaryEscapes: each way out of the interpreter that a config
// function might try is refused, the error placed at the line that tried,
// naming what was refused.
func TestBoundaryEscapes(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "written")
	for _, c := range []struct {
		name, body string
		line       int    // the line the error names, counted from the line before def f
		want       string // a regexp the error matches
		orLine     int    // another line it may name
	}{
		{"open for writing", "    open(" + quote(target) + ", 'w').write('x')\n", 3, `PermissionError: open\(\) is refused: it opens files.*--allow-host-io`, 0},
		{"open to read", "    raise ValueError(open('/etc/passwd').read())\n", 3, `PermissionError: open\(\) is refused`, 0},
		{"tempfile", "    import tempfile\n    tempfile.mkstemp()\n", 3, `ImportError: import of tempfile is refused`, 0},
		{"glob", "    import glob\n    return glob.glob('/*')\n", 3, `ImportError: import of glob is refused`, 0},
		{"sys", "    import sys\n    sys.stdout.write('x')\n", 3, `ImportError: import of sys is refused`, 0},
		{"time.sleep", "    import time\n    time.sleep(100)\n", 3, `ImportError: import of time is refused`, 0},
		{"from time", "    from time import sleep\n    sleep(100)\n", 3, `ImportError: import of time is refused`, 0},
		{"importlib", "    import importlib\n    importlib.import_module('os')\n", 3, `ImportError: import of importlib is refused`, 0},
		{"marshal", "    import marshal\n", 3, `ImportError: import of marshal is refused`, 0},
		{"__import__", "    return __import__('time').sleep(100)\n", 3, `ImportError: import of time is refused`, 0},
		{"a module file beside the kernel", "    import helper\n", 3, `ImportError: import of helper is refused`, 0},
		{"eval", "    return eval('1')\n", 3, `PermissionError: eval\(\) is refused: it compiles code`, 0},
		{"exec", "    exec('x = 1')\n", 3, `PermissionError: exec\(\) is refused`, 0},
		{"compile", "    compile('1', 'f', 'eval')\n", 3, `PermissionError: compile\(\) is refused`, 0},
		{"input", "    return input()\n", 3, `PermissionError: input\(\) is refused`, 0},
		{"print to a file", "    print('x', file=3)\n", 3, `PermissionError: print\(file=...\) is refused`, 0},
		{"a pure module gpython lacks", "    import functools\n", 3, `No module named 'functools' in tri's host Python`, 0},
		{"__builtins__", "    return __builtins__\n", 3, `NameError`, 0},
		{"__class__", "    return ().__class__.__base__.__subclasses__()\n", 3, `AttributeError: .* has no attribute '__class__'`, 0},
		{"__globals__", "    return f.__globals__['__builtins__']\n", 3, `AttributeError: .* has no attribute '__globals__'`, 0},
		{"getattr __globals__", "    return getattr(f, '__globals__')\n", 3, `AttributeError`, 0},
		{"a builtin's module", "    return print.__self__\n", 3, `AttributeError`, 0},
		{"the list repeated 10**10 times", "    return [0] * 10**10\n", 3, `MemoryError: tri's host Python refuses a list of 10000000000 items`, 0},
		{"the str repeated 10**10 times", "    return 'x' * 10**10\n", 3, `MemoryError: tri's host Python refuses a str of 10000000000 bytes`, 0},
		{"repetition in place", "    x = [0]\n    x *= 10**10\n", 4, `MemoryError: tri's host Python refuses a list`, 0},
		{"doubling", "    x = 'xx'\n    while True:\n        x = x + x\n", 5, `MemoryError: tri's host Python refuses a str of \d+ bytes`, 0},
		{"a huge power", "    return 10 ** 10 ** 10\n", 3, `MemoryError: tri's host Python refuses an int of more than`, 0},
		{"a huge shift", "    return 1 << 10**10\n", 3, `MemoryError: tri's host Python refuses an int`, 0},
		{"pow", "    return pow(7, 10**10)\n", 3, `MemoryError: tri's host Python refuses an int`, 0},
		{"range", "    return list(range(10**10))\n", 3, `MemoryError: tri's host Python refuses a range of 10000000000 items`, 0},
		{"factorial", "    import math\n    return math.factorial(10**9)\n", 4, `MemoryError: tri's host Python refuses factorial`, 0},
		{"unbounded recursion", "    return f()\n", 3, `host code recursed deeper than 1000 calls \(in f\)`, 0},
		{"mutual recursion", "    return g()\n\n\ndef g():\n    return f()\n", 3, `host code recursed deeper than 1000 calls`, 7},
		{"an endless loop", "    while True:\n        pass\n", 3, `host code ran longer than --timeout 300ms`, 0},
		{"an endless loop that catches", "    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n", 5, `host code ran longer than --timeout 300ms`, 0},
		{"an endless generator", "    return [x for x in g()]\n\n\ndef g():\n    while True:\n        yield 1\n", 3, `host code (ran longer than --timeout 300ms|holds more than)`, 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			// def f() is on line 4, the body's first line on 5.
			// Only the cases that run past the limit get a short one: on a
			// loaded machine the others may take longer than 300ms.
			timeout := 10 * time.Second
			if strings.Contains(c.want, "--timeout") {
				timeout = 300 * time.Millisecond
			}
			err, stderr := callF(t, "\nimport triton\n\ndef f():\n"+c.body, Host{Timeout: timeout})
			require.Error(t, err)
			assert.Regexp(t, regexp.MustCompile(c.want), err.Error())
			lines := strconv.Itoa(c.line + 2)
			if c.orLine > 0 {
				lines = "(" + lines + "|" + strconv.Itoa(c.orLine+2) + ")"
			}
			assert.Regexp(t, regexp.MustCompile(`^k\.py:`+lines+`:`), err.Error(), "placed at the line that tried")
			assert.NotContains(t, err.Error()+stderr.String(), "root:", "nothing of /etc/passwd")
			assert.Equal(t, 2, hosteval.ExitCode(err), "a refusal is the input's fault")
		})
	}
	_, err := os.Stat(target)
	assert.True(t, os.IsNotExist(err), "no file was written")
}

// A refusal can be caught, as Python code catches an ImportError, and
// then has had no effect.
func TestBoundaryRefusalCaught(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "written")
	h, sf, _ := hostSession(t, "\n\ndef f():\n    try:\n        open("+quote(target)+", 'w').write('x')\n    except OSError as e:\n        return str(e)\n", Host{})
	v, err := h.eval("f()", sf.File.Host["f"].Pos, "calling f()")
	require.NoError(t, err)
	got, err := fromPy(v)
	require.NoError(t, err)
	assert.Contains(t, got.Str, "open() is refused")
	_, err = os.Stat(target)
	assert.True(t, os.IsNotExist(err))
}

// The heap limit stops code that grows a value step by step, each step
// within the size limits; the limit is lowered for the test.
func TestBoundaryHeap(t *testing.T) {
	for _, body := range []string{
		"    x = []\n    while True:\n        x.append([0] * 1000)\n",
		"    x = []\n    while True:\n        x.append([0] * 100000)\n",
		"    x = []\n    for i in range(1000):\n        x.append([i] * 1000000)\n",
	} {
		h, sf, _ := hostSession(t, "\n\ndef f():\n"+body, Host{})
		h.guard.maxHeap = 64 << 20
		_, err := h.eval("f()", sf.File.Host["f"].Pos, "calling f()")
		require.Error(t, err)
		assert.Regexp(t, `^k\.py:[56]:\d+: calling f\(\): (MemoryError: )?host code holds more than 64 MiB`, err.Error())
	}
}

// --allow-host-io gives host code open and eval back; the limits stay.
func TestBoundaryAllowIO(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "written")
	src := "\n\ndef f():\n    open(" + quote(target) + ", 'w').write('x')\n    return eval('1 + 1')\n\n\ndef g():\n    return g()\n"
	h, sf, _ := hostSession(t, src, Host{AllowIO: true})
	v, err := h.eval("f()", sf.File.Host["f"].Pos, "calling f()")
	require.NoError(t, err)
	got, _ := fromPy(v)
	assert.Equal(t, "2", got.String())
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "x", string(data))
	_, err = h.eval("g()", sf.File.Host["g"].Pos, "calling g()")
	assert.ErrorContains(t, err, "recursed deeper than")
}

// print escapes control characters: host code cannot clear the screen or
// reorder the terminal's text.
func TestBoundaryPrintEscapes(t *testing.T) {
	h, sf, stderr := hostSession(t, "\n\ndef f():\n    print('a\\x1b[2J', 'b\\u202ec\\x07', sep='\\r', end='|\\n')\n    print('tab\\tok')\n", Host{})
	_, err := h.eval("f()", sf.File.Host["f"].Pos, "calling f()")
	require.NoError(t, err)
	assert.Equal(t, "a\\x1b[2J\\x0db\\u202ec\\x07|\ntab\tok\n", stderr.String())
}

// The message of an exception that host code raises is escaped too: it
// is printed in tri's error.
func TestBoundaryErrorEscapes(t *testing.T) {
	err, _ := callF(t, "\n\ndef f():\n    raise ValueError('\\x1b[2Jgone')\n", Host{})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "\x1b")
	assert.Contains(t, err.Error(), `ValueError: \x1b[2Jgone`)
}

// After a timeout the goroutine that ran the code ends: it does not spin
// on in the background.
func TestBoundaryTimeoutLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	// The timeout also bounds starting the interpreter, which the race
	// detector slows: it leaves room for that.
	for range 3 {
		err, _ := callF(t, "\n\ndef f():\n    while True:\n        pass\n", Host{Timeout: 500 * time.Millisecond})
		require.ErrorContains(t, err, "ran longer than --timeout 500ms")
	}
	assert.True(t, settles(before), "goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

// Host.Done stops an evaluation before its timeout, and its goroutine
// ends.
func TestBoundaryCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	done := make(chan struct{})
	h, sf, _ := hostSession(t, "\n\ndef f():\n    x = 0\n    while True:\n        x += 1\n", Host{Timeout: time.Minute, Done: done})
	// Stopped once the interpreter has started, whatever that took.
	time.AfterFunc(50*time.Millisecond, func() { close(done) })
	start := time.Now()
	_, err := h.eval("f()", sf.File.Host["f"].Pos, "calling f()")
	require.Error(t, err)
	assert.Regexp(t, `^k\.py:5:5: calling f\(\): host code was stopped at --timeout`, err.Error())
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.True(t, settles(before), "goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

// settles waits a little for the goroutine count to come back to n.
func settles(n int) bool {
	for range 100 {
		if runtime.NumGoroutine() <= n {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// gpython exposes none of the attributes through which Python code walks
// from an object to the builtins or to other classes; if a new version of
// gpython adds one, the boundary must be looked at again.
func TestBoundaryIntrospection(t *testing.T) {
	for _, expr := range []string{"().__class__", "(1).__class__", "f.__globals__", "f.__closure__", "f.__code__.co_code",
		"f.__code__.co_consts", "type(f)(f.__code__, {})", "type(f.__code__)(0, 0, 0, 0, 0, b'', (), (), (), '', '', 0, b'')", "print.__self__",
		"type(print).__dict__", "object.__subclasses__", "type.__subclasses__", "__builtins__", "vars", "dir", "breakpoint", "help"} {
		h, sf, _ := hostSession(t, "\n\ndef f():\n    pass\n", Host{})
		_, err := h.eval(expr, sf.File.Host["f"].Pos, "test")
		assert.Error(t, err, "%s is reachable", expr)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, `\`, `\\`) + "'" }
