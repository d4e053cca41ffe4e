package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/review"
)

func newReview() *cobra.Command {
	o := &launch.Options{}
	var out string
	var check, noNVRTC bool
	c := &cobra.Command{
		Use:   "review FILE ['LAUNCH'] [--let NAME=EXPR]... [-o PAGE.html] [--check]",
		Short: "Write one HTML page for reviewing a kernel's CUDA",
		Long: `Write one self-contained HTML page (no network, no external scripts or
fonts) for reviewing the CUDA of one specialization of a kernel, taken as
tri build takes it (a launch line, or the file's recorded launch):

- the kernel's Python and the generated CUDA side by side, linked both ways:
  clicking a source line highlights the CUDA lines it became, clicking a
  CUDA line its source line;
- the specialization: launch, constexprs, dtypes, target;
- each layout drawn as a picture of which thread and register hold which
  element, and the tiles that use it;
- each loop holding a tl.dot: its software pipeline in words and as a
  diagram of its shared-memory buffers over the iterations, or why it is
  not pipelined;
- where NVRTC is found (no GPU needed), ptxas's report (registers, spills,
  shared memory, occupancy) and the SASS instructions of each source line
  from the cubin's line table; the page says so where NVRTC is absent;
- with --check, the result of tri run --check (which needs a GPU).

The page goes to FILE's name with .html (add.tri: add.html) unless -o is
given; -o - writes it to stdout.

` + launch.HeaderHelp,
		Args: rangeArgs(1, 2, "review FILE ['LAUNCH']"),
		RunE: func(c *cobra.Command, args []string) error {
			o.Stdout, o.Stderr = c.OutOrStdout(), c.ErrOrStderr()
			if out == "" {
				out = strings.TrimSuffix(args[0], ".tri")
				out = strings.TrimSuffix(out, ".py") + ".html"
			}
			if out != "-" {
				if err := hosteval.CheckOutput("-o "+out, out, args[0]); err != nil {
					return err
				}
			}
			pg, err := review.Build(args[0], optional(args, 1), review.Options{Launch: o, Check: check, NoNVRTC: noNVRTC})
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := pg.Write(&b); err != nil {
				return err
			}
			if out == "-" {
				_, err = c.OutOrStdout().Write(b.Bytes())
				return err
			}
			if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(c.ErrOrStderr(), "wrote %s (%d KiB)\n", out, (b.Len()+1023)/1024)
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&out, "output", "o", "", "write the page to this file (- for stdout)")
	f.BoolVar(&check, "check", false, "run tri run --check (GPU and interpreter, compared) and show its result")
	f.BoolVar(&noNVRTC, "no-nvrtc", false, "leave out ptxas's report even where NVRTC is found")
	f.StringArrayVar(&o.Lets, "let", nil, "bind NAME=EXPR for the launch line (repeatable)")
	f.IntVar(&o.NumWarps, "num-warps", 0, "warps per program (overrides the launch line; default 4)")
	f.IntVar(&o.NumStages, "num-stages", 0, "software pipelining stages (default 3)")
	f.IntVar(&o.Config, "config", -1, "use the I-th @triton.autotune config (default 0)")
	f.StringVar(&o.Arch, "arch", "", "target architecture, e.g. sm_80 or sm_90a (default: the GPU's, else sm_80)")
	f.Int64Var(&o.Seed, "seed", 0, "seed of the --let generators (for --check)")
	timeoutFlag(c, o, "stop the build after this long, and then the --check run")
	rootFlag(c, o)
	hostIOFlag(c, &o.AllowHostIO)
	c.PreRunE = func(*cobra.Command, []string) error { return o.CheckFlags(f.Changed) }
	return c
}
