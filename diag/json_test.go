package diag

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteJSON: one object per line for each diagnostic, with its notes'
// positions, the dropped errors counted, and a plain error as one object
// with the code given.
func TestWriteJSON(t *testing.T) {
	var l List
	d := l.Errorf(Pos{File: "k.tri", Line: 4, Col: 9}, CodeValue, "x < 3 & y")
	d.End = Pos{File: "k.tri", Line: 4, Col: 12}
	d.WithNote(Pos{File: "launch", Line: 1, Col: 40}, "given here").WithSuggestion("did you mean y?")
	l.Warnf(Pos{File: "k.tri", Line: 1}, CodeUnsupported, "odd")
	for i := 0; i < MaxErrors+2; i++ {
		l.Errorf(Pos{File: "k.tri", Line: 9}, CodeType, "e%d", i)
	}
	var b bytes.Buffer
	require.NoError(t, WriteJSON(&b, &l, CodeError))
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, MaxErrors+2, "ten errors, a warning, and the count of the dropped")
	assert.Equal(t, `{"file":"k.tri","line":4,"column":9,"end_line":4,"end_column":12,"severity":"error","code":"value","message":"x < 3 & y","notes":[{"file":"launch","line":1,"column":40,"message":"given here"}],"suggestion":"did you mean y?"}`, lines[0])
	assert.Equal(t, `{"file":"k.tri","line":1,"column":0,"severity":"warning","code":"unsupported","message":"odd","notes":[]}`, lines[1])
	var last JSON
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &last))
	assert.Equal(t, CodeTooMany, last.Code)
	assert.Equal(t, "3 more errors not shown", last.Message)

	assert.Error(t, WriteJSON(nil, &l, CodeError), "no writer")
	assert.Equal(t, JSON{Notes: []JSONNote{}}, (*Diagnostic)(nil).JSON())

	b.Reset()
	require.NoError(t, WriteJSON(&b, errors.New("no GPU"), CodeNoGPU))
	assert.Equal(t, `{"file":"","line":0,"column":0,"severity":"error","code":"no-gpu","message":"no GPU","notes":[]}`+"\n", b.String())
}

// TestEveryCodeListed: each Code constant is in Codes, with a meaning, once.
func TestEveryCodeListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "diag.go", nil, 0)
	require.NoError(t, err)
	listed := map[Code]int{}
	for _, c := range Codes {
		listed[c.Code]++
		assert.NotEmpty(t, c.Meaning, c.Code)
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		vs, ok := node.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
			return true
		}
		lit := vs.Values[0].(*ast.BasicLit)
		code, err := strconv.Unquote(lit.Value)
		require.NoError(t, err)
		assert.Equal(t, 1, listed[Code(code)], "%s is listed once in Codes", code)
		n++
		return true
	})
	assert.Equal(t, len(Codes), n, "every listed code is a constant")
}
