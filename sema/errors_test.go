package sema

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/ir"
)

var errorMark = regexp.MustCompile(`# ERROR "((?:[^"\\]|\\.)*)"`)

// parseTestSig reads "*fp32, i32, 1024, 'relu', tl.float16, None" for a
// kernel whose parameters are given.
func parseTestSig(t *testing.T, fn *frontend.Func, text string) Signature {
	t.Helper()
	var s Signature
	for i, e := range strings.Split(text, ",") {
		e = strings.TrimSpace(e)
		require.Less(t, i, len(fn.Params), "too many signature entries")
		var a Arg
		switch {
		case e == "None":
			a = Arg{Kind: ArgNone}
		case e == ":1":
			a = Arg{Kind: ArgOne}
		case strings.HasPrefix(e, "'"):
			a = cStr(strings.Trim(e, "'"))
		case strings.HasPrefix(e, "tl."):
			d, ok := ir.ParseDType(e)
			require.True(t, ok, e)
			a = cDType(d)
		default:
			if n, err := strconv.ParseInt(e, 10, 64); err == nil {
				a = cInt(n)
			} else if f, err := strconv.ParseFloat(e, 64); err == nil && strings.ContainsAny(e, ".e") {
				a = Arg{Kind: ArgConstexpr, Value: Constexpr{Kind: CFloat, Float: f}}
			} else {
				d, ok := ir.ParseDType(e)
				require.True(t, ok, e)
				a = Arg{Kind: ArgRuntime, DType: d}
			}
		}
		s.Args = append(s.Args, a)
	}
	return s
}

// TestErrors runs each testdata/errors/*.tri file: files with a
// "# sig: KERNEL ENTRIES" line are specialized, others checked with
// Check. Exactly the lines marked # ERROR "regexp" must get errors, each
// matching its regexp.
func TestErrors(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.tri")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			f, d := frontend.Parse(path, src)
			require.NoError(t, d.Err(), "parse")
			want := map[int]*regexp.Regexp{}
			var sigLine string
			for i, line := range strings.Split(string(src), "\n") {
				if m := errorMark.FindStringSubmatch(line); m != nil {
					want[i+1] = regexp.MustCompile(strings.ReplaceAll(m[1], `\"`, `"`))
				}
				if rest, ok := strings.CutPrefix(line, "# sig: "); ok {
					sigLine = rest
				}
			}
			var diags *diag.List
			if sigLine == "" {
				diags = Check(f)
			} else {
				name, entries, _ := strings.Cut(sigLine, " ")
				fn := f.Func(name)
				require.NotNil(t, fn, name)
				k, ds := Specialize(f, name, parseTestSig(t, fn, entries))
				diags = ds
				if k != nil {
					require.NoError(t, ir.Verify(k))
				}
			}
			got := map[int]bool{}
			for _, d := range diags.Items {
				if d.Severity != diag.Error {
					continue
				}
				re, ok := want[d.Pos.Line]
				if !assert.True(t, ok, "unexpected error: %s", d.Error()) {
					continue
				}
				assert.Regexp(t, re, d.Message, "line %d", d.Pos.Line)
				got[d.Pos.Line] = true
			}
			for line, re := range want {
				assert.True(t, got[line], "line %d: no error matching %q", line, re)
			}
		})
	}
}
