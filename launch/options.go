package launch

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/tri-lang/tri/bind"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/hosteval"
)

// Options are the settings of the command line's compiling commands, also
// usable from Go. The zero value plus Stdout/Stderr is a sensible default;
// a nil *Options is the zero value (no output, no bounds).
type Options struct {
	NumWarps, NumStages int // override the launch line's; 0: keep
	Config              int // autotune config index; -1: tune
	Arch                string
	LineInfo            bool
	Seed                int64
	// Timeout bounds parsing, specializing (unrolling and inlining) and
	// generating CUDA together, from the start of the command, and then
	// each of tuning and the run or interpretation; 0: no bound.
	Timeout time.Duration
	// MaxMemory bounds the host memory of the tensors a launch binds
	// (checked after each --let) and, in the interpreter, of the kernel's
	// tensors plus the large tiles its programs hold; 0 means
	// interp.DefaultMaxMemory(), half the memory available.
	MaxMemory         int64
	Dump              []string // ast, ir, layout, cuda, resources
	Lets              []string // NAME=EXPR, in order
	Saves             []string // NAME=F.npy
	SaveInputs        string   // directory for every bound tensor before the launch
	Interpret, Check  bool
	Kernel, Signature string // tri build -k/--signature
	Output            string // tri build -o
	// AOT is the folder tri build --aot writes a C library into (package
	// aot): NAME.h and NAME.c, NAME being OutName or the kernel's; Grid is
	// its launch grid (--grid) and Embed what it embeds: EmbedAuto (""),
	// EmbedCubin or EmbedSource.
	AOT, Grid, OutName, Embed string
	Stdout, Stderr            io.Writer
	// Debug compiles device assertions into the GPU code (tri run --debug,
	// Triton's debug=True); the interpreter checks them always.
	Debug bool
	// Roots are folders searched for the modules a kernel file imports,
	// before those named by TRI_PATH (as PYTHONPATH) and the source root
	// found by walking up the kernel file's __init__.py files.
	Roots []string
	// AllowHostIO (--allow-host-io) lets the host code that tri runs open
	// files, import any module and compile code; by default it has no I/O
	// (autotune.Host.AllowIO).
	AllowHostIO bool
	// JSON (--json) prints the warnings found on the way to Stderr as JSON
	// lines (diag.WriteJSON) instead of for a person.
	JSON bool
	// DeferData binds the --let tensors deferred (hosteval.Env.DeferData):
	// their elements are made only if something reads them. tri build and
	// the review pages set it, since specializing reads only dtypes,
	// shapes and strides; a run, interpretation or tuning of the Prepared
	// makes them first.
	DeferData bool

	// ctx ends the compiling phases at the command's --timeout (see
	// withDeadline); nil: no deadline.
	ctx context.Context
}

// orDefault is o, or for nil the zero Options: every exported function
// that takes Options reads a nil one as the defaults, so that a Go caller
// who wants none can pass nil.
func (o *Options) orDefault() *Options {
	if o == nil {
		return &Options{}
	}
	return o
}

func (o *Options) stdout() io.Writer {
	if o.Stdout == nil {
		return io.Discard
	}
	return o.Stdout
}

func (o *Options) stderr() io.Writer {
	if o.Stderr == nil {
		return io.Discard
	}
	return o.Stderr
}

// dumpOut is where --dump output goes: stderr, so that what a command
// writes to stdout (tri build's CUDA) stays whole.
func (o *Options) dumpOut() io.Writer { return o.stderr() }

func (o *Options) dumps(what string) bool {
	for _, d := range o.Dump {
		if d == what {
			return true
		}
	}
	return false
}

var dumpKinds = []string{"ast", "ir", "layout", "cuda", "resources"}

// checkDumps reports a --dump kind that is not one of kinds.
func checkDumps(dumps, kinds []string) error {
	for _, d := range dumps {
		if !slices.Contains(kinds, d) {
			return hosteval.Usage(fmt.Errorf("unknown --dump %q (want %s)", d, strings.Join(kinds, ", ")))
		}
	}
	return nil
}

// CheckFlags validates the options the command line set (changed reports
// whether a flag was given; nil: none was), as the launch line's
// num_warps= and num_stages= are: a bad value is bad input, never
// silently replaced.
func (o *Options) CheckFlags(changed func(flag string) bool) error {
	if changed == nil {
		return nil
	}
	bad := func(flag, why string) error { return hosteval.Usage(fmt.Errorf("--%s: %s", flag, why)) }
	if changed("num-warps") {
		if why := bind.NumWarpsProblem(int64(o.NumWarps)); why != "" {
			return bad("num-warps", why)
		}
	}
	if changed("num-stages") {
		if why := bind.NumStagesProblem(int64(o.NumStages)); why != "" {
			return bad("num-stages", why)
		}
	}
	if changed("dump") {
		if err := checkDumps(o.Dump, dumpKinds); err != nil {
			return err
		}
	}
	if changed("arch") {
		if err := cudagen.CheckArch(o.Arch); err != nil {
			return hosteval.Usage(err)
		}
	}
	if changed("config") && o.Config < 0 {
		return hosteval.Usage(fmt.Errorf("--config %d: want the index of an autotune config (0, 1, ...)", o.Config))
	}
	if changed("timeout") && o.Timeout <= 0 {
		return bad("timeout", fmt.Sprintf("want a positive duration such as 30s or 5m, not %v", o.Timeout))
	}
	return nil
}

// check validates options set from Go, where zero means "keep the launch's"
// (and Config -1 "tune"): what CheckFlags does for the command line.
func (o *Options) check() error {
	return o.CheckFlags(func(flag string) bool {
		switch flag {
		case "num-warps":
			return o.NumWarps != 0
		case "num-stages":
			return o.NumStages != 0
		case "config":
			return o.Config < -1
		case "timeout":
			return o.Timeout < 0
		case "arch":
			return o.Arch != ""
		}
		return false
	})
}
