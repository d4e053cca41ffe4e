package tri_test

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/tri-lang/tri"
)

// A newcomer's program: samples/add.tri's kernel run in the interpreter
// on data from Go; the launch line is the one a Triton user writes.
func Example() {
	f, err := tri.ParseFile("samples/add.tri", nil)
	if err != nil {
		log.Fatal(err)
	}
	x, y := []float32{1, 2, 3, 4, 5}, []float32{10, 20, 30, 40, 50}
	out := make([]float32, len(x))
	args := tri.Args{"x": x, "y": y, "out": out, "n": len(x)}
	if err := f.Interpret("add_kernel[(triton.cdiv(n, 4),)](x, y, out, n, BLOCK_SIZE=4)", args); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output: [11 22 33 44 55]
}

// The same kernel on the GPU: the launch is queued on a stream, with the
// inputs and the output in device buffers. (Not run by go test, which
// needs no GPU; the GPU test in gpu_test.go runs the same calls.)
func Example_gpu() {
	f, err := tri.ParseFile("samples/add.tri", nil)
	if err != nil {
		log.Fatal(err)
	}
	n := 1 << 20
	x, y, out := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	stream, err := tri.NewStream()
	if errors.Is(err, tri.ErrNoGPU) {
		log.Fatal("no GPU here: use File.Interpret")
	} else if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	var bufs [3]*tri.Buffer
	for i, data := range [][]float32{x, y, out} {
		if bufs[i], err = tri.NewBuffer(data); err != nil {
			log.Fatal(err)
		}
		defer bufs[i].Free()
	}
	bout := bufs[2]
	args := tri.Args{"x": bufs[0], "y": bufs[1], "out": bout, "n": n}
	if err := f.Run(stream, "add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)", args); err != nil {
		log.Fatal(err)
	}
	if err := bout.CopyTo(out); err != nil { // waits for the stream
		log.Fatal(err)
	}
	fmt.Println(out[:4])
}

// A kernel compiled for a signature, as Triton's ahead-of-time compiler
// takes it, then run over a grid with its runtime parameters;
// BLOCK_SIZE is the constexpr 4.
func ExampleFile_Compile() {
	f, err := tri.ParseFile("samples/add.tri", nil)
	if err != nil {
		log.Fatal(err)
	}
	k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 4")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(k.Params())
	x, y, out := []float32{1, 2, 3, 4, 5, 6}, []float32{6, 5, 4, 3, 2, 1}, make([]float32, 6)
	if err := k.Interpret([3]int{tri.CDiv(6, 4), 1, 1}, x, y, out, 6); err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
	// Output:
	// [{x_ptr *fp32} {y_ptr *fp32} {output_ptr *fp32} {n_elements i32}]
	// [7 7 7 7 7 7]
}

// The CUDA that tri generates, for review or another build: its kernel
// keeps the Python name and quotes the Python lines.
func ExampleKernel_CUDA() {
	f, err := tri.ParseFile("samples/add.tri", nil)
	if err != nil {
		log.Fatal(err)
	}
	k, err := f.Compile("add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024")
	if err != nil {
		log.Fatal(err)
	}
	cuda, err := k.CUDA()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Contains(cuda, `extern "C" __global__`), strings.Contains(cuda, "add_kernel("))
	fmt.Println(strings.Contains(cuda, "output = x + y"))
	// Output:
	// true true
	// true
}

// A mistake in a kernel comes back as diagnostics placed in the source.
func ExampleError() {
	src := `import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    tl.store(x_ptr, undefined_name)
`
	f, err := tri.Parse("k.py", src, nil)
	if err == nil {
		_, err = f.Compile("k", "*fp32")
	}
	var e *tri.Error
	if errors.As(err, &e) {
		for _, d := range e.Diagnostics {
			fmt.Println(d.File, d.Line, d.Column, d.Code)
			fmt.Println(d.Message)
		}
	}
	fmt.Println(errors.Is(err, tri.ErrBadInput), errors.Is(err, tri.ErrNoGPU))
	// Output:
	// k.py 6 21 undefined
	// undefined name undefined_name
	// true false
}
