package launch

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// A nil *Options is the zero Options: each entry point runs as with
// &Options{} (these panicked on the nil pointer before).
func TestNilOptionsAreDefaults(t *testing.T) {
	add := filepath.Join("..", "samples", "add.tri")
	assert.NoError(t, CheckFile(add, nil))
	assert.NoError(t, BuildFile(add, "", nil))
	p, err := Prepare(add, "", nil)
	require.NoError(t, err)
	assert.Equal(t, "add_kernel", p.Kernel.Name)
	// Without a GPU RunFile fails with the driver's error, with one it
	// runs: either way it returns rather than panics.
	_ = RunFile(add, "", nil)
	_, err = BenchFile(filepath.Join(t.TempDir(), "none.tri"), "", nil, nil)
	assert.Error(t, err)
}

func TestPrepareValuesNilParts(t *testing.T) {
	_, err := PrepareValues(nil, nil, nil, nil, nil, nil)
	assert.ErrorContains(t, err, "one is nil")
}

func TestCompareNilAndShortTensors(t *testing.T) {
	assert.ErrorContains(t, CompareTensors("out", nil, nil, ""), "out: no tensor to compare")
	assert.ErrorContains(t, CompareTensors("out", tensor.New(ir.Int32, 2), nil, ""), "no tensor to compare")
	short := &tensor.Tensor{Kind: ir.Float32, Shape: []int{4}, Data: make([]byte, 8)}
	assert.ErrorContains(t, CompareTensors("out", short, tensor.New(ir.Float32, 4), ""), "holds 8 bytes, want 16")
}

func TestNilKernelsAndZeroPrepared(t *testing.T) {
	assert.Nil(t, KernelGlobals(nil, nil))
	_, err := ParseSignature(nil, "*fp32")
	assert.ErrorContains(t, err, "no kernel (nil)")
	assert.NoError(t, (&Options{NumWarps: 3}).CheckFlags(nil), "nil changed: no flag given")
	var p Prepared
	assert.ErrorContains(t, p.Interpret(0), "Prepare or PrepareValues did not make")
	_, err = p.RunGPU(false)
	assert.ErrorContains(t, err, "did not make")
	_, _, err = p.Upload()
	assert.ErrorContains(t, err, "did not make")
	_, err = p.Autotune(nil)
	assert.ErrorContains(t, err, "did not make")
}
