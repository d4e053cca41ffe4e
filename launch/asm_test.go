package launch

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/gpu"
)

// TestCheckInlineAsm: tri run --check of a kernel with inline PTX runs it
// on the GPU only, saying that nothing is compared (without a GPU, it
// says so and then fails for want of one), and tri run --interpret stops
// with an error placed at the asm.
func TestCheckInlineAsm(t *testing.T) {
	const file = "../conformance/constructs/asm_pack4.tri"
	var stderr, stdout bytes.Buffer
	err := RunFile(file, "", &Options{Check: true, Stderr: &stderr, Stdout: &stdout, Config: -1})
	if !errors.Is(err, gpu.ErrNoGPU) {
		require.NoError(t, err)
	}
	assert.Contains(t, stderr.String(), "asm_pack4.tri:21:9: warning: --check skips the comparison: the interpreter cannot run the inline PTX of tl.inline_asm_elementwise; pack4_kernel runs on the GPU only")
	assert.NotContains(t, stdout.String(), "matches the interpreter")

	err = RunFile(file, "", &Options{Interpret: true, Stderr: &stderr, Stdout: &stdout, Config: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "asm_pack4.tri:21:9: interpreting pack4_kernel: tl.inline_asm_elementwise runs PTX, which the interpreter cannot execute")
}
