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

// TestMetaArgErrorAtLaunch: BLOCK_SIZE=1000, which tl.arange refuses, is
// reported where it is given (the header's launch line, the launch on the
// command line, the --signature entry), with a note at the kernel's arange.
func TestMetaArgErrorAtLaunch(t *testing.T) {
	const launch = "add_kernel[(triton.cdiv(n, 1000),)](x, y, output, n, BLOCK_SIZE=1000)"
	const cli = "add_kernel[(1,)](x, y, output, n, BLOCK_SIZE=1000)" // not the header's, so not placed there
	header := "# launch: " + launch + "\n# let: n=100\n# let: x=rand(n)\n# let: y=rand(n)\n# let: output=empty(n)\n"
	path := filepath.Join(t.TempDir(), "k.tri")
	require.NoError(t, os.WriteFile(path, []byte(header+addBody(t)), 0o644))
	// The arange is line 14 of the body; the header adds 5 lines.
	const note = "k.tri:19:29: note: BLOCK_SIZE reaches the kernel's code here"
	msg := ": BLOCK_SIZE=1000: tl.arange(0, 1000): arange's range must be a power of 2, got 1000"
	for _, c := range []struct {
		name, at, caretLine string
		run                 func() error
	}{
		{"header", "k.tri:1:64", "    # launch: add_kernel", func() error {
			return RunFile(path, "", &Options{Interpret: true})
		}},
		{"command line", "launch:1:35", "    " + cli, func() error {
			return RunFile(path, cli, &Options{Interpret: true, Lets: []string{"n=100", "x=rand(n)", "y=rand(n)", "output=empty(n)"}})
		}},
		{"signature", "--signature:1:36", "    *fp32:16, *fp32:16, *fp32:16, i32, 1000", func() error {
			return BuildFile(path, "", &Options{Kernel: "add_kernel", Signature: "*fp32:16, *fp32:16, *fp32:16, i32, 1000", Stdout: &bytes.Buffer{}})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			require.Error(t, err)
			assert.Equal(t, 2, hosteval.ExitCode(err))
			var out bytes.Buffer
			hosteval.PrintError(&out, err)
			text := strings.ReplaceAll(out.String(), path, "k.tri")
			lines := strings.Split(text, "\n")
			assert.Equal(t, c.at+msg, lines[0])
			assert.True(t, strings.HasPrefix(lines[1], c.caretLine), "the launch's line is shown: %q", lines[1])
			assert.Contains(t, text, note)
		})
	}
}
