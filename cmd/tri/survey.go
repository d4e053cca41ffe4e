package main

import (
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/survey"
)

func newSurvey() *cobra.Command {
	var o survey.Options
	var csvPath string
	var top int
	c := &cobra.Command{
		Use:   "survey DIR [--csv F] [--jobs N] [--timeout D] [--arch sm_XY]",
		Short: "Build every @jit kernel under a folder and rank the failures",
		Long: `Find every @triton.jit function in the .py and .tri files under DIR and build each
kernel (a function that no other @jit function calls) as tri build does, for a
launch derived from its parameters: pointers (names ending in ptr, or values
that reach a load, store, atomic or block pointer) as fp32 tensors, then fp16,
then int32, then the other integer types the file's @jit functions name
(tl.uint32);
tl.constexpr parameters from their defaults, the first autotune config, the
heuristics, else the first literal that a kernel compares a parameter of that
name with (act_func == "relu"), else False for flags (names that conditions
test alone, HAS_, IS_, USE_...; True if nothing builds with False), 32 for block sizes and 16 for the rest; other parameters from their defaults,
else 64 (0.5 for scale and eps, but never for strides or what an address's
offsets are computed from). No GPU is needed: the CUDA is generated, not compiled.

Prints the kernels built per folder and the kinds of failure, ranked by count
(internal errors first), with one example each; --csv writes one row per @jit
function (file, line, kernel, status, kind, message, pointer type, launch
line, --let bindings, every error). Progress goes to stderr. Exit status 0 unless DIR
cannot be read.`,
		Args: exactArgs(1, "survey DIR"),
		PreRunE: func(c *cobra.Command, _ []string) error {
			if o.Jobs < 1 {
				return usageError("--jobs %d: want at least 1", o.Jobs)
			}
			if o.Timeout <= 0 {
				return usageError("--timeout: want a positive duration such as 30s, not %v", o.Timeout)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			if fi, err := os.Stat(args[0]); err != nil || !fi.IsDir() {
				return usageError("%s is not a folder", args[0])
			}
			o.Progress = c.ErrOrStderr()
			rep, err := survey.Run(args[0], o)
			if err != nil {
				return err
			}
			if err := rep.Print(c.OutOrStdout(), top); err != nil {
				return err
			}
			if csvPath == "" {
				return nil
			}
			var read []string // the files surveyed, which the CSV must not replace
			for _, r := range rep.Results {
				read = append(read, filepath.Join(rep.Dir, filepath.FromSlash(r.File)))
			}
			if err := hosteval.CheckOutput("--csv "+csvPath, csvPath, read...); err != nil {
				return err
			}
			f, err := os.Create(csvPath)
			if err != nil {
				return err
			}
			if err := rep.WriteCSV(f); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		},
	}
	f := c.Flags()
	f.StringVar(&csvPath, "csv", "", "write one row per @jit function to this CSV file")
	f.IntVar(&o.Jobs, "jobs", runtime.NumCPU(), "files built at once")
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "give up on one kernel after this long")
	f.StringVar(&o.Arch, "arch", "", "target architecture, e.g. sm_90 (default: the GPU's, else sm_80)")
	f.IntVar(&top, "top", 0, "print only the N most frequent kinds of failure (0: all)")
	hostIOFlag(c, &o.AllowHostIO)
	return c
}
