package autotune

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExpandUnpacking(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{'a': 1}", "{'a': 1}"},
		{"x ** 2", "x ** 2"},
		{"({'A': f, **more},)", "(__tri_dict__({'A': f}, (more)),)"},
		{"{**a, 'b': {**c}, **d,}", "__tri_dict__((a), { 'b': __tri_dict__((c))}, (d))"},
		{"{'k': v ** 2, **m}", "__tri_dict__({'k': v ** 2}, (m))"},
		{"{'s': '**x, }', **m}  # {**y}", "__tri_dict__({'s': '**x, }'}, (m))  # {**y}"},
		{"{\n    'A': f,  # a, b\n    **(n or {}),\n}", "__tri_dict__({\n    'A': f}, ((n or {})))"},
		{"f(a,  # a comment, kept out\n  b ** 2)  # kept", "f(a,  \n  b ** 2)  # kept"},
		{"{**a", "__tri_dict__((a))"},
	} {
		assert.Equal(t, c.want, expandUnpacking(c.in), c.in)
	}
}
