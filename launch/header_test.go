package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// addBody is samples/add.tri without its header.
func addBody(t *testing.T) string {
	src, err := os.ReadFile("../samples/add.tri")
	require.NoError(t, err)
	i := strings.Index(string(src), "import triton\n")
	require.Positive(t, i)
	return string(src[i:])
}

// TestHeaderErrorsAtFileLines: a bad "# launch:" or "# let:" line of a file
// is reported at the file's line and column, with that line shown.
func TestHeaderErrorsAtFileLines(t *testing.T) {
	for _, c := range []struct{ header, want, caretLine string }{
		{"# launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024, bogus=3)\n# let: n=100\n# let: x=rand(n)\n# let: y=rand(n)\n# let: output=empty(n)\n",
			"k.tri:1:81: add_kernel() got an unexpected keyword argument 'bogus'", "# launch: add_kernel"},
		{"# launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)\n# let: n=100\n# let: x=rand(n, dtype='nope')\n# let: y=rand(n)\n# let: output=empty(n)\n",
			"k.tri:3:24: unknown dtype \"nope\"", "# let: x=rand"},
		{"# launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024,,)\n",
			"k.tri:1:", "# launch: add_kernel"},
		{"#   let:   n=2**64\n# launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)\n",
			"k.tri:1:14: integer 18446744073709551616 does not fit in 64 bits", "#   let:   n=2**64"},
	} {
		path := filepath.Join(t.TempDir(), "k.tri")
		require.NoError(t, os.WriteFile(path, []byte(c.header+addBody(t)), 0o644))
		err := RunFile(path, "", &Options{Interpret: true})
		require.Error(t, err)
		assert.Equal(t, 2, hosteval.ExitCode(err))
		var out bytes.Buffer
		hosteval.PrintError(&out, err)
		text := strings.ReplaceAll(out.String(), path, "k.tri")
		assert.Contains(t, text, c.want)
		assert.Contains(t, text, c.caretLine)
		assert.NotContains(t, text, "launch:1:")
		assert.NotContains(t, text, "--let")
	}
}

// TestHeaderWithBOMAndLongLines: a UTF-8 byte order mark and comment lines
// over 1 MiB do not hide the header's launch.
func TestHeaderWithBOMAndLongLines(t *testing.T) {
	src, err := os.ReadFile("../samples/add.tri")
	require.NoError(t, err)
	for name, text := range map[string]string{
		"bom":  "\uFEFF" + string(src),
		"long": "# " + strings.Repeat("x", 3<<20) + "\n" + string(src),
	} {
		path := filepath.Join(t.TempDir(), "k.tri")
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		s, err := ReadSample(path)
		require.NoError(t, err, name)
		assert.Equal(t, "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)", s.Launch, name)
		assert.NoError(t, RunFile(path, "", &Options{Interpret: true}), name)
	}
	// The launch's column on a first line after a BOM counts the BOM's bytes.
	s, err := ParseSampleHeader("k.tri", []byte("\uFEFF# launch: k[(1,)]()\n"))
	require.NoError(t, err)
	assert.Equal(t, 14, s.LaunchPos.Col)
}

// TestHeaderAfterDocstring: the header's comment lines go on after a
// module docstring, in any of Python's spellings of one; a "# launch:"
// line that is not in the header is not taken, and the error says why.
func TestHeaderAfterDocstring(t *testing.T) {
	const header = "# launch: k[(1,)](x)\n# let: x=zeros(4)\n"
	for name, src := range map[string]string{
		"one line":       "\"\"\"Adds vectors.\"\"\"\n" + header,
		"several lines":  "#!/usr/bin/env python\n\"\"\"Adds vectors.\n\n# not a header: launch: no\n\"\"\"\n\n" + header,
		"single quotes":  "'''Adds.'''  # a comment\n" + header,
		"raw, escaped":   "r\"\"\"a \\\"\"\" b\"\"\"\n" + header,
		"short string":   "'Adds.'\n" + header,
		"continued":      "'Adds \\\nvectors.'\n" + header,
		"around the doc": "# launch: k[(1,)](x)\n\"\"\"Doc.\"\"\"\n# let: x=zeros(4)\n",
	} {
		s, err := ParseSampleHeader("k.py", []byte(src+"import triton\n"))
		if assert.NoError(t, err, name) {
			assert.Equal(t, "k[(1,)](x)", s.Launch, name)
			assert.Equal(t, []string{"x=zeros(4)"}, s.Lets, name)
		}
	}
	for name, c := range map[string]struct{ src, want string }{
		"after import": {"\"\"\"Doc.\"\"\"\nimport triton\n" + header,
			"(the one on line 3 comes after the first statement, on line 2, where the header ends: move it above)"},
		"in the docstring": {"\"\"\"Doc.\n\n" + header + "\"\"\"\nimport triton\n",
			"(the one on line 3 is inside the module docstring, which is text, not comments"},
		"second string": {"\"\"\"Doc.\"\"\"\n\"\"\"More.\"\"\"\n" + header,
			"(the one on line 3 comes after the first statement, on line 2"},
		"doc then code": {"\"\"\"Doc.\"\"\"; import triton\n" + header,
			"(the one on line 2 comes after the first statement, on line 1"},
	} {
		_, err := ParseSampleHeader("k.py", []byte(c.src))
		assert.ErrorContains(t, err, "k.py: no '# launch:' line in the file's leading comments "+c.want, name)
	}

	// A real run takes the header after the docstring, and reports its
	// errors at the file's lines.
	path := filepath.Join(t.TempDir(), "k.py")
	body := "\"\"\"Vector addition.\n\nAs in Triton's tutorial 01.\n\"\"\"\n" +
		"# launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)\n" +
		"# let: n=100\n# let: x=rand(n)\n# let: y=rand(n)\n# let: output=empty(n, dtype='nope')\n"
	require.NoError(t, os.WriteFile(path, []byte(body+addBody(t)), 0o644))
	err := RunFile(path, "", &Options{Interpret: true})
	require.Error(t, err)
	var out bytes.Buffer
	hosteval.PrintError(&out, err)
	assert.Contains(t, out.String(), path+":9:")
	assert.Contains(t, out.String(), `unknown dtype "nope"`)
}
