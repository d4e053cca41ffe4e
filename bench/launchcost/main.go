// Command launchcost measures the host cost of launching a cached kernel
// from Go through tri's launch API: the wall time of 10,000 back-to-back
// launches of a one-program vector add, divided by 10,000, the same measure
// bench_1d.py takes of Triton's Python launch path.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
)

func main() {
	sample := flag.String("sample", "samples/add.tri", "kernel file")
	n := flag.Int("n", 10000, "launches")
	flag.Parse()
	if err := run(*sample, *n); err != nil {
		hosteval.PrintError(os.Stderr, err)
		os.Exit(1)
	}
}

func run(sample string, n int) error {
	p, err := launch.Prepare(sample, "add_kernel[(1,)](x, y, output, n, BLOCK_SIZE=1024)", &launch.Options{
		Lets: []string{"n=1024", "x=rand(n)", "y=rand(n)", "output=empty(n)"},
	})
	if err != nil {
		return err
	}
	c, err := gpu.Compile(p.Kernel, false)
	if err != nil {
		return err
	}
	args, free, err := p.Upload()
	if err != nil {
		return err
	}
	defer free()
	for range 100 {
		if err := c.Launch(p.Grid, args...); err != nil {
			return err
		}
	}
	if err := gpu.Synchronize(); err != nil {
		return err
	}
	start := time.Now()
	for range n {
		if err := c.Launch(p.Grid, args...); err != nil {
			return err
		}
	}
	if err := gpu.Synchronize(); err != nil {
		return err
	}
	el := time.Since(start)
	fmt.Printf("%d launches in %v: %.2f us per launch\n", n, el, float64(el.Microseconds())/float64(n))
	return nil
}
