package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tri-lang/tri/benchplot"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/version"
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "tri",
		Short: "Compile Triton kernels to readable CUDA C and run them",
		Long: `tri compiles Triton kernels (@triton.jit functions written against
triton.language) into readable CUDA C, compiles that with NVRTC and launches
it on the GPU, or interprets the kernel on the CPU.

A launch line is written exactly as in Python:
  tri run add.tri 'add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)' \
      --let n=98432 --let 'x=rand(n)' --let 'y=rand(n)' --let 'out=empty(n)' --save out=out.npy

Exit codes: 0 success; 1 a failed check, a kernel error or no GPU for a GPU
command; 2 bad input (usage, missing file, bad source, launch line or --let).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          unknownCommand,
		// cobra sets this default only on its own path to suggestions.
		SuggestionsMinimumDistance: 2,
	}
	// --version prints what tri version prints, as most tools' --version
	// does; cobra's own Version field would print a fixed template, without
	// what is found of CUDA.
	showVersion := root.Flags().Bool("version", false, "print tri's version and what it finds of CUDA (as tri version)")
	root.RunE = func(c *cobra.Command, args []string) error {
		if *showVersion {
			printVersion(c)
			return nil
		}
		return c.Help()
	}
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newCheck(), newBuild(), newRun(), newBench(), newSurvey(), newCache(), newVersion())
	root.AddCommand(newReview())
	return root
}

// common registers the flags every compiling command shares.
func common(c *cobra.Command, o *launch.Options) {
	f := c.Flags()
	f.IntVar(&o.NumWarps, "num-warps", 0, "warps per program (overrides the launch line; default 4)")
	f.IntVar(&o.NumStages, "num-stages", 0, "software pipelining stages (default 3)")
	f.IntVar(&o.Config, "config", -1, "use the I-th @triton.autotune config instead of tuning (--interpret, --check, build: default 0)")
	f.StringVar(&o.Arch, "arch", "", "target architecture, e.g. sm_80 or sm_90a (default: the GPU's, else sm_80); on an older target's code, run and bench use the driver's PTX JIT; --interpret and --check's interpreter convert fp8 as the target does (before sm_89 in software, as Triton)")
	f.BoolVar(&o.LineInfo, "line-info", false, "emit #line directives so tools point at the .tri file")
	f.BoolVar(&o.Debug, "debug", envBool(os.Getenv("TRITON_DEBUG")), "compile tl.device_assert and assert into the GPU code, as Triton's debug=True (default: TRITON_DEBUG)")
	f.Int64Var(&o.Seed, "seed", 0, "seed of the --let generators")
	timeoutFlag(c, o, "stop the build (parsing, unrolling, generating CUDA) after this long, and then a run, tuning or interpretation")
	f.Var(memoryFlag{&o.MaxMemory}, "max-memory", "the most host memory the launch's tensors and the interpreter's tiles may take, e.g. 8GiB (past it: a placed error)")
	f.StringSliceVar(&o.Dump, "dump", nil, "print an internal form: ast, ir, layout, cuda, resources (comma-separated)")
	rootFlag(c, o)
	hostIOFlag(c, &o.AllowHostIO)
	jsonFlag(c, o)
	c.PreRunE = func(*cobra.Command, []string) error { return o.CheckFlags(f.Changed) }
}

func newCheck() *cobra.Command {
	o := &launch.Options{}
	c := &cobra.Command{
		Use:   "check FILE",
		Short: "Parse and resolve every @jit function of a file",
		Long: `Parse and resolve every @jit function of a file, and evaluate the
arguments of its autotune and heuristics decorators. No launch is run, so
the header's launch is not read.

` + launch.HeaderHelp,
		Args: exactArgs(1, "check FILE"),
		RunE: func(c *cobra.Command, args []string) error {
			o.Stdout, o.Stderr = c.OutOrStdout(), c.ErrOrStderr()
			return launch.CheckFile(args[0], o)
		},
	}
	c.Flags().StringSliceVar(&o.Dump, "dump", nil, "print the AST (--dump=ast)")
	rootFlag(c, o)
	hostIOFlag(c, &o.AllowHostIO)
	jsonFlag(c, o)
	timeoutFlag(c, o, "stop checking after this long")
	// Only --timeout is checked here: CheckFile refuses a --dump other
	// than ast itself, with a message that says so.
	c.PreRunE = func(*cobra.Command, []string) error {
		return o.CheckFlags(func(flag string) bool { return flag == "timeout" && c.Flags().Changed(flag) })
	}
	return c
}

// timeoutFlag registers --timeout, which bounds every phase of a command
// (see launch.Options.Timeout).
func timeoutFlag(c *cobra.Command, o *launch.Options, usage string) {
	c.Flags().DurationVar(&o.Timeout, "timeout", 60*time.Second, usage)
}

// hostIOFlag registers --allow-host-io, the way out of the boundary of
// host Python (see the README's "Host Python").
func hostIOFlag(c *cobra.Command, allow *bool) {
	c.Flags().BoolVar(allow, "allow-host-io", false, "let the file's host Python (autotune configs, heuristics, module-level values) open files, import any module and use eval/exec: only for code you trust")
}

// rootFlag registers --root, the folders searched for imported modules.
func rootFlag(c *cobra.Command, o *launch.Options) {
	c.Flags().Var(rootsValue{&o.Roots}, "root", "a folder to search for the modules the file imports, before TRI_PATH and the root found from its __init__.py files (repeatable)")
}

func newBuild() *cobra.Command {
	o := &launch.Options{}
	c := &cobra.Command{
		Use:   "build FILE (-k KERNEL --signature SIG [--grid G --aot DIR] | 'LAUNCH' [--let NAME=EXPR]...) [-o F.cu]",
		Short: "Emit the CUDA C of one specialization of a kernel",
		Long: `Emit the CUDA C of one specialization of a kernel, either from a signature
in the format of Triton's ahead-of-time compiler:

  tri build add.tri -k add_kernel --signature '*fp32:16, *fp32:16, *fp32:16, i32, 1024'

(one entry per parameter: *fp32 a pointer, :16 for 16-byte alignment; i32,
i64, fp32 scalars, :16 divisible by 16, :1 equal to one; a literal is a
constexpr value), or from a launch line whose arguments give the signature:

  tri build add.tri 'add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)' \
      --let n=4096 --let 'x=rand(n)' --let 'y=rand(n)' --let 'out=empty(n)'

Without either, the launch recorded in the file's header is used. A kernel
under @triton.autotune is built with its first config, or the I-th with
--config I. The CUDA goes to stdout unless -o is given. No GPU is needed,
and the elements of the --let tensors are never made (the build reads their
dtypes, shapes and strides): inputs of billions of elements cost nothing.

` + aotHelp + `
` + launch.HeaderHelp,
		Args: rangeArgs(1, 2, "build FILE (-k KERNEL --signature SIG | 'LAUNCH')"),
		RunE: func(c *cobra.Command, args []string) error {
			o.Stdout, o.Stderr = c.OutOrStdout(), c.ErrOrStderr()
			line := optional(args, 1)
			if line != "" && o.Kernel != "" {
				return usageError("build takes either -k KERNEL --signature SIG or a launch line, not both")
			}
			if (o.Kernel == "") != (o.Signature == "") {
				return usageError("-k and --signature go together")
			}
			return launch.BuildFile(args[0], line, o)
		},
	}
	common(c, o)
	f := c.Flags()
	f.StringVarP(&o.Kernel, "kernel", "k", "", "kernel to build (with --signature)")
	f.StringVar(&o.Signature, "signature", "", "Triton AOT signature, e.g. '*fp32:16, i32, 1024'")
	f.StringVarP(&o.Output, "output", "o", "", "write the CUDA C to this file")
	f.StringArrayVar(&o.Lets, "let", nil, "bind NAME=EXPR for the launch line (repeatable)")
	aotFlags(c, o)
	return c
}

func newRun() *cobra.Command {
	o := &launch.Options{}
	c := &cobra.Command{
		Use:   "run FILE 'LAUNCH' [--let NAME=EXPR]... [--save NAME=F.npy]... [--interpret | --check]",
		Short: "Launch a kernel on the GPU (or interpret it on the CPU)",
		Long: `Launch a kernel on the GPU, or with --interpret run it on the CPU.
TRITON_INTERPRET=1 in the environment means --interpret, as it makes Triton
interpret kernels (--interpret=false overrides it; --check, which needs the
GPU, is refused under it).

--let binds names, in order: numbers; load("x.npy", dtype=...); randn(*shape,
dtype=...), rand, randint(lo, hi, *shape, dtype=...), zeros, ones, empty
(NaN-filled for floats so unwritten elements show), full(shape, value,
dtype=...), arange(n, dtype=...), *_like(name), tensor([...], dtype=...),
ptrs(a, b, ..., dtype='int64' or 'uint64') (a table of the addresses of
bound tensors, the interpreter's own under --interpret); lambda meta: (...)
for grids. dtype defaults to 'float32'.

A kernel under @triton.autotune is tuned on the GPU the first time a launch
with its key is run: each config is compiled and timed as tri bench does, on
copies of the tensors (the launch's own tensors are untouched), one line per
config on stderr; the fastest is kept under tri's cache folder (see tri
cache; $TRI_CACHE_DIR or $TRI_AUTOTUNE_CACHE move it) and taken by later
runs without timing. --config I runs
the I-th config instead; --interpret and --check run --config I, default 0.
Meta-parameters, num_warps and num_stages given in the launch override the
config's; @triton.heuristics compute theirs at every launch.

--save NAME=F.npy writes a bound tensor after the launch (fp16 as <f2, bf16
as float32). --check runs on the GPU and in the interpreter on the same
inputs and fails (exit 1) on any difference beyond this tolerance (pointer
tables are not compared; a kernel with tl.inline_asm_elementwise, which the
interpreter cannot run, runs on the GPU only, with a warning):

` + launch.ToleranceTable + `

` + launch.HeaderHelp,
		Args: rangeArgs(1, 2, "run FILE ['LAUNCH']"),
		RunE: func(c *cobra.Command, args []string) error {
			o.Stdout, o.Stderr = c.OutOrStdout(), c.ErrOrStderr()
			if o.Interpret && o.Check {
				if !c.Flags().Changed("interpret") {
					return usageError("--check runs the kernel on the GPU too, but TRITON_INTERPRET=%s asks for the interpreter only: unset TRITON_INTERPRET (or give --interpret=false) to check", os.Getenv("TRITON_INTERPRET"))
				}
				return usageError("--interpret and --check exclude each other")
			}
			err := launch.RunFile(args[0], optional(args, 1), o)
			switch {
			case o.Interpret: // already on the CPU: what failed is NVRTC for --dump=resources
				return err
			case o.Check:
				return suggestInterpret(err, "--interpret instead of --check runs the kernel on the CPU interpreter alone")
			}
			return suggestInterpret(err, "--interpret runs the kernel on the CPU interpreter, which needs no GPU (as TRITON_INTERPRET=1 does)")
		},
	}
	common(c, o)
	f := c.Flags()
	f.StringArrayVar(&o.Lets, "let", nil, "bind NAME=EXPR (repeatable, evaluated in order)")
	f.StringArrayVar(&o.Saves, "save", nil, "write tensor NAME to F.npy after the launch (repeatable)")
	f.StringVar(&o.SaveInputs, "save-inputs", "", "write every bound tensor to DIR/NAME.npy before the launch")
	f.BoolVar(&o.Interpret, "interpret", envBool(os.Getenv("TRITON_INTERPRET")), "run on the CPU interpreter instead of the GPU (default: TRITON_INTERPRET)")
	f.BoolVar(&o.Check, "check", false, "run on the GPU and the interpreter and compare")
	return c
}

func newBench() *cobra.Command {
	o := &launch.Options{}
	b := &launch.BenchOptions{DrawPlot: benchplot.Write}
	var warmup, rep float64
	c := &cobra.Command{
		Use:   "bench FILE ['LAUNCH'] [--let ...] [--warmup MS] [--rep MS] [--sweep NAME=V1,...] [--bytes EXPR] [--flops EXPR] [--compare 'LAUNCH']... [--csv F] [--plot F.png]",
		Short: "Time a launch on the GPU as triton.testing.do_bench does",
		Long: `Time a launch on the GPU as triton.testing.do_bench does: warm up for
--warmup ms, then time each repetition for --rep ms with CUDA events, clearing
a 256 MiB buffer before each so the L2 cache starts cold, and report the
median and the 20% and 80% quantiles. --bytes and --flops are expressions over
the bindings (e.g. --bytes '3 * n * 4') that turn times into GB/s or TFLOP/s.
--sweep NAME=V1,V2,... rebinds --let NAME and evaluates the bindings after it
again; --compare adds more launch lines to the same table. --plot draws them
as a PNG: one line per launch line over the sweep values, in TFLOP/s or GB/s
if asked for, else milliseconds. A kernel under @triton.autotune is tuned
first, as tri run does (or takes the cached choice), unless --config I
picks a config. bench times the GPU only: under TRITON_INTERPRET=1, which
asks for the interpreter, it refuses to run.

` + launch.HeaderHelp,
		Args: rangeArgs(1, 2, "bench FILE ['LAUNCH']"),
		RunE: func(c *cobra.Command, args []string) error {
			// Timing the interpreter would measure nothing a kernel's user
			// wants, and timing the GPU would ignore what was asked for.
			if v := os.Getenv("TRITON_INTERPRET"); envBool(v) {
				return usageError("tri bench times kernels on the GPU, but TRITON_INTERPRET=%s asks for the CPU interpreter: unset TRITON_INTERPRET to bench (or use tri run, which interprets under it)", v)
			}
			o.Stdout, o.Stderr = c.OutOrStdout(), c.ErrOrStderr()
			b.Warmup = time.Duration(warmup * float64(time.Millisecond))
			b.Rep = time.Duration(rep * float64(time.Millisecond))
			_, err := launch.BenchFile(args[0], optional(args, 1), o, b)
			return suggestInterpret(err, "tri bench times the GPU; tri run --interpret runs the kernel on the CPU interpreter, untimed")
		},
	}
	common(c, o)
	f := c.Flags()
	f.StringArrayVar(&o.Lets, "let", nil, "bind NAME=EXPR (repeatable, evaluated in order)")
	f.Float64Var(&warmup, "warmup", 25, "warm-up time in milliseconds")
	f.Float64Var(&rep, "rep", 100, "measuring time in milliseconds")
	f.StringVar(&b.Sweep, "sweep", "", "NAME=V1,V2,...: time once per value of --let NAME")
	f.StringVar(&b.Bytes, "bytes", "", "bytes moved per launch (an expression over the bindings)")
	f.StringVar(&b.Flops, "flops", "", "floating-point operations per launch (an expression)")
	f.StringArrayVar(&b.Compare, "compare", nil, "another launch line to time (repeatable)")
	f.StringVar(&b.CSV, "csv", "", "write the results as CSV")
	f.StringVar(&b.Plot, "plot", "", "write a PNG plot: one line per launch line over the sweep")
	return c
}

func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tri's version and what it finds of CUDA",
		Args:  exactArgs(0, "version"),
		Run:   func(c *cobra.Command, args []string) { printVersion(c) },
	}
}

// printVersion writes tri's version and what it finds of CUDA, for both
// tri version and tri --version.
func printVersion(c *cobra.Command) {
	fmt.Fprintf(c.OutOrStdout(), "tri %s\n", version.Version)
	fmt.Fprintln(c.OutOrStdout(), launch.RuntimeSummary())
}

// unknownCommand refuses the arguments left to the root command, which
// name no subcommand, as bad input (exit 2), suggesting the command meant
// as cobra does when the root has no Run.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError("%s", msg)
}

func optional(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

func rangeArgs(lo, hi int, usage string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usageError("usage: tri %s (got %d arguments)", usage, len(args))
		}
		return nil
	}
}

func exactArgs(n int, usage string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError("usage: tri %s (got %d arguments)", usage, len(args))
		}
		return nil
	}
}

// envBool reads a boolean environment variable as Triton does: 1, true,
// yes, on and y (in any case) are true.
func envBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on", "y":
		return true
	}
	return false
}
