package gpu

// This file decides what code Compile makes for a target architecture on
// the GPU at hand, and how the GPU loads it.
//
// A cubin runs only on GPUs of its major architecture whose minor version
// is at least its own (sm_80 SASS runs on sm_86, not on sm_90), and code
// for an architecture-specific target only on that very architecture
// (sm_90a on compute capability 9.0) or family (sm_100f on 10.x). So:
//
//   - a target the GPU runs as a cubin (its own, or an older one of its
//     major architecture) is compiled to a cubin, as before;
//   - an older target of an older major architecture (sm_80 or sm_89 on an
//     sm_90 GPU) is compiled to PTX for that target, which the driver's JIT
//     compiles for the GPU when it loads it: the code is the target's
//     (mma.sync, not wgmma), run on this GPU;
//   - a newer target, or an architecture-specific one of another GPU
//     (sm_100 or sm_90a on an sm_80 GPU, sm_100a on sm_90), is refused.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/nvrtc"
)

// ErrTarget is wrapped by the error of a target architecture that the GPU
// cannot run.
var ErrTarget = errors.New("target not runnable on this GPU")

// Target is the code Compile makes for one target architecture on one GPU.
type Target struct {
	Arch   string // the architecture the CUDA is generated and compiled for, e.g. "sm_80"
	Device string // the GPU's own architecture, e.g. "sm_90"
	// JIT: the code is PTX for Arch, which the driver compiles for the
	// GPU as it loads it (Arch is of an older major architecture than the
	// GPU's); otherwise it is a cubin for Arch, which the GPU runs as it is.
	JIT bool
}

// Note is the line that says the code runs through the driver's PTX JIT,
// for the command line's stderr; "" for a cubin.
func (t Target) Note() string {
	if !t.JIT {
		return ""
	}
	return fmt.Sprintf("tri: running %s code on an %s device through the driver's PTX JIT", t.Arch, t.Device)
}

// ResolveTarget is the Target of arch on GPU 0; "" is the GPU's own
// (DeviceTarget). A target the GPU cannot run gives an error wrapping
// ErrTarget; no GPU, one wrapping ErrNoGPU.
func ResolveTarget(arch string) (Target, error) {
	dev, err := Device()
	if err != nil {
		return Target{}, err
	}
	return targetOn(dev, arch)
}

// targetOn is ResolveTarget on dev.
func targetOn(dev *nvrtc.Device, arch string) (Target, error) {
	if arch == "" {
		arch = DeviceTarget(dev)
	}
	major, minor := dev.ComputeCapability()
	return planTarget(arch, dev.Name(), major, minor)
}

// planTarget is the Target of arch on a GPU named name of compute
// capability major.minor, by the rules of the file's comment.
func planTarget(arch, name string, major, minor int) (Target, error) {
	if err := cudagen.CheckArch(arch); err != nil {
		return Target{}, err
	}
	digits, suffix := splitArch(arch)
	n, _ := strconv.Atoi(digits)
	dev := major*10 + minor
	t := Target{Arch: arch, Device: fmt.Sprintf("sm_%d", dev)}
	var why string
	switch {
	case suffix == "a" && n == dev, suffix == "f" && n/10 == major && n <= dev, suffix == "" && n/10 == major && n <= dev:
		return t, nil
	case suffix == "" && n < dev:
		t.JIT = true
		return t, nil
	case n > dev:
		why = fmt.Sprintf("%s is newer than the GPU", arch)
	case suffix == "a":
		why = fmt.Sprintf("%s code runs only on GPUs of compute capability %d.%d", arch, n/10, n%10)
	default:
		why = fmt.Sprintf("%s code runs only on GPUs of compute capability %d.%d to %d.9", arch, n/10, n%10, n/10)
	}
	return Target{}, &targetError{fmt.Sprintf("cannot run %s code on %s (%s): %s; it runs %s",
		arch, name, t.Device, why, runnable(major, minor))}
}

// targetError is a target the GPU cannot run; it matches ErrTarget.
type targetError struct{ msg string }

func (e *targetError) Error() string        { return e.msg }
func (e *targetError) Is(target error) bool { return target == ErrTarget }

// runnable lists the targets a GPU of compute capability major.minor runs,
// for the refusal of another.
func runnable(major, minor int) string {
	dev := major*10 + minor
	own := fmt.Sprintf("sm_%d", dev)
	if dev == 90 {
		own = "sm_90a"
	}
	older := fmt.Sprintf("sm_%d to sm_%d", cudagen.MinArch, dev)
	if dev == cudagen.MinArch {
		older = own
	}
	if own == older {
		return own + ", its own target"
	}
	return fmt.Sprintf("%s, its own target, and %s (those of older major architectures through the driver's PTX JIT)", own, older)
}

// splitArch splits a target accepted by cudagen.CheckArch into its number
// and its suffix: "90", "a" for sm_90a.
func splitArch(arch string) (digits, suffix string) {
	digits = strings.TrimPrefix(arch, "sm_")
	if s := digits[len(digits)-1]; s == 'a' || s == 'f' {
		return digits[:len(digits)-1], string(s)
	}
	return digits, ""
}
