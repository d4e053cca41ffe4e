package autotune

import (
	"bytes"
	"testing"
	"time"

	"github.com/go-python/gpython/py"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	_ "github.com/tri-lang/tri/hostpy" // the interpreter that host Python runs in
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
)

func TestHostPython(t *testing.T) {
	src := "import triton\nimport torch\nfrom triton import cdiv as ceil_div\n\n\n" +
		"def target():\n    t = triton.runtime.driver.active.get_current_target()\n    return (t.backend, t.arch, t.warp_size, torch.cuda.get_device_capability())\n\n\n" +
		"def closure(n):\n    f = lambda x: x + n\n    return [f(i) for i in range(3) if i < n]\n\n\n" +
		"def shout(x):\n    print('hello', x)\n    return x\n\n\n" +
		"def forever():\n    while True:\n        pass\n"
	f, diags := frontend.Parse("k.tri", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	sf := &Source{Path: "k.tri", Text: []byte(src), File: f}
	var stderr bytes.Buffer
	h, err := newHostPython(sf, func() string { return "sm_90a" }, Host{Timeout: 200 * time.Millisecond}, &stderr)
	require.NoError(t, err)
	at := sf.File.Host["target"].Pos

	v, err := h.eval("target()", at, "test")
	require.NoError(t, err)
	got, err := fromPy(v)
	require.NoError(t, err)
	assert.Equal(t, `("cuda", 90, 32, (9, 0))`, got.String())

	v, err = h.eval("(torch.cuda.get_device_properties('cuda').multi_processor_count, triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device())['max_shared_mem'])", at, "test")
	require.NoError(t, err, "NUM_SMS as persistent kernels read it")
	got, _ = fromPy(v)
	assert.Equal(t, "(132, 232448)", got.String(), "an H100's, assumed for sm_90a")

	v, err = h.eval("closure(2)", at, "test")
	require.NoError(t, err, "a parameter captured by a lambda and a comprehension")
	got, _ = fromPy(v)
	assert.Equal(t, "(2, 3)", got.String())

	_, err = h.eval("(ceil_div(10, 4), triton.next_power_of_2(100), triton.next_power_of_2(1), tl_f16)", at, "test")
	require.Error(t, err, "tl_f16 is not defined")
	v, err = h.eval("(ceil_div(10, 4), triton.next_power_of_2(100), triton.language.float16)", at, "test")
	require.NoError(t, err)
	got, _ = fromPy(v)
	assert.Equal(t, "(3, 128, tl.float16)", got.String())

	_, err = h.eval("shout(3)", at, "test")
	require.NoError(t, err)
	assert.Equal(t, "hello 3\n", stderr.String(), "print goes to stderr")

	x := tensor.New(ir.Float16, 6, 4)
	o, err := h.toPy(hosteval.TupleValue(hosteval.TensorValue(x), hosteval.IntValue(7), hosteval.FloatValue(0.5), hosteval.BoolValue(true), hosteval.None, hosteval.StrValue("s"), hosteval.DTypeValue(ir.Scalar(ir.BFloat16))))
	require.NoError(t, err)
	h.globals["arg"] = o
	v, err = h.eval("(arg[0].shape, arg[0].stride(0), arg[0].numel(), arg[0].dtype == torch.float16, arg[0].element_size(), arg[1:])", at, "test")
	require.NoError(t, err)
	got, err = fromPy(v)
	require.NoError(t, err)
	assert.Equal(t, `((6, 4), 4, 24, True, 2, (7, 0.5, True, None, "s", tl.bfloat16))`, got.String())

	_, err = fromPy(py.NewStringDict())
	assert.ErrorContains(t, err, "a Python dict, which tri cannot use here")

	_, err = h.eval("forever()", at, "test")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ran longer than --timeout")
	_, err = h.eval("1", at, "test")
	assert.Error(t, err, "an interpreter that timed out is not used again")
}

// TestHostStandIns: the os stand-in sees an unset environment, typing's
// names work in annotations, inspect.signature lists a function's
// parameters (the stand-in autotune's are a recent Triton's), and torch
// names the GPU of the target architecture.
func TestHostStandIns(t *testing.T) {
	src := "import os\nimport inspect\nimport torch\nfrom typing import List, Optional\nimport triton\n\n" +
		"WARPS = int(os.getenv('WARPS', '4'))\nMODE = os.environ.get('MODE', 'plain')\n\n" +
		"def configs(n: Optional[int] = None) -> List[triton.Config]:\n    return [triton.Config({'B': 16}, num_warps=WARPS)]\n"
	f, diags := frontend.Parse("k.tri", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	sf := &Source{Path: "k.tri", Text: []byte(src), File: f}
	h, err := newHostPython(sf, func() string { return "sm_80" }, Host{Timeout: time.Second}, &bytes.Buffer{})
	require.NoError(t, err)
	v, err := h.eval("(configs()[0].num_warps, MODE)", sf.File.Host["configs"].Pos, "test")
	require.NoError(t, err)
	got, err := fromPy(v)
	require.NoError(t, err)
	assert.Equal(t, `(4, "plain")`, got.String())
	v, err = h.eval("('cache_results' in inspect.signature(triton.autotune).parameters, 'nope' in inspect.signature(triton.autotune).parameters, "+
		"list(inspect.signature(configs).parameters), torch.cuda.get_device_name(0))", sf.File.Host["configs"].Pos, "test")
	require.NoError(t, err)
	got, err = fromPy(v)
	require.NoError(t, err)
	assert.Equal(t, `(True, False, ("n",), "NVIDIA A100")`, got.String())
}

// itertools.product and chain build config lists as Python's do.
func TestHostItertools(t *testing.T) {
	src := "import itertools\nfrom itertools import product\nimport triton\n\n" +
		"CONFIGS = [triton.Config({'S': s, 'B': b}) for s, b in itertools.product([2, 3], [16, 32]) if s * b != 96]\n" +
		"PAIRS = list(product('ab', repeat=2)) + itertools.chain([1], (2, 3))\n"
	f, diags := frontend.Parse("k.py", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	sf := &Source{Path: "k.py", Text: []byte(src), File: f}
	h, err := newHostPython(sf, func() string { return "sm_80" }, Host{Timeout: time.Second}, &bytes.Buffer{})
	require.NoError(t, err)
	v, err := h.eval("([(c.kwargs['S'], c.kwargs['B']) for c in CONFIGS], PAIRS)", sf.File.Host["PAIRS"].Pos, "test")
	require.NoError(t, err)
	got, err := fromPy(v)
	require.NoError(t, err)
	assert.Equal(t, `(((2, 16), (2, 32), (3, 16)), (("a", "a"), ("a", "b"), ("b", "a"), ("b", "b"), 1, 2, 3))`, got.String())
}

// The fp8 dtypes are in the stand-ins: torch's float8_e4m3fn and
// float8_e5m2 (tutorial 08 compares torch.float8_e4m3fn == A.dtype),
// triton.language's float8e4nv, float8e5 and float8e4b15, and an fp8
// tensor's dtype is torch's.
func TestHostFP8DTypes(t *testing.T) {
	src := "import torch\nimport triton\nimport triton.language as tl\n\n\n" +
		"def is_fp8(x):\n    return x.dtype == torch.float8_e4m3fn or x.dtype == torch.float8_e5m2\n"
	f, diags := frontend.Parse("k.py", []byte(src))
	require.False(t, diags.HasErrors(), "%v", diags)
	sf := &Source{Path: "k.py", Text: []byte(src), File: f}
	h, err := newHostPython(sf, func() string { return "sm_90" }, Host{Timeout: time.Second}, &bytes.Buffer{})
	require.NoError(t, err)
	at := sf.File.Host["is_fp8"].Pos
	x, err := h.toPy(hosteval.TensorValue(tensor.New(ir.Float8E4NV, 4)))
	require.NoError(t, err)
	h.globals["x"] = x
	v, err := h.eval("(is_fp8(x), x.element_size(), repr(x.dtype), torch.float8_e5m2, tl.float8e4nv, tl.float8e4b15, torch.float8_e4m3fnuz)", at, "test")
	require.NoError(t, err)
	got, err := fromPy(v)
	require.NoError(t, err)
	assert.Equal(t, `(True, 1, "torch.float8_e4m3fn", tl.float8e5, tl.float8e4nv, tl.float8e4b15, tl.float8e4b8)`, got.String())
}
