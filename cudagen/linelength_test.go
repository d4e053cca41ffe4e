package cudagen_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxLine is the longest line the generated CUDA may have, inline-asm
// statements aside: longer sub-expressions are bound to named locals and
// long comments wrapped, as a person would write the CUDA.
const maxLine = 160

// longLines returns the lines of src over maxLine characters, outside the
// inline-asm statements (an asm( or asm volatile( up to the parenthesis
// that closes it, on as many lines as it takes), as "N: line".
func longLines(src string) []string {
	var out []string
	depth := 0 // the parentheses the asm statement being read has open; 0 outside one
	for i, l := range strings.Split(src, "\n") {
		if depth == 0 {
			k := strings.Index(l, "asm(")
			if k < 0 {
				k = strings.Index(l, "asm volatile(")
			}
			if k >= 0 {
				depth = max(strings.Count(l[k:], "(")-strings.Count(l[k:], ")"), 0)
				continue
			}
		} else {
			depth = max(depth+strings.Count(l, "(")-strings.Count(l, ")"), 0)
			continue
		}
		if len(l) > maxLine {
			out = append(out, fmt.Sprintf("%d: %s", i+1, l))
		}
	}
	return out
}

// TestLongLines: longLines finds a long line, and lets an asm statement
// (on one line or several) and short lines pass.
func TestLongLines(t *testing.T) {
	long := strings.Repeat("x", maxLine+1)
	assert.Equal(t, []string{"2: " + long}, longLines("int a;\n"+long+"\n"))
	assert.Empty(t, longLines(strings.Repeat("y", maxLine)))
	assert.Empty(t, longLines(`asm volatile("`+long+`");`))
	assert.Empty(t, longLines("asm(\"mov\"\n  : \""+long+"\"\n  : \"r\"(x));"))
	assert.Equal(t, []string{"3: " + long}, longLines("asm(\"mov\"\n  : \"=r\"(x));\n"+long))
}

// TestLineLength builds every sample and construct kernel for sm_90a and
// for sm_80 (or the later target its "# arch:" line asks for) and fails
// on a generated line over maxLine characters outside inline-asm
// statements, printing it.
func TestLineLength(t *testing.T) {
	for dir, files := range kernelFiles(t) {
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".tri")
			for _, arch := range []string{"sm_90a", fileArch(t, f)} {
				t.Run(dir+"/"+name+"/"+arch, func(t *testing.T) {
					src, err := build(t, f, arch)
					require.NoError(t, err)
					for _, l := range longLines(src) {
						t.Errorf("%s at %s: a line over %d characters:\n%s", f, arch, maxLine, l)
					}
				})
			}
		}
	}
}
