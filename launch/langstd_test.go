package launch

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLangStandardLog2: Triton's private standard._log2, imported by name
// (lightllm's grouped top-k) or reached through tl.standard (fla's NSA),
// is a compile-time floor log2 (0 for 1 and below).
func TestLangStandardLog2(t *testing.T) {
	const src = `# launch: k[(1,)](out)
# let: out=zeros(5)
import triton
import triton.language as tl
from triton.language.standard import _log2

@triton.jit
def k(out):
    x = tl.arange(0, 64)
    n: tl.constexpr = _log2(x.shape[0])
    tl.store(out + 0, n)
    tl.store(out + 1, tl.standard._log2(48))
    tl.store(out + 2, _log2(1))
    tl.store(out + 3, _log2(0))
    tl.store(out + 4, tl.reshape(x, [2] * n).numel)
`
	runLangCases(t, []langCase{{"log2", src, []float64{6, 5, 0, 0, 64}, nil}})
}

// tl._log2 is not a name of triton.language: Triton raises on it too.
func TestLangLog2NotInTL(t *testing.T) {
	src := "# launch: k[(1,)](out)\n# let: out=zeros(1)\nimport triton\nimport triton.language as tl\n\n@triton.jit\ndef k(out):\n    tl.store(out, tl._log2(4))\n"
	path := filepath.Join(t.TempDir(), "k.py")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	_, err := Prepare(path, "", &Options{Interpret: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "_log2")
}

// TestLangTorchConstants: torch.finfo, torch.iinfo and torch.version.hip
// read inside a kernel are compile-time values, as Triton's code
// generator computes them in Python (torchao's fp8 and nvfp4 kernels).
func TestLangTorchConstants(t *testing.T) {
	const src = `# launch: k[(1,)](out)
# let: out=zeros(5)
import torch
import triton
import triton.language as tl

@triton.jit
def k(out):
    F16_MAX: tl.constexpr = torch.finfo(torch.float16).max
    tl.store(out + 0, F16_MAX)
    tl.store(out + 1, torch.iinfo(torch.int8).min)
    tl.store(out + 2, torch.finfo(torch.bfloat16).eps)
    if tl.constexpr(torch.version.hip is not None):
        tl.store(out + 3, 1.0)
    else:
        tl.store(out + 3, 2.0)
    tl.store(out + 4, torch.finfo(torch.float8_e4m3fn).max)
`
	runLangCases(t, []langCase{{"torch", src, []float64{65504, -128, 0.0078125, 2, 448}, nil}})
}

// TestLangInductorLibdevice: Triton's libdevice and math reached through
// PyTorch Inductor's triton_helpers, which re-exports them (tritonbench's
// gdpa GELU: from torch._inductor.runtime.triton_helpers import libdevice).
func TestLangInductorLibdevice(t *testing.T) {
	const src = `# launch: k[(1,)](out)
# let: out=zeros(2)
import torch
import triton
import triton.language as tl
from torch._inductor.runtime.triton_helpers import libdevice
from torch._inductor.runtime.triton_helpers import math as tmath

@triton.jit
def k(out):
    x = tl.full((1,), 4.0, tl.float32)
    tl.store(out + tl.arange(0, 1), libdevice.sqrt(x))
    tl.store(out + 1 + tl.arange(0, 1), tmath.exp2(x))
`
	runLangCases(t, []langCase{{"libdevice", src, []float64{2, 16}, nil}})
}
