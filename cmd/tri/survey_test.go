package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSurvey(t *testing.T) {
	csvPath := filepath.Join(t.TempDir(), "s.csv")
	out, stderr, code := tri(t, "survey", "../../survey/testdata/proj", "--csv", csvPath, "--jobs", "2", "--arch", "sm_80")
	require.Equal(t, 0, code, stderr)
	// The counts are survey's to test (survey.TestRun); here, that the
	// command prints the report, its progress and the CSV.
	assert.Regexp(t, `\d+ of \d+ kernels build \(\d+\.\d%\) for sm_80`, out)
	assert.Contains(t, out, "tl.dot_scaled unsupported")
	m := regexp.MustCompile(`survey: (\d+)/(\d+) files`).FindStringSubmatch(stderr)
	if assert.NotNil(t, m, stderr) {
		assert.Equal(t, m[1], m[2], "every file is surveyed")
	}
	b, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	assert.Contains(t, string(b), "broken/syntax.py,6,broken_kernel,failed,parse,")
}

func TestSurveyBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"survey", "../../survey/testdata/proj/broken/syntax.py"},
		{"survey", "no-such-folder"},
		{"survey", "../../survey/testdata/proj", "--jobs", "0"},
		{"survey", "../../survey/testdata/proj", "--timeout", "0s"},
		{"survey", "../../survey/testdata/proj", "--arch", "gfx90a"},
	} {
		_, _, code := tri(t, args...)
		assert.Equal(t, 2, code, args)
	}
}
