package sema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPrintPrefix: device_print's prefix as Triton's semantic.device_print
// rewrites it.
func TestPrintPrefix(t *testing.T) {
	tests := []struct {
		prefix  string
		hasArgs bool
		want    string
	}{
		{"x", true, " x: "},
		{"x: ", true, " x: "},
		{"x:", true, " x: "},
		{"", true, ": "},
		{" y=", true, " y=: "},
		{"a b", true, " a b: "},
		{"hello", false, " hello"},
		{"hi", false, "hi"},
		{"", false, ""},
		{" value: ", true, " value: "},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, printPrefix(tc.prefix, tc.hasArgs), "%q args=%v", tc.prefix, tc.hasArgs)
	}
}
