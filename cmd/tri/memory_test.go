package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMaxMemory: a kernel that keeps many large tiles alive, or a --let
// that binds more than the budget, ends in a placed error that says how to
// raise the budget, not in the Go runtime's fatal out-of-memory.
func TestMaxMemory(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"live tiles", []string{"hoard[(1,)](out, 2**16)", "--let", "out=empty(2**16)", "--max-memory", "64MiB"}, 1,
			[]string{"hoard.tri:12:21: interpreting hoard: this splat's result (512 KiB) takes the run past its memory budget of 64 MiB", "--max-memory"}},
		{"within the budget", []string{"hoard[(1,)](out, 2**10)", "--let", "out=empty(2**10)", "--max-memory", "64MiB"}, 0, nil},
		{"tensors of --let", []string{"hoard[(1,)](out, 2**16)", "--let", "out=empty(2**24)", "--max-memory", "16MiB"}, 1,
			[]string{"--let out:1:5: the tensors bound so far take 64 MiB, more than the memory budget of 16 MiB", "--max-memory"}},
		{"bad size", []string{"hoard[(1,)](out, 2**10)", "--let", "out=empty(2**10)", "--max-memory", "lots"}, 2,
			[]string{"--max-memory", "want a positive size such as 8GiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := tri(t, append([]string{"run", "--interpret", "testdata/hoard.tri"}, tc.args...)...)
			assert.Equal(t, tc.code, code, stderr)
			for _, w := range tc.want {
				assert.Contains(t, stderr, w)
			}
		})
	}
}
