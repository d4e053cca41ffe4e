package launch

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPackageImports: each case of testdata/pkgimports is a package whose
// kernel (pkg/k.py, or the comment's "kernel:" path) runs in the
// interpreter with its recorded launch and builds; its tensor out then
// holds the comment's "want:" value, if it has one (what CPython stores);
// the comment's "warning:" line, with paths relative to the case's folder,
// is a warning both print.
func TestPackageImports(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "pkgimports", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			src, err := os.ReadFile(c)
			require.NoError(t, err)
			dir := t.TempDir()
			comment := writeArchive(t, dir, string(src))
			path := filepath.Join(dir, "pkg", "k.py")
			if _, k, ok := strings.Cut(comment, "kernel: "); ok {
				k, _, _ = strings.Cut(k, "\n")
				path = filepath.Join(dir, filepath.FromSlash(k))
			}
			var stderr bytes.Buffer
			p, err := Prepare(path, "", &Options{Interpret: true, Stderr: &stderr})
			require.NoError(t, err)
			require.NoError(t, p.Interpret(time.Minute))
			if _, want, ok := strings.Cut(comment, "want: "); ok {
				want, _, _ = strings.Cut(want, "\n")
				v, ok := p.Env.Lookup("out")
				require.True(t, ok)
				assert.Equal(t, want, strconv.FormatFloat(v.Tensor.Float(0), 'g', -1, 64))
			}
			require.NoError(t, BuildFile(path, "", &Options{Stdout: &bytes.Buffer{}, Stderr: &stderr}))
			if _, want, ok := strings.Cut(comment, "warning: "); ok {
				want, _, _ = strings.Cut(want, "\n")
				assert.Contains(t, stderr.String(), filepath.Join(dir, filepath.FromSlash(want)))
			}
		})
	}
}
