package launch

// This file implements tri build --aot DIR: the C library of one
// specialization (package aot), from -k KERNEL, --signature and --grid as
// Triton's ahead-of-time compiler takes them.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tri-lang/tri/aot"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
	"github.com/tri-lang/tri/sema"
)

// Ways to embed the kernel in a C library (Options.Embed).
const (
	EmbedAuto   = "auto"   // a cubin where NVRTC is found at build time, else the source
	EmbedCubin  = "cubin"  // a cubin compiled now, for --arch
	EmbedSource = "source" // the CUDA C, compiled by NVRTC when the library loads
)

// checkAOT refuses --aot options that do not go together, before any work.
func (o *Options) checkAOT() error {
	switch {
	case o.AOT == "" && o.Grid != "":
		return hosteval.Usage(errors.New("--grid is the launch grid of a C library: it goes with --aot DIR"))
	case o.AOT == "" && (o.OutName != "" || o.Embed != ""):
		return hosteval.Usage(errors.New("--out-name and --embed name and fill a C library: they go with --aot DIR"))
	case o.AOT == "":
		return nil
	case o.Kernel == "":
		return hosteval.Usage(errors.New("--aot DIR exports one specialization, as Triton's AOT compiler: give -k KERNEL --signature SIG --grid GRID rather than a launch line"))
	case strings.TrimSpace(o.Grid) == "":
		return hosteval.Usage(errors.New("--aot DIR needs the launch grid, computed in C from the integer parameters: --grid 'cdiv(n, 1024), 1, 1'"))
	}
	switch o.Embed {
	case "", EmbedAuto, EmbedCubin, EmbedSource:
		return nil
	}
	return hosteval.Usage(fmt.Errorf("--embed %q: want %s (a cubin if NVRTC is here, else the source), %s or %s", o.Embed, EmbedAuto, EmbedCubin, EmbedSource))
}

// checkAOTSignature refuses, placed in --signature, runtime scalars that a
// C launcher cannot take.
func checkAOTSignature(fn *frontend.Func, sigText string, sig sema.Signature) error {
	entries := splitTopLevel(sigText)
	for i, a := range sig.Args {
		if a.Kind != sema.ArgRuntime || a.DType.IsPtr() || i >= len(entries) {
			continue
		}
		if k := a.DType.Kind; k == ir.Float16 || k == ir.BFloat16 || k.IsFP8() {
			e := entries[i]
			col := e.col + (len(e.text) - len(strings.TrimLeft(e.text, " \t")))
			err := hosteval.ErrAt("--signature", col, fmt.Sprintf("parameter %s: a %s scalar cannot be passed from C (C has no portable %s type); with --aot, make it fp32 and convert it in the kernel", fn.Params[i].Name, k, k))
			return hosteval.Usage(withSignature(err, sigText))
		}
	}
	return nil
}

func withSignature(err error, text string) error {
	hosteval.AttachSource(&err, "--signature", text)
	return err
}

// writeAOT writes the C library of k, whose CUDA for arch is res, into
// o.AOT, and says on stdout what it wrote.
func writeAOT(sf *SourceFile, k *ir.Kernel, res *cudagen.Result, arch string, o *Options) (err error) {
	opt := aot.Options{Name: o.OutName, Grid: o.Grid, Arch: arch}
	// The library compiles the source with tri's own NVRTC options, for
	// the architecture of the GPU it finds then.
	copt := nvrtc.CompileOptions{Arch: arch, LineInfo: o.LineInfo}
	if k.MaxNReg > 0 {
		copt.Extra = append(copt.Extra, fmt.Sprintf("--maxrregcount=%d", k.MaxNReg))
	}
	for _, s := range copt.Options() {
		if !strings.HasPrefix(s, "--gpu-architecture=") {
			opt.NVRTCOptions = append(opt.NVRTCOptions, s)
		}
	}
	embed := o.Embed
	if embed == "" || embed == EmbedAuto {
		embed = EmbedSource
		if nvrtc.LoadNVRTC() == nil {
			embed = EmbedCubin
		} else {
			fmt.Fprintf(o.stderr(), "tri: no NVRTC here: the library embeds the CUDA source, which NVRTC compiles when it loads (--embed cubin needs NVRTC now)\n")
		}
	}
	if embed == EmbedCubin {
		prog, _, err := gpu.CompileCUDA(k, res, gpu.Target{Arch: arch}, o.LineInfo)
		if err != nil {
			return fmt.Errorf("--embed cubin: %w", err)
		}
		opt.Cubin = prog.Cubin
	}
	lib, err := aot.Generate(k, res, opt)
	if err != nil {
		hosteval.AttachSource(&err, "--grid", o.Grid)
		return hosteval.Usage(err)
	}
	if err := os.MkdirAll(o.AOT, 0o755); err != nil {
		return hosteval.Usage(fmt.Errorf("--aot %s: %w", o.AOT, err))
	}
	var written []string
	for _, f := range lib.Files() {
		path := filepath.Join(o.AOT, f[0])
		if err := hosteval.CheckOutput("--aot "+o.AOT, path, sf.inputs()...); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(f[1]), 0o644); err != nil {
			return err
		}
		written = append(written, path)
	}
	what := "the CUDA source, compiled by NVRTC when it loads"
	if opt.Cubin != nil {
		what = fmt.Sprintf("a %d-byte cubin for %s", len(opt.Cubin), arch)
	}
	fmt.Fprintf(o.stdout(), "wrote %s (%s, embedding %s)\n", strings.Join(written, " and "), lib.Name, what)
	return nil
}
