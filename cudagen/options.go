package cudagen

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
)

// Options control code generation.
type Options struct {
	// Arch is the target architecture, "sm_80" if empty. It must name sm_80
	// or newer (see CheckArch); wgmma and the pipelined K loops are emitted
	// for sm_90a only, the other tensor-core forms (mma.sync, ldmatrix,
	// cp.async) for every accepted target.
	Arch string
	// LineInfo emits #line directives pointing at the .tri file, so NVRTC
	// errors, cuda-gdb and ncu's source view show the kernel's source.
	LineInfo bool
	// NoTMA copies the blocks of host tensor descriptors in pipelined K
	// loops with cp.async, as on targets without the TMA unit, instead of
	// with cp.async.bulk.tensor (so does TRI_TMA=0 in the environment).
	NoTMA bool
	// Context, where not nil, stops Generate once it is done: Generate
	// then returns an error placed at the statement it was printing, in
	// the words of context.Cause (tri's --timeout).
	Context context.Context
}

func (o Options) arch() string { return targetArch(o.Arch) }

// tma reports whether sm_90a's pipelines may copy with the TMA unit.
func (o Options) tma() bool { return !o.NoTMA && os.Getenv("TRI_TMA") != "0" }

// targetArch is arch, or sm_80 where it is empty.
func targetArch(arch string) string {
	if arch == "" {
		return "sm_80"
	}
	return arch
}

// MinArch is the oldest target tri generates code for. Like Triton, whose
// NVIDIA backend needs compute capability 8.0, tri's prelude and lowering use
// instructions that sm_80 introduced: cvt to bf16, max.NaN and min.NaN,
// cp.async, and mma.sync of shapes m16n8k16 (fp16/bf16), m16n8k8 (tf32) and
// m16n8k32 (int8).
const MinArch = 80

var reArch = regexp.MustCompile(`^sm_([0-9]{2,3})([af]?)$`)

// CheckArch reports whether arch names a target tri can generate code for:
// "sm_XY" with an optional "a" or "f" suffix (sm_90a, sm_100f), XY at least
// MinArch.
func CheckArch(arch string) error {
	m := reArch.FindStringSubmatch(arch)
	if m == nil {
		return fmt.Errorf("--arch %q: want a CUDA architecture such as sm_80, sm_90a or sm_120", arch)
	}
	if n, _ := strconv.Atoi(m[1]); n < MinArch {
		return fmt.Errorf("--arch %s: tri generates code for sm_%d and newer, as Triton does (bf16 conversions, max.NaN, cp.async and mma.sync need sm_%d)", arch, MinArch, MinArch)
	}
	return nil
}

// ArchVersion is the number of a target accepted by CheckArch: 90 for
// sm_90a, 80 for sm_80; 0 for anything else ("", no target named).
func ArchVersion(arch string) int {
	m := reArch.FindStringSubmatch(arch)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
