package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/sema"
)

const docPath = "../../docs/LANGUAGE.md"

// TestLanguageDocUpToDate fails when docs/LANGUAGE.md is not what the op
// table gives now; UPDATE_GOLDEN=1 (or go generate ./sema) rewrites it.
func TestLanguageDocUpToDate(t *testing.T) {
	var b bytes.Buffer
	write(&b, sema.Names())
	if os.Getenv("UPDATE_GOLDEN") != "" {
		require.NoError(t, os.WriteFile(docPath, b.Bytes(), 0o644))
	}
	have, err := os.ReadFile(docPath)
	require.NoError(t, err)
	if !bytes.Equal(have, b.Bytes()) {
		t.Fatalf("docs/LANGUAGE.md is stale: run go generate ./sema (or UPDATE_GOLDEN=1 go test ./internal/langdoc)")
	}
}

// TestEveryNameDocumented: each name of the op table has its row, with
// the status and note the table gives it.
func TestEveryNameDocumented(t *testing.T) {
	var b bytes.Buffer
	names := sema.Names()
	write(&b, names)
	doc := b.String()
	for _, n := range names {
		if strings.HasPrefix(n.Path, "tl.extra.libdevice.") {
			assert.Contains(t, doc, "`"+strings.TrimPrefix(n.Path, "tl.extra.libdevice.")+"`", n.Path)
			continue
		}
		row := "| `" + signature(n) + "` |"
		assert.Contains(t, doc, row, n.Path)
		if n.Differs != "" {
			assert.Contains(t, doc, n.Differs, n.Path)
		}
	}
	assert.Contains(t, doc, "| `tl.dot_scaled` | no |")
	for _, c := range diag.Codes {
		assert.Contains(t, doc, "| `"+string(c.Code)+"` | "+c.Meaning+" |")
	}
}

func TestSignature(t *testing.T) {
	for _, c := range []struct {
		n    sema.Name
		want string
	}{
		{sema.Name{Path: "tl.load", Kind: "function", Supported: true, Params: []string{"pointer", "mask", "other"}, Required: 1}, "tl.load(pointer[, mask, other])"},
		{sema.Name{Path: "tl.debug_barrier", Kind: "function", Supported: true}, "tl.debug_barrier()"},
		{sema.Name{Path: "min", Kind: "function", Supported: true, Params: []string{"arg0", "arg1", "arg2"}, Required: 1}, "min(*args)"},
		{sema.Name{Path: "tl.reshape", Kind: "function", Supported: true, Params: []string{"input", "arg0", "arg1", "arg2", "can_reorder"}, Required: 2}, "tl.reshape(input, *args[, can_reorder])"},
		{sema.Name{Path: "range", Kind: "function", Supported: true, Params: []string{"arg1", "arg2", "step"}, Required: 1}, "range(arg1[, arg2, step])"},
		{sema.Name{Path: "tl.dot_scaled", Kind: "function"}, "tl.dot_scaled"},
		{sema.Name{Path: "tl.PropagateNan.ALL", Kind: "constant", Supported: true}, "tl.PropagateNan.ALL"},
	} {
		assert.Equal(t, c.want, signature(c.n))
	}
}
