package bind

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/hosteval"
)

// lets binds each spec in a fresh Env with seed 0.
func lets(t *testing.T, specs ...string) *hosteval.Env {
	t.Helper()
	e := hosteval.NewEnv(0)
	for _, s := range specs {
		require.NoError(t, e.Let(s), s)
	}
	return e
}
