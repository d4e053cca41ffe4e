package launch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

const hostCallSrc = `import torch
import triton
import triton.language as tl


def num_sms():
    return torch.cuda.get_device_properties("cuda").multi_processor_count


def supports_pdl():
    return torch.cuda.get_device_capability()[0] >= 9


def scaled(n, scale=2):
    return n * scale


@triton.jit
def k(x_ptr, n, NUM_SMS: tl.constexpr, USE_GDC: tl.constexpr, BLOCK: tl.constexpr):
    pass
`

// A launch line and --let call the kernel file's own host functions, as
// tutorials 08 and 11 write NUM_SM=num_sms() and launch_pdl=supports_pdl().
func TestLaunchCallsHostFunctions(t *testing.T) {
	path := writeKernel(t, hostCallSrc)
	line := "k[(1,)](x, n, NUM_SMS=num_sms(), USE_GDC=pdl, BLOCK=scaled(8, scale=bs))"
	lets := []string{"n=4", "x=randn(n)", "bs=4", "pdl=supports_pdl()"}
	p, err := Prepare(path, line, &Options{Arch: "sm_90", Lets: lets})
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(132), p.Bound.Meta["NUM_SMS"], "an H100's SMs for sm_90")
	assert.Equal(t, hosteval.BoolValue(true), p.Bound.Meta["USE_GDC"])
	assert.Equal(t, hosteval.IntValue(32), p.Bound.Meta["BLOCK"])

	p, err = Prepare(path, line, &Options{Arch: "sm_80", Lets: lets})
	require.NoError(t, err)
	assert.Equal(t, hosteval.IntValue(108), p.Bound.Meta["NUM_SMS"])
	assert.Equal(t, hosteval.BoolValue(false), p.Bound.Meta["USE_GDC"])

	// A Python error in the host function is placed in the kernel file.
	_, err = Prepare(path, "k[(1,)](x, n, NUM_SMS=scaled(), USE_GDC=False, BLOCK=8)", &Options{Arch: "sm_90", Lets: lets})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "calling scaled(): TypeError")
	// tri's builtins keep their names; unknown names stay errors.
	_, err = Prepare(path, "k[(1,)](x, n, NUM_SMS=nosuch(), USE_GDC=False, BLOCK=8)", &Options{Arch: "sm_90", Lets: lets})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown function nosuch")
}

// A launch line unpacks a dict of keyword arguments bound by --let, as
// tutorial 06 passes **extra_kern_args (empty on Hopper, maxnreg on
// Blackwell); a key given twice and a value that is not a dict are errors.
func TestLaunchUnpacksKwargs(t *testing.T) {
	path := writeKernel(t, hostCallSrc)
	line := "k[(1,)](x, n, NUM_SMS=4, **extra)"
	lets := []string{"n=4", "x=randn(n)"}
	p, err := Prepare(path, line, &Options{Arch: "sm_90", Lets: append(lets, `extra={"USE_GDC": True, "BLOCK": 16, "maxnreg": 96, "num_warps": 2}`)})
	require.NoError(t, err)
	assert.Equal(t, hosteval.BoolValue(true), p.Bound.Meta["USE_GDC"])
	assert.Equal(t, hosteval.IntValue(16), p.Bound.Meta["BLOCK"])
	assert.Equal(t, 96, p.Kernel.MaxNReg)
	assert.Equal(t, 2, p.Kernel.NumWarps)

	_, err = Prepare(path, "k[(1,)](x, n, NUM_SMS=4, USE_GDC=False, BLOCK=8, **extra)", &Options{Arch: "sm_90", Lets: append(lets, "extra={}")})
	require.NoError(t, err, "an empty dict adds nothing")
	_, err = Prepare(path, line, &Options{Arch: "sm_90", Lets: append(lets, `extra={"NUM_SMS": 2}`)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "launch:1:28: got multiple values for keyword argument 'NUM_SMS'")
	_, err = Prepare(path, line, &Options{Arch: "sm_90", Lets: append(lets, `extra=(1, 2)`)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "** needs a dict of keyword arguments, not a tuple")
}
