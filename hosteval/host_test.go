package hosteval

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeHost stands for a kernel file defining num_sms() and rand().
type fakeHost struct{ calls []string }

func (f *fakeHost) Has(name string) bool {
	return name == "num_sms" || name == "rand" || name == "fails"
}

func (f *fakeHost) Call(name string, args []Value, kwargs map[string]Value) (Value, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s%v%v", name, args, kwargs))
	if name == "fails" {
		return Value{}, fmt.Errorf("it returned a Python list, which tri cannot use here")
	}
	return IntValue(132), nil
}

func TestLetCallsHostFunctions(t *testing.T) {
	h := &fakeHost{}
	e := NewEnv(0)
	e.Host = h
	require.NoError(t, e.Let("n=num_sms()"))
	assert.Equal(t, IntValue(132), lookup(t, e, "n"))
	require.NoError(t, e.Let("m=num_sms(n, k=2)"))
	assert.Equal(t, []string{"num_sms[]map[]", "num_sms[132]map[k:2]"}, h.calls)
	// A builtin keeps its name over the file's function.
	require.NoError(t, e.Let("x=rand(4)"))
	assert.Equal(t, VTensor, lookup(t, e, "x").Kind)
	assert.Len(t, h.calls, 2)
	// A --let binding shadows the file's function too.
	err := e.Let("y=n()")
	require.Error(t, err)
	err = e.Let("z=fails()")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--let z:1:3: fails(): it returned a Python list")
}
