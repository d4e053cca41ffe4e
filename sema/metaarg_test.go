package sema

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
)

// TestMetaArgErrorsAtLaunch: a size check that a meta-parameter given on
// the launch fails is reported where the launch gives it, with a note at
// the kernel's line (and the helper calls on the way); the same value from
// elsewhere (no Arg.At) stays at the kernel's line.
func TestMetaArgErrorsAtLaunch(t *testing.T) {
	at := diag.Pos{File: "launch", Line: 1, Col: 40}
	meta := func(n int64) Arg { a := cInt(n); a.At = at; return a }
	// Each kernel's checked line is its line 3 (after the imports, line 6).
	for _, c := range []struct {
		name, src string
		s         Signature
		msg       string
		notes     int
	}{
		{"arange", "@triton.jit\ndef k(B: tl.constexpr):\n    i = tl.arange(0, B)\n",
			sig(meta(1000)), "B=1000: tl.arange(0, 1000): arange's range must be a power of 2, got 1000", 1},
		{"computed, through a helper", "@triton.jit\ndef h(N: tl.constexpr):\n    return tl.arange(0, N)\n\n@triton.jit\ndef k(C: tl.constexpr):\n    j = h(C // 3)\n",
			sig(meta(30)), "C=30: tl.arange(0, 10): arange's range must be a power of 2, got 10", 2},
		{"shape", "@triton.jit\ndef k(B: tl.constexpr):\n    z = tl.zeros((B * 2, 4), tl.float32)\n",
			sig(meta(3)), "B=3: shape dimension 6 is not a power of 2", 1},
		{"shape too big", "@triton.jit\ndef k(B: tl.constexpr):\n    z = tl.zeros((B, 4), tl.float32)\n",
			sig(meta(1 << 20)), "B=1048576: a block of shape (1048576, 4) has more than", 1},
		{"histogram", "@triton.jit\ndef k(B: tl.constexpr):\n    h = tl.histogram(tl.arange(0, 16), B)\n",
			sig(meta(12)), "B=12: tl.histogram: num_bins must be a power of 2", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := tryCompile(t, c.src, "k", c.s)
			var l *diag.List
			require.True(t, errors.As(err, &l), "%v", err)
			d := l.Items[0]
			assert.Equal(t, at, d.Pos, "placed at the launch")
			assert.Contains(t, d.Message, c.msg)
			require.Len(t, d.Notes, c.notes)
			assert.Equal(t, diag.Pos{File: "k.tri", Line: 3 + 3, Col: d.Notes[0].Pos.Col}, d.Notes[0].Pos, "the note is at the kernel's check")
			assert.Contains(t, d.Notes[0].Message, "reaches the kernel's code here")

			// Without a place on the launch, the error stays in the kernel.
			c.s.Args[0].At = diag.Pos{}
			_, err = tryCompile(t, c.src, "k", c.s)
			require.True(t, errors.As(err, &l))
			assert.Equal(t, "k.tri", l.Items[0].Pos.File)
			assert.NotContains(t, l.Items[0].Message, "=")
		})
	}
}
