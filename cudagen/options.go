package cudagen

// Options control code generation.
type Options struct {
	// Arch is the target architecture, "sm_80" if empty. It only appears in
	// the header for now; the code itself needs sm_80 or newer (bf16
	// conversions, max.NaN).
	Arch string
	// LineInfo emits #line directives pointing at the .tri file, so NVRTC
	// errors, cuda-gdb and ncu's source view show the kernel's source.
	LineInfo bool
}

func (o Options) arch() string {
	if o.Arch == "" {
		return "sm_80"
	}
	return o.Arch
}
