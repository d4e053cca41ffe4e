package cudagen_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
)

// errorMark is a "# ERROR LINE:COL REGEXP" comment: the build of the file
// must fail at LINE:COL with a message REGEXP matches.
var errorMark = regexp.MustCompile(`# ERROR (\d+:\d+) (.*)$`)

// TestRefusals builds each kernel of testdata/refusals, which CUDA
// generation cannot lower (a tile inside a combine function, scratch
// shared memory past a program's limit): each fails with the placed error
// its ERROR mark names, never an internal error (both were Go panics
// reported as internal errors).
func TestRefusals(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "refusals", "*.tri"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			var mark []string
			for _, line := range strings.Split(string(src), "\n") {
				if m := errorMark.FindStringSubmatch(line); m != nil {
					mark = m
				}
			}
			require.NotNil(t, mark, "no ERROR mark")
			_, err = build(t, f, "sm_90a")
			require.Error(t, err)
			var code diag.Code
			var d *diag.Diagnostic
			var list *diag.List
			switch {
			case errors.As(err, &d):
				code = d.Code
			case errors.As(err, &list) && len(list.Items) > 0:
				code = list.Items[0].Code
			default:
				t.Fatalf("not a diagnostic: %v", err)
			}
			assert.NotEqual(t, diag.CodeInternal, code, "%v", err)
			assert.NotContains(t, err.Error(), "internal error")
			assert.Contains(t, err.Error(), f+":"+mark[1]+": ")
			assert.Regexp(t, mark[2], err.Error())
		})
	}
}
