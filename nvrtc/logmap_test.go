package nvrtc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// lineMap maps lines 3-5 of a generated file to add.tri:7 and 6-7 to
// add.tri:8, as a generator's line map would.
func lineMap(cuLine int) (string, int, bool) {
	switch {
	case cuLine >= 3 && cuLine <= 5:
		return "add.tri", 7, true
	case cuLine == 6 || cuLine == 7:
		return "add.tri", 8, true
	}
	return "", 0, false
}

func TestMapLogToSource(t *testing.T) {
	log := "add.cu(7): error: identifier \"y\" is undefined\n" +
		"add.tri(9): error: already a .tri line\n" +
		"add.cu(1): warning: unmapped line\n" +
		"1 error detected in the compilation of \"add.cu\".\n"
	want := "add.tri:8: error: identifier \"y\" is undefined (add.cu:7)\n" +
		"add.tri(9): error: already a .tri line\n" +
		"add.cu(1): warning: unmapped line\n" +
		"1 error detected in the compilation of \"add.cu\".\n"
	assert.Equal(t, want, MapLogToSource(log, "add.cu", lineMap))
}
