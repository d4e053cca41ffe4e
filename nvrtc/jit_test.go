package nvrtc

import (
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOptionsPTX: a cubin is asked of NVRTC with the real architecture and
// ptxas's report; PTX with the virtual architecture, and no ptxas options
// (ptxas does not run).
func TestOptionsPTX(t *testing.T) {
	for _, c := range []struct {
		opt  CompileOptions
		want []string
	}{
		{CompileOptions{Arch: "sm_90a", Verbose: true},
			[]string{"--gpu-architecture=sm_90a", "--std=c++17", "-default-device", "--ptxas-options=-v"}},
		{CompileOptions{Arch: "sm_80", Verbose: true, LineInfo: true, Extra: []string{"--maxrregcount=128"}},
			[]string{"--gpu-architecture=sm_80", "--std=c++17", "-default-device", "-lineinfo", "--ptxas-options=-v", "--maxrregcount=128"}},
		{CompileOptions{Arch: "sm_80", PTX: true, Verbose: true},
			[]string{"--gpu-architecture=compute_80", "--std=c++17", "-default-device"}},
		{CompileOptions{Arch: "sm_86", PTX: true, LineInfo: true, Extra: []string{"--maxrregcount=64"}},
			[]string{"--gpu-architecture=compute_86", "--std=c++17", "-default-device", "-lineinfo", "--maxrregcount=64"}},
	} {
		assert.Equal(t, c.want, c.opt.Options(), "%+v", c.opt)
	}
}

// TestKeyPTX: PTX and a cubin of one source for one target are different
// cache entries, in different files.
func TestKeyPTX(t *testing.T) {
	cubin := CompileOptions{Arch: "sm_80", Name: "add.cu"}
	ptx := cubin
	ptx.PTX = true
	assert.NotEqual(t, Key("src", cubin, "sm_80", "13.0", "0.1.0"), Key("src", ptx, "sm_80", "13.0", "0.1.0"))
	assert.NotEqual(t, Key("src", ptx, "sm_80", "13.0", "0.1.0"), Key("src", ptx, "sm_86", "13.0", "0.1.0"))
	c := &Cache{Dir: "d"}
	assert.Equal(t, filepath.Join("d", "k.ptx"), c.path("k", "."+ptx.output()))
	assert.Equal(t, filepath.Join("d", "k.cubin"), c.path("k", "."+cubin.output()))
}

// TestJITArgs: cuModuleLoadDataEx gets one value word per key, numbers in
// the word itself, and the limits only where set.
func TestJITArgs(t *testing.T) {
	keys, vals := JITOptions{}.args(0x1000, 64, 0x2000, 32)
	assert.Equal(t, []int32{3, 4, 5, 6, 12}, keys)
	assert.Equal(t, []uintptr{0x1000, 64, 0x2000, 32, 1}, vals)
	keys, vals = JITOptions{MaxRegisters: 128, LineInfo: true}.args(0x1000, 64, 0x2000, 32)
	assert.Equal(t, []int32{3, 4, 5, 6, 12, 0, 13}, keys)
	assert.Equal(t, []uintptr{0x1000, 64, 0x2000, 32, 1, 128, 1}, vals)
}

func TestCBuffer(t *testing.T) {
	assert.Equal(t, "ptxas info\nline 2", cBuffer([]byte("ptxas info\nline 2\n\x00garbage")))
	assert.Equal(t, "", cBuffer(make([]byte, 8)))
	assert.Equal(t, "no NUL", cBuffer([]byte("no NUL")))
}

// TestJITErrorMessage: a failed JIT names the call, the hint and the log.
func TestJITErrorMessage(t *testing.T) {
	err := &JITError{Log: "ptxas fatal: bad", Err: &Error{Func: "cuModuleLoadDataEx", Code: 218, Name: "CUDA_ERROR_INVALID_PTX"}, Hint: "do this"}
	assert.Equal(t, "the driver's PTX JIT could not compile the kernel for this GPU: cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (218); do this\nptxas fatal: bad", err.Error())
	var e *Error
	assert.True(t, errors.As(err, &e))
	assert.Empty(t, jitHint(err.Err))
}

// TestPTXVectorAdd compiles the vector add to PTX for sm_80 and lets the
// driver compile it for this GPU (of compute capability 8.0 or newer),
// then runs it.
func TestPTXVectorAdd(t *testing.T) {
	d := gpu(t)
	if major, _ := d.ComputeCapability(); major < 8 {
		t.Skipf("%s is older than sm_80", d.Arch())
	}
	prog, err := Compile(addSrc, CompileOptions{Arch: "sm_80", PTX: true, Name: "add.cu", Verbose: true})
	require.NoError(t, err)
	assert.Empty(t, prog.Cubin)
	ptx := string(prog.PTX)
	assert.Contains(t, ptx, ".target sm_80")
	assert.Contains(t, ptx, ".entry add_kernel")
	assert.False(t, strings.HasSuffix(ptx, "\x00"))
	m, log, err := d.LoadPTX(prog.PTX, JITOptions{MaxRegisters: 32})
	require.NoError(t, err)
	defer m.Unload()
	t.Logf("JIT log:\n%s", log)
	regs, _, _, _, _ := ParseResources(log)
	assert.Positive(t, regs, "the JIT's verbose log reports registers: %q", log)
	f, err := m.Function("add_kernel")
	require.NoError(t, err)
	fregs, _, _, _, err := f.Attributes()
	require.NoError(t, err)
	assert.LessOrEqual(t, fregs, 32, "MaxRegisters reaches the JIT")

	const n = 4099
	x := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i)))
	}
	var bufs [3]DevicePtr
	for i := range bufs {
		bufs[i], err = d.Alloc(4 * n)
		require.NoError(t, err)
		defer d.Free(bufs[i])
		require.NoError(t, d.CopyHtoD(bufs[i], x))
	}
	var p ArgPacker
	p.Ptr(bufs[0])
	p.Ptr(bufs[1])
	p.Ptr(bufs[2])
	p.I32(n)
	require.NoError(t, f.Launch([3]int{(n + 127) / 128, 1, 1}, [3]int{128, 1, 1}, 0, p.Bytes()))
	require.NoError(t, d.Synchronize())
	out := make([]byte, 4*n)
	require.NoError(t, d.CopyDtoH(out, bufs[2]))
	for i := range n {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])); got != 2*float32(i) {
			t.Fatalf("out[%d] = %v, want %v", i, got, 2*float32(i))
		}
	}
}

// TestPTXCached: PTX comes back from the cache as PTX, beside the cubin of
// the same source, and loads.
func TestPTXCached(t *testing.T) {
	d := gpu(t)
	c := &Cache{Dir: t.TempDir()}
	opt := CompileOptions{Arch: "sm_80", PTX: true, Name: "add.cu"}
	first, hit, err := CompileCached(c, addSrc, opt)
	require.NoError(t, err)
	assert.False(t, hit)
	second, hit, err := CompileCached(c, addSrc, opt)
	require.NoError(t, err)
	assert.True(t, hit)
	assert.Equal(t, first.PTX, second.PTX)
	assert.Empty(t, second.Cubin)
	cubin, hit, err := CompileCached(c, addSrc, CompileOptions{Arch: "sm_80", Name: "add.cu"})
	require.NoError(t, err)
	assert.False(t, hit, "a cubin is not served from the PTX's entry")
	assert.NotEmpty(t, cubin.Cubin)
	m, _, err := d.LoadPTX(second.PTX, JITOptions{})
	require.NoError(t, err)
	require.NoError(t, m.Unload())
}

// TestPTXRejectedIsAJITError: PTX the JIT cannot compile comes back as a
// JITError with the compiler's log.
func TestPTXRejectedIsAJITError(t *testing.T) {
	d := gpu(t)
	_, _, err := d.LoadPTX([]byte(".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k() { bogus; }\n"), JITOptions{})
	var je *JITError
	require.True(t, errors.As(err, &je), "%v", err)
	assert.NotEmpty(t, je.Log)
	t.Logf("%v", err)
}
