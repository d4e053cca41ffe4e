package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withBackslashComments appends a "# \" comment to every source line of a
// kernel file, leaving alone the header's comment lines (they hold the
// launch) and lines that already continue with a backslash.
func withBackslashComments(src string) string {
	lines := strings.Split(src, "\n")
	header := true
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if header && (t == "" || strings.HasPrefix(t, "#")) {
			continue
		}
		header = false
		if strings.HasSuffix(t, "\\") {
			continue
		}
		lines[i] = l + "  # \\"
	}
	return strings.Join(lines, "\n")
}

var (
	reBlockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	reLineComment  = regexp.MustCompile(`//[^\n]*`)
	reLineDirect   = regexp.MustCompile(`(?m)^#line [^\n]*\n`)
	reBlankLines   = regexp.MustCompile(`\n\s*\n+`)
)

// codeOnly is CUDA text less its comments and #line directives, with
// backslash-newline splices applied first, as the C preprocessor does: a
// comment that swallowed the next line shows as a difference.
func codeOnly(cuda string) string {
	cuda = strings.ReplaceAll(cuda, "\\\n", "")
	cuda = reLineDirect.ReplaceAllString(cuda, "")
	cuda = reBlockComment.ReplaceAllString(cuda, "")
	cuda = reLineComment.ReplaceAllString(cuda, "")
	return reBlankLines.ReplaceAllString(cuda, "\n")
}

func buildText(t *testing.T, name, src string, lineInfo bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	var out bytes.Buffer
	require.NoError(t, BuildFile(path, "", &Options{Arch: "sm_90a", LineInfo: lineInfo, Stdout: &out}))
	return out.String()
}

// TestBackslashCommentsKeepCode: a source line ending in a backslash (a
// Python comment ending in one, say) is quoted in a comment of the generated
// CUDA; the code of every sample and construct kernel must not change.
func TestBackslashCommentsKeepCode(t *testing.T) {
	files, err := filepath.Glob("../samples/*.tri")
	require.NoError(t, err)
	more, err := filepath.Glob("../conformance/constructs/*.tri")
	require.NoError(t, err)
	files = append(files, more...)
	require.Greater(t, len(files), 20)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(strings.TrimSuffix(name, ".tri"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, lineInfo := range []bool{false, true} {
				plain := buildText(t, name, string(src), lineInfo)
				marked := buildText(t, name, withBackslashComments(string(src)), lineInfo)
				require.Contains(t, marked, "# \\", "the marked source is quoted")
				assert.Equal(t, codeOnly(plain), codeOnly(marked), "line info %v", lineInfo)
			}
		})
	}
}

// TestLineContinuationKeepsCode: an expression continued over two lines
// with a backslash compiles to the code of its one-line form.
func TestLineContinuationKeepsCode(t *testing.T) {
	const one = `# launch: k[(2,)](x, 256, BLOCK=128)
# let: x=zeros(256)
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x_ptr += offs
    tl.store(x_ptr, offs * 2.0, mask=offs < n)
`
	two := strings.Replace(one, "x_ptr += offs", "x_ptr += \\\n        offs", 1)
	require.NotEqual(t, one, two)
	assert.Equal(t, codeOnly(buildText(t, "k.tri", one, false)), codeOnly(buildText(t, "k.tri", two, false)))
}

// TestCommentSafeFileName: a file name with a quote, a backslash and a
// newline is quoted safely in comments and #line directives.
func TestCommentSafeFileName(t *testing.T) {
	src, err := os.ReadFile("../samples/add.tri")
	require.NoError(t, err)
	plain := buildText(t, "add.tri", string(src), true)
	odd := buildText(t, "a\"d\\d\n.tri", string(src), true)
	assert.Equal(t, codeOnly(plain), codeOnly(odd))
	assert.Contains(t, odd, `#line`)
	assert.Contains(t, odd, `d\\d\012.tri"`)
}
