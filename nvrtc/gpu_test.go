package nvrtc

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	testDevOnce sync.Once
	testDev     *Device
	testDevErr  error
)

// gpu returns the first GPU, skipping the test where there is none unless
// TRI_REQUIRE_GPU=1 asks for a failure instead.
func gpu(t testing.TB) *Device {
	t.Helper()
	testDevOnce.Do(func() {
		if testDevErr = Load(); testDevErr == nil {
			testDev, testDevErr = OpenDevice(0)
		}
	})
	if testDevErr != nil {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatalf("TRI_REQUIRE_GPU=1 but: %v", testDevErr)
		}
		t.Skipf("no GPU: %v", testDevErr)
	}
	return testDev
}

const addSrc = `
extern "C" __global__ void add_kernel(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + y[i];
}
`

const noopSrc = `
extern "C" __global__ void noop(int* p, int n) {
  if (n < 0) p[threadIdx.x] = n;
}
`

const spinSrc = `
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {}
}
`

func compileFn(t testing.TB, d *Device, src, name string) *Function {
	t.Helper()
	prog, err := Compile(src, CompileOptions{Arch: d.Arch(), Name: name + ".cu"})
	require.NoError(t, err)
	m, err := d.LoadModule(prog.Cubin)
	require.NoError(t, err)
	f, err := m.Function(name)
	require.NoError(t, err)
	return f
}

func TestLoadErrorIsClear(t *testing.T) {
	err := Load()
	if err == nil {
		t.Skip("CUDA is installed here")
	}
	assert.ErrorIs(t, err, ErrNotFound)
	msg := err.Error()
	assert.True(t, strings.Contains(msg, "no NVIDIA driver found (libcuda.so.1)") || strings.Contains(msg, "no NVRTC found"), msg)
}

func TestDeviceInfo(t *testing.T) {
	d := gpu(t)
	assert.Regexp(t, `^sm_\d+$`, d.Arch())
	assert.NotEmpty(t, d.Name())
	assert.Positive(t, d.Multiprocessors())
	major, minor, err := Version()
	require.NoError(t, err)
	dv, err := DriverVersion()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, dv, 11000)
	drv, nv := Paths()
	t.Logf("%s (%s, %d SMs), driver CUDA %d, NVRTC %d.%d; driver %s, NVRTC %s", d.Name(), d.Arch(), d.Multiprocessors(), dv, major, minor, drv, nv)
	assert.GreaterOrEqual(t, major, 11)
}

func TestVectorAdd(t *testing.T) {
	d := gpu(t)
	prog, err := Compile(addSrc, CompileOptions{Arch: d.Arch(), Name: "add.cu", Verbose: true})
	require.NoError(t, err)
	assert.Contains(t, prog.Log, "registers")
	regs, _, _, _, _ := ParseResources(prog.Log)
	assert.Positive(t, regs, prog.Log)
	m, err := d.LoadModule(prog.Cubin)
	require.NoError(t, err)
	defer m.Unload()
	f, err := m.Function("add_kernel")
	require.NoError(t, err)
	fregs, _, _, maxThreads, err := f.Attributes()
	require.NoError(t, err)
	assert.Equal(t, regs, fregs)
	assert.GreaterOrEqual(t, maxThreads, 256)

	const n = 10007
	x, y := make([]byte, 4*n), make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i)))
		binary.LittleEndian.PutUint32(y[4*i:], math.Float32bits(0.5))
	}
	var bufs [3]DevicePtr
	for i := range bufs {
		bufs[i], err = d.Alloc(4 * n)
		require.NoError(t, err)
		defer d.Free(bufs[i])
	}
	require.NoError(t, d.CopyHtoD(bufs[0], x))
	require.NoError(t, d.CopyHtoD(bufs[1], y))
	require.NoError(t, d.Memset(bufs[2], 0xff, 4*n))
	var p ArgPacker
	p.Ptr(bufs[0])
	p.Ptr(bufs[1])
	p.Ptr(bufs[2])
	p.I32(n)
	require.NoError(t, f.Launch([3]int{(n + 255) / 256, 1, 1}, [3]int{256, 1, 1}, 0, p.Bytes()))
	require.NoError(t, d.Synchronize())
	out := make([]byte, 4*n)
	require.NoError(t, d.CopyDtoH(out, bufs[2]))
	for i := range n {
		got := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:]))
		if got != float32(i)+0.5 {
			t.Fatalf("out[%d] = %v, want %v", i, got, float32(i)+0.5)
		}
	}
}

func TestCompileErrorShowsLog(t *testing.T) {
	d := gpu(t)
	src := "extern \"C\" __global__ void k(float* x) {\n  // bad.tri:3: x = y\n  x[0] = y;\n}\n"
	_, err := Compile(src, CompileOptions{Arch: d.Arch(), Name: "bad.cu"})
	var ce *CompileError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Contains(t, ce.Log, "bad.cu(3): error")
	assert.Contains(t, ce.Log, `"y"`)
	mapped := MapLogToSource(ce.Log, "bad.cu", func(n int) (string, int, bool) { return "bad.tri", 3, n == 3 })
	assert.Contains(t, mapped, "bad.tri:3: error")
	t.Logf("log:\n%s", mapped)
}

func TestLineDirectivesNameTheTriFile(t *testing.T) {
	d := gpu(t)
	src := "extern \"C\" __global__ void k(float* x) {\n#line 12 \"add.tri\"\n  x[0] = y;\n}\n"
	_, err := Compile(src, CompileOptions{Arch: d.Arch(), Name: "add.cu", LineInfo: true})
	var ce *CompileError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Contains(t, ce.Log, "add.tri(12): error")
}

func TestBadOptionIsAnError(t *testing.T) {
	d := gpu(t)
	_, err := Compile(noopSrc, CompileOptions{Arch: d.Arch(), Extra: []string{"-O3"}})
	var e *Error
	require.True(t, errors.As(err, &e), "%v", err)
	assert.Equal(t, "NVRTC_ERROR_INVALID_OPTION", e.Name)
}

func TestCompileCached(t *testing.T) {
	d := gpu(t)
	c := &Cache{Dir: t.TempDir()}
	opt := CompileOptions{Arch: d.Arch(), Name: "add.cu", Verbose: true}
	first, hit, err := CompileCached(c, addSrc, opt)
	require.NoError(t, err)
	assert.False(t, hit)
	second, hit, err := CompileCached(c, addSrc, opt)
	require.NoError(t, err)
	assert.True(t, hit)
	assert.Equal(t, first.Cubin, second.Cubin)
	assert.Equal(t, first.Log, second.Log)
	_, err = d.LoadModule(second.Cubin)
	require.NoError(t, err)
}

func TestEventsTimeAKernel(t *testing.T) {
	d := gpu(t)
	f := compileFn(t, d, spinSrc, "spin")
	start, err := d.NewEvent()
	require.NoError(t, err)
	defer start.Destroy()
	end, err := d.NewEvent()
	require.NoError(t, err)
	defer end.Destroy()
	var p ArgPacker
	p.I64(2_000_000) // about a millisecond at 1.5-2 GHz
	require.NoError(t, start.Record())
	require.NoError(t, f.Launch([3]int{1, 1, 1}, [3]int{1, 1, 1}, 0, p.Bytes()))
	require.NoError(t, end.Record())
	require.NoError(t, end.Synchronize())
	ms, err := end.ElapsedMs(start)
	require.NoError(t, err)
	t.Logf("spin: %.3f ms", ms)
	assert.Greater(t, ms, 0.1)
	assert.Less(t, ms, 100.0)
}

func TestLaunchAllocatesNothing(t *testing.T) {
	d := gpu(t)
	f := compileFn(t, d, noopSrc, "noop")
	var p ArgPacker
	p.Ptr(0)
	p.I32(1)
	args := p.Bytes()
	allocs := testing.AllocsPerRun(1000, func() {
		if err := f.Launch([3]int{1, 1, 1}, [3]int{32, 1, 1}, 0, args); err != nil {
			t.Fatal(err)
		}
	})
	require.NoError(t, d.Synchronize())
	assert.Zero(t, allocs)
}

func TestLaunchFromManyGoroutines(t *testing.T) {
	d := gpu(t)
	f := compileFn(t, d, addSrc, "add_kernel")
	const n = 1024
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			errs <- func() error {
				buf, err := d.Alloc(4 * n)
				if err != nil {
					return err
				}
				defer d.Free(buf)
				host := make([]byte, 4*n)
				for i := range n {
					binary.LittleEndian.PutUint32(host[4*i:], math.Float32bits(float32(g)))
				}
				if err := d.CopyHtoD(buf, host); err != nil {
					return err
				}
				var p ArgPacker
				for range 50 {
					p.Reset()
					p.Ptr(buf)
					p.Ptr(buf)
					p.Ptr(buf)
					p.I32(n)
					if err := f.Launch([3]int{n / 256, 1, 1}, [3]int{256, 1, 1}, 0, p.Bytes()); err != nil {
						return err
					}
				}
				if err := d.CopyDtoH(host, buf); err != nil {
					return err
				}
				want := float32(g) * (1 << 50)
				if got := math.Float32frombits(binary.LittleEndian.Uint32(host)); got != want {
					return errors.New("wrong result from a goroutine")
				}
				return nil
			}()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}

func TestLaunchRejectsBadGrid(t *testing.T) {
	d := gpu(t)
	f := compileFn(t, d, noopSrc, "noop")
	assert.Error(t, f.Launch([3]int{0, 1, 1}, [3]int{32, 1, 1}, 0, nil))
}

// BenchmarkLaunch measures launches of a one-block kernel, the figure to
// hold under 3 µs. back-to-back times 10,000 launches and a synchronize, so
// it is bounded by how fast the GPU retires tiny kernels as well as by the
// host; host times bursts of 64 launches into an idle queue, which is the
// host's cost alone.
func BenchmarkLaunch(b *testing.B) {
	d := gpu(b)
	f := compileFn(b, d, noopSrc, "noop")
	var p ArgPacker
	p.Ptr(0)
	p.I32(1)
	args := p.Bytes()
	launch := func(b *testing.B) {
		if err := f.Launch([3]int{1, 1, 1}, [3]int{32, 1, 1}, 0, args); err != nil {
			b.Fatal(err)
		}
	}
	wait := func(b *testing.B) {
		if err := d.Synchronize(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("back-to-back", func(b *testing.B) {
		const launches = 10_000
		b.ReportAllocs()
		for b.Loop() {
			for range launches {
				launch(b)
			}
			wait(b)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*launches), "µs/launch")
	})
	b.Run("host", func(b *testing.B) {
		const burst = 64
		var total time.Duration
		n := 0
		for b.Loop() {
			b.StopTimer()
			wait(b)
			b.StartTimer()
			start := time.Now()
			for range burst {
				launch(b)
			}
			total += time.Since(start)
			n += burst
		}
		b.ReportMetric(float64(total.Nanoseconds())/1e3/float64(n), "µs/launch")
	})
}

// BenchmarkDriverCall measures the package's cost of one driver call: the
// thread lock, the context check and the call through purego.
func BenchmarkDriverCall(b *testing.B) {
	d := gpu(b)
	s, err := getSlot()
	require.NoError(b, err)
	defer slots.Put(s)
	b.ReportAllocs()
	for b.Loop() {
		if err := d.enter(s); err != nil {
			b.Fatal(err)
		}
		runtime.UnlockOSThread()
	}
}

// TestEncodeTensorMapWithoutCurrentContext encodes a tensor map on a
// thread where no context is current, as a goroutine on a thread the
// device's context was never made current on is: the driver needs the
// context there (it answered CUDA_ERROR_INVALID_CONTEXT), so the encoding
// makes it current first. The map of a 64 x 64 fp16 tensor is 128 bytes
// of which some are set.
func TestEncodeTensorMapWithoutCurrentContext(t *testing.T) {
	dev := gpu(t)
	if !HasTensorMaps() {
		t.Skip("the driver has no cuTensorMapEncodeTiled")
	}
	buf, err := dev.Alloc(64 * 64 * 2)
	require.NoError(t, err)
	defer dev.Free(buf)
	done := make(chan error)
	var m [TensorMapBytes]byte
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if code := callC(driver.cuCtxSetCurrent, 0); code != 0 {
			done <- driver.check("cuCtxSetCurrent", code)
			return
		}
		done <- dev.EncodeTensorMap(TensorMap{Base: buf, ElemBytes: 2, Dims: []int64{64, 64}, Strides: []int64{64, 1}, Box: []int{8, 64}, Swizzle: 128}, &m)
	}()
	require.NoError(t, <-done)
	assert.NotEqual(t, [TensorMapBytes]byte{}, m)
}
