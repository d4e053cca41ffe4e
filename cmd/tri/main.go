// Command tri compiles Triton kernels to CUDA C, runs them on the GPU
// through NVRTC, or interprets them on the CPU. See `tri help`.
package main

import (
	"fmt"
	_ "github.com/tri-lang/tri/hostpy" // autotune and heuristics arguments are host Python
	"os"

	"github.com/tri-lang/tri/launch"
)

func main() {
	root := newRoot()
	if err := root.Execute(); err != nil {
		launch.PrintError(os.Stderr, err)
		os.Exit(launch.ExitCode(err))
	}
}

func usageError(format string, args ...any) error {
	return launch.Usage(fmt.Errorf(format, args...))
}
