// Command tri compiles Triton kernels to CUDA C, runs them on the GPU
// through NVRTC, or interprets them on the CPU. See `tri help`.
package main

import (
	"fmt"
	_ "github.com/tri-lang/tri/hostpy" // autotune and heuristics arguments are host Python
	"os"

	"github.com/tri-lang/tri/hosteval"
)

func main() {
	c, err := newRoot().ExecuteC()
	if code := report(os.Stderr, c, os.Args[1:], err); code != 0 {
		os.Exit(code)
	}
}

func usageError(format string, args ...any) error {
	return hosteval.Usage(fmt.Errorf(format, args...))
}
