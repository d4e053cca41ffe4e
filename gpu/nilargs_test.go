package gpu

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

// Nil kernels, CUDA, devices and tensors, and a Compiled or Tensors built
// as a zero struct, give errors (each stopped on a nil pointer before).
// None of these reaches the GPU, so the test runs without one.
func TestNilArguments(t *testing.T) {
	_, err := GenerateCUDA(nil, "sm_80", false)
	assert.ErrorIs(t, err, errNoKernel)
	_, _, err = CompileCUDA(nil, nil, Target{Arch: "sm_80"}, false)
	assert.ErrorIs(t, err, errNoKernel)
	_, err = CompileReport(&ir.Kernel{Name: "k"}, nil, "sm_80", false)
	assert.ErrorIs(t, err, errNoKernel)
	_, err = CompileFor(nil, "", false)
	assert.ErrorIs(t, err, errNoKernel)
	assert.Equal(t, "", DeviceTarget(nil))
	assert.ErrorContains(t, new(Compiled).Launch([3]int{1, 1, 1}), "Compile did not make")
	_, err = NewTensors(nil).Upload(nil)
	assert.ErrorContains(t, err, "no tensor")
	_, err = new(Tensors).Upload(tensor.New(ir.Float32, 2))
	assert.ErrorContains(t, err, "without a device")
}
