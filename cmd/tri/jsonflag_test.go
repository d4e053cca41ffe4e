package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/gpu"
)

// jsonLines decodes stderr's JSON lines; every line must be one.
func jsonLines(t *testing.T, stderr string) []diag.JSON {
	t.Helper()
	var out []diag.JSON
	for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line == "" {
			continue
		}
		var j diag.JSON
		require.NoError(t, json.Unmarshal([]byte(line), &j), "not a JSON line: %q", line)
		out = append(out, j)
	}
	return out
}

// TestJSONDiagnostics: check, build and run with --json write each
// diagnostic of real bad inputs as one JSON object on stderr, notes with
// their positions, with the exit code the same as without --json.
func TestJSONDiagnostics(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	add, err := os.ReadFile("../../samples/add.tri")
	require.NoError(t, err)
	bad := file("bad.tri", "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x):\n    y = tl.dot_scaled\n    z = tl.fp32\n")
	syntax := file("syntax.tri", "import triton\n\n@triton.jit\ndef k(x):\n    z = (\n")
	block := file("block.tri", strings.Replace(string(add), "BLOCK_SIZE=1024)", "BLOCK_SIZE=1000)", 1))

	for _, c := range []struct {
		name string
		args []string
		want []diag.JSON
	}{
		{"check: a warning and an error with a suggestion", []string{"check", bad}, []diag.JSON{
			{File: bad, Line: 6, Column: 9, Severity: "warning", Code: diag.CodeUnsupported, Message: "tl.dot_scaled is not supported by tri yet", Notes: []diag.JSONNote{}},
			{File: bad, Line: 7, Column: 9, Severity: "error", Code: diag.CodeUndefined, Message: "tl has no attribute fp32 (Triton 3.6 rejects it too)", Notes: []diag.JSONNote{}, Suggestion: "did you mean tl.float32?"},
		}},
		{"check: a syntax error", []string{"check", syntax}, []diag.JSON{
			{File: syntax, Line: 5, Column: 10, Severity: "error", Code: diag.CodeSyntax, Message: "syntax error: unexpected EOF while parsing", Notes: []diag.JSONNote{}},
		}},
		{"build: a meta-parameter's error with its note", []string{"build", block}, []diag.JSON{
			{File: block, Line: 4, Column: 64, Severity: "error", Code: diag.CodeValue, Message: "BLOCK_SIZE=1000: tl.arange(0, 1000): arange's range must be a power of 2, got 1000",
				Notes: []diag.JSONNote{{File: block, Line: 23, Column: 29, Message: "BLOCK_SIZE reaches the kernel's code here"}}},
		}},
		{"run: a launch line's unbound name", []string{"run", "--interpret", block, "add_kernel[(1,)](x, y, output, n, BLOCK_SIZE=64)"}, []diag.JSON{
			{File: "launch", Line: 1, Column: 18, Severity: "error", Code: diag.CodeLaunch, Message: "name 'x' is not bound; bind it with --let x=...", Notes: []diag.JSONNote{}},
		}},
		{"run: a missing file", []string{"run", filepath.Join(dir, "none.tri")}, []diag.JSON{
			{Severity: "error", Code: diag.CodeUsage, Message: filepath.Join(dir, "none.tri") + ": no such file", Notes: []diag.JSONNote{}},
		}},
		{"run: an unknown flag, before --json is read", []string{"run", block, "--bogus", "--json"}, []diag.JSON{
			{Severity: "error", Code: diag.CodeUsage, Message: "unknown flag: --bogus", Notes: []diag.JSONNote{}},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var plainArgs []string
			for _, a := range c.args {
				if a != "--json" {
					plainArgs = append(plainArgs, a)
				}
			}
			_, plain, plainCode := tri(t, plainArgs...)
			args := c.args
			if len(plainArgs) == len(args) {
				args = append([]string{args[0], "--json"}, args[1:]...)
			}
			_, stderr, code := tri(t, args...)
			assert.Equal(t, plainCode, code, "the exit code is as without --json")
			assert.NotZero(t, code)
			assert.NotContains(t, plain, `{"file"`)
			assert.Equal(t, c.want, jsonLines(t, stderr))
		})
	}
}

// TestJSONNoGPU: without a GPU, run --json reports one object of code
// no-gpu with the way to run anyway as its suggestion.
func TestJSONNoGPU(t *testing.T) {
	if _, err := gpu.Device(); err == nil {
		t.Skip("a GPU is present")
	}
	_, stderr, code := tri(t, "run", "--json", "../../samples/add.tri")
	assert.Equal(t, 1, code)
	got := jsonLines(t, stderr)
	require.Len(t, got, 1)
	assert.Equal(t, diag.CodeNoGPU, got[0].Code)
	assert.Contains(t, got[0].Message, "no GPU")
	assert.Contains(t, got[0].Suggestion, "--interpret")
}

// TestJSONHelp: each command that takes --json says where the objects go.
func TestJSONHelp(t *testing.T) {
	for _, cmd := range []string{"check", "build", "run"} {
		out, _, code := tri(t, cmd, "--help")
		require.Equal(t, 0, code)
		assert.Contains(t, out, "--json", cmd)
		assert.Contains(t, out, "errors and warnings on stderr as JSON", cmd)
	}
}

// TestJSONWarningsOnSuccess: the warnings of a command that succeeds are
// JSON lines too, and stdout keeps what it holds without --json.
func TestJSONWarningsOnSuccess(t *testing.T) {
	p := filepath.Join(t.TempDir(), "warn.tri")
	require.NoError(t, os.WriteFile(p, []byte("import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x):\n    y = tl.dot_scaled\n"), 0o644))
	out, stderr, code := tri(t, "check", "--json", p)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "no errors")
	assert.Equal(t, []diag.JSON{{File: p, Line: 6, Column: 9, Severity: "warning", Code: diag.CodeUnsupported, Message: "tl.dot_scaled is not supported by tri yet", Notes: []diag.JSONNote{}}}, jsonLines(t, stderr))
}
