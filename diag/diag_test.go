package diag

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorFormat(t *testing.T) {
	d := Errorf(Pos{File: "k.tri", Line: 3, Col: 7}, CodeType, "bad %s", "thing")
	assert.Equal(t, "k.tri:3:7: bad thing", d.Error())
	w := Warnf(Pos{File: "k.tri", Line: 3}, CodeUnsupported, "odd")
	assert.Equal(t, "k.tri:3: warning: odd", w.Error())
	assert.Equal(t, "missing.npy: gone", Errorf(Pos{File: "missing.npy"}, CodeIO, "gone").Error())
}

func TestListCapsAndSorts(t *testing.T) {
	var l List
	for i := 20; i > 0; i-- {
		l.Errorf(Pos{File: "f", Line: i, Col: 1}, CodeType, "e%d", i)
	}
	l.Warnf(Pos{File: "f", Line: 1}, CodeType, "w")
	assert.Equal(t, MaxErrors, l.ErrorCount())
	assert.Equal(t, 10, l.Dropped())
	l.Sort()
	assert.Equal(t, 1, l.Items[0].Pos.Line)
	require.Error(t, l.Err())
	var empty List
	assert.NoError(t, empty.Err())
}

func TestRenderCaret(t *testing.T) {
	src := Sources{"k.tri": "a = 1\n\tx = foo(y)\n"}
	d := Errorf(Pos{File: "k.tri", Line: 2, Col: 6}, CodeUndefined, "undefined: foo")
	d.End = Pos{File: "k.tri", Line: 2, Col: 9}
	d.WithSuggestion("did you mean %q?", "for")
	var b bytes.Buffer
	Render(&b, d, src)
	want := "k.tri:2:6: undefined: foo\n" +
		"        x = foo(y)\n" +
		"            ^^^\n" +
		"\thint: did you mean \"for\"?\n"
	assert.Equal(t, want, b.String())
}

func TestRenderLongLine(t *testing.T) {
	line := strings.Repeat("a", 5000) + "X" + strings.Repeat("b", 5000)
	var b strings.Builder
	Render(&b, Errorf(Pos{File: "k.tri", Line: 1, Col: 5001}, CodeSyntax, "here"), Sources{"k.tri": line})
	lines := strings.Split(b.String(), "\n")
	require.Len(t, lines, 4)
	assert.Less(t, len(lines[1]), 140)
	assert.Equal(t, "X", string(lines[1][strings.Index(lines[2], "^")]))
}

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{0, "0 elements"}, {1, "1 element"}, {2, "2 elements"}, {-1, "-1 elements"}} {
		assert.Equal(t, tt.want, Count(tt.n, "element"))
	}
}

func TestClosest(t *testing.T) {
	names := []string{"len", "range", "arange", "BLOCK_SIZE", "num_warps", "x"}
	for _, tt := range []struct{ name, want string }{
		{"helper", ""},
		{"lenn", "len"},
		{"arnge", "arange"},
		{"BLOCK_SZE", "BLOCK_SIZE"},
		{"num_warp", "num_warps"},
		{"y", "x"},
		{"rng", ""},
	} {
		assert.Equal(t, tt.want, Closest(tt.name, names), tt.name)
	}
}
