package launch

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeArchive writes the files of a txtar archive (lines "-- name --"
// start each file; the text before the first is a comment) under dir and
// returns the comment.
func writeArchive(t *testing.T, dir, archive string) string {
	t.Helper()
	var comment, body strings.Builder
	name := ""
	flush := func() {
		if name == "" {
			return
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(body.String()), 0o644))
	}
	for _, line := range strings.SplitAfter(archive, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			flush()
			name = strings.TrimSpace(trimmed[3 : len(trimmed)-3])
			body.Reset()
			continue
		}
		if name == "" {
			comment.WriteString(line)
			continue
		}
		body.WriteString(line)
	}
	flush()
	return comment.String()
}

// TestModuleValues: each case of testdata/modvalues is a package whose
// kernel pkg/k.py stores one module-level value. The comment's "want:"
// line is what CPython stores (each case was run under CPython with a
// stand-in for triton.jit and tl.store); the interpreter must store it and
// tri build must write it in the CUDA. An "error:" line instead is the
// start of the placed error that tri run and tri build must give, where
// Python raises or tri cannot know the value.
func TestModuleValues(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "modvalues", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c), ".txtar"), func(t *testing.T) {
			src, err := os.ReadFile(c)
			require.NoError(t, err)
			dir := t.TempDir()
			comment := writeArchive(t, dir, string(src))
			path := filepath.Join(dir, "pkg", "k.py")
			var stderr bytes.Buffer
			if _, wantErr, ok := strings.Cut(comment, "error: "); ok {
				wantErr, _, _ = strings.Cut(wantErr, "\n")
				// $DIR/ in the line stands for the case's folder, where
				// the message names a second place (a host error's line).
				wantErr = strings.ReplaceAll(wantErr, "$DIR/", dir+string(filepath.Separator))
				wantErr = filepath.Join(dir, filepath.FromSlash(wantErr))
				_, err := Prepare(path, "", &Options{Interpret: true, Stderr: &stderr})
				require.Error(t, err)
				assert.Contains(t, err.Error(), wantErr)
				err = BuildFile(path, "", &Options{Stdout: &bytes.Buffer{}, Stderr: &stderr})
				require.Error(t, err)
				assert.Contains(t, err.Error(), wantErr)
				return
			}
			_, wantText, ok := strings.Cut(comment, "want: ")
			require.True(t, ok, "the case says what Python stores")
			wantText, _, _ = strings.Cut(wantText, "\n")
			want, err := strconv.ParseFloat(wantText, 64)
			require.NoError(t, err)

			p, err := Prepare(path, "", &Options{Interpret: true, Stderr: &stderr})
			require.NoError(t, err)
			require.NoError(t, p.Interpret(time.Minute))
			v, ok := p.Env.Lookup("out")
			require.True(t, ok)
			assert.Equal(t, want, v.Tensor.Float(0), "interpreter")

			var cuda bytes.Buffer
			require.NoError(t, BuildFile(path, "", &Options{Stdout: &cuda, Stderr: &stderr}))
			store := ""
			for _, line := range strings.Split(cuda.String(), "\n") {
				if strings.Contains(line, "*out = ") {
					store = strings.NewReplacer("(", "", ")", "").Replace(strings.TrimSpace(line))
				}
			}
			assert.Contains(t, store, "*out = "+cudaFloat(want), "the CUDA stores Python's value")
		})
	}
}

// cudaFloat writes a float32 constant as the CUDA of a store of it spells
// it.
func cudaFloat(f float64) string {
	s := strconv.FormatFloat(float64(float32(f)), 'g', -1, 32)
	if !strings.ContainsAny(s, ".eE") && !math.IsInf(f, 0) {
		s += ".0"
	}
	return s + "f"
}
