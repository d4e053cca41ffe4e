package aot

// This file implements Generate: it checks what a C export needs, decides
// the launcher's parameters and grid, and hands those records to the
// printers of header.go and cfile.go.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/ir"
)

// Options say what to export besides the kernel.
type Options struct {
	// Name is the launcher's C name and the files' base name; "" is the
	// kernel's name.
	Name string
	// Grid is the launch grid: one to three expressions over the kernel's
	// integer parameters (grid.go). Required.
	Grid string
	// Arch is the architecture the CUDA was generated for (sm_80, sm_90a).
	Arch string
	// Cubin is the kernel compiled for Arch, embedded as it is; nil embeds
	// the CUDA source, compiled by NVRTC when the library loads.
	Cubin []byte
	// NVRTCOptions are NVRTC's options for the source besides
	// --gpu-architecture, which the library picks for the GPU it runs on
	// (tri's --std=c++17, -default-device, --maxrregcount, -lineinfo).
	NVRTCOptions []string
}

// Library is a generated C library: NAME.h and NAME.c.
type Library struct {
	Name   string // the launcher's C name and the files' base name
	Header string // NAME.h
	Source string // NAME.c
}

// Files returns the library's file names and contents, header first
// (none for a nil Library).
func (l *Library) Files() [][2]string {
	if l == nil {
		return nil
	}
	return [][2]string{{l.Name + ".h", l.Header}, {l.Name + ".c", l.Source}}
}

// cParam is one parameter of the launcher.
type cParam struct {
	name  string // its C name in the launcher
	cType string // CUdeviceptr, int32_t, float, ...
	spec  string // how it was specialized, as the signature writes it: *fp32:16
}

// export is everything the printers read.
type export struct {
	k         *ir.Kernel
	res       *cudagen.Result
	opt       Options
	name      string
	params    []cParam
	grid      *grid
	arch      archInfo
	usesBool  bool // a bool parameter: the header includes stdbool.h
	specLine  string
	gridLine  string
	threads   int
	sharedMem int
}

// archInfo is the target the CUDA was generated for, as the C checks it.
type archInfo struct {
	name  string // sm_90a
	cc    int    // 90
	exact bool   // an architecture-specific target (sm_90a): only that GPU runs its code
}

// Generate writes the C library of the kernel k, whose CUDA is res.
func Generate(k *ir.Kernel, res *cudagen.Result, opt Options) (*Library, error) {
	if k == nil || res == nil {
		return nil, errors.New("aot.Generate: no kernel or no CUDA (nil)")
	}
	e := &export{k: k, res: res, opt: opt, name: opt.Name, threads: res.Threads, sharedMem: res.SharedBytes}
	if e.name == "" {
		e.name = k.Name
	}
	if err := checkCName(e.name); err != nil {
		return nil, err
	}
	if len(res.TensorMaps) > 0 {
		return nil, fmt.Errorf("%s: the kernel takes %d CUtensorMap parameters (TMA descriptors that a launch encodes on the host), which a C export does not build yet; export it for an architecture without TMA (--arch sm_80) or pass plain pointers", k.Name, len(res.TensorMaps))
	}
	if res.ScratchBytes > 0 {
		return nil, fmt.Errorf("%s: the kernel needs %d bytes of scratch memory per program (for the tensor maps it builds), which a C export does not allocate yet; export it for an architecture without TMA (--arch sm_80)", k.Name, res.ScratchBytes)
	}
	if len(res.Params) != len(k.Params) {
		return nil, fmt.Errorf("internal error: %s has %d parameters but its CUDA %d", k.Name, len(k.Params), len(res.Params))
	}
	var err error
	if e.arch, err = parseArch(opt.Arch); err != nil {
		return nil, err
	}
	if e.threads <= 0 {
		e.threads = 32 * max(k.NumWarps, 1)
	}
	if err := e.decideParams(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(opt.Grid) == "" {
		return nil, fmt.Errorf("%s: a C export needs the launch grid (--grid), e.g. --grid 'cdiv(n, 1024), 1, 1'", k.Name)
	}
	if e.grid, err = parseGrid(opt.Grid, e.gridNames()); err != nil {
		return nil, err
	}
	e.specLine, e.gridLine = e.specification(), e.grid.text
	return &Library{Name: e.name, Header: e.header(), Source: e.cFile()}, nil
}

// checkCName refuses a library name that is not a C identifier or that
// would clash with the library's own names or the driver's.
func checkCName(name string) error {
	ok := name != "" && !(name[0] >= '0' && name[0] <= '9')
	for i := 0; i < len(name); i++ {
		ok = ok && isIdentByte(name[i])
	}
	switch {
	case !ok:
		return fmt.Errorf("--out-name %q: the launcher's name must be a C identifier (letters, digits and _, not starting with a digit)", name)
	case cKeywords[name]:
		return fmt.Errorf("--out-name %q: the launcher's name is a C keyword", name)
	case strings.HasPrefix(name, "tri_") || driverLike(name) || strings.HasPrefix(name, "nvrtc"):
		return fmt.Errorf("--out-name %q: names starting with tri_, cuX, CU or nvrtc are the library's, the CUDA driver's and NVRTC's; choose another", name)
	}
	return nil
}

// cKeywords are C's and C++'s keywords and the names the header's types
// take, which no launcher or parameter may be named.
var cKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct switch
		typedef union unsigned void volatile while bool true false class namespace template this new delete
		operator private protected public virtual try catch throw using NULL main
		int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t`) {
		m[s] = true
	}
	return m
}()

// driverLike reports whether name is spelled as the CUDA driver's names
// are (cuLaunchKernel, CUstream, CUDA_SUCCESS), which a launcher that
// calls the driver must not hide.
func driverLike(name string) bool {
	return strings.HasPrefix(name, "CU") || len(name) > 2 && name[:2] == "cu" && name[2] >= 'A' && name[2] <= 'Z'
}

// parseArch reads sm_XY or sm_XYa.
func parseArch(arch string) (archInfo, error) {
	digits, ok := strings.CutPrefix(arch, "sm_")
	exact := strings.HasSuffix(digits, "a") || strings.HasSuffix(digits, "f")
	digits = strings.TrimRight(digits, "af")
	cc, err := strconv.Atoi(digits)
	if !ok || err != nil || cc < 10 {
		return archInfo{}, fmt.Errorf("architecture %q is not of the form sm_XY (sm_80, sm_90a)", arch)
	}
	return archInfo{name: arch, cc: cc, exact: exact}, nil
}

// decideParams names and types the launcher's parameters.
func (e *export) decideParams() error {
	specs := map[string]string{}
	for _, s := range e.k.Spec {
		if s.Kind == "runtime" {
			specs[s.Name] = s.Value
		}
	}
	used := map[string]bool{}
	for _, n := range launcherLocals {
		used[n] = true
	}
	for i, p := range e.k.Params {
		cType, err := cTypeOf(p.DType)
		if err != nil {
			return fmt.Errorf("%s: parameter %s: %v", e.k.Name, p.Name, err)
		}
		e.usesBool = e.usesBool || cType == "bool"
		name := e.res.Params[i].Name
		// cudagen's names avoid CUDA's; the launcher's must also avoid
		// its own locals and the driver's and stdint's names.
		if driverLike(name) {
			name = "arg_" + name
		}
		for used[name] || cKeywords[name] || strings.HasSuffix(name, "_t") {
			name += "_"
		}
		used[name] = true
		spec := specs[p.Name]
		if spec == "" {
			spec = p.DType.String()
		}
		e.params = append(e.params, cParam{name: name, cType: cType, spec: spec})
	}
	return nil
}

// cTypeOf is the C type in which a launcher takes a parameter of type d:
// one of the same size as the kernel's CUDA parameter, which
// cuLaunchKernel copies from the address it is given.
func cTypeOf(d ir.DType) (string, error) {
	if d.IsPtr() {
		return "CUdeviceptr", nil
	}
	switch d.Kind {
	case ir.Bool:
		return "bool", nil
	case ir.Int8, ir.Int16, ir.Int32, ir.Int64:
		return fmt.Sprintf("int%d_t", d.Kind.Bits()), nil
	case ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64:
		return fmt.Sprintf("uint%d_t", d.Kind.Bits()), nil
	case ir.Float32:
		return "float", nil
	case ir.Float64:
		return "double", nil
	}
	return "", fmt.Errorf("a %s scalar cannot be passed from C yet (C has no portable %s type); make it fp32 and convert in the kernel", d.Kind, d.Kind)
}

// gridNames are the names a grid may use: the integer runtime parameters
// by their C names, constexpr and :1 parameters by their values, and the
// other parameters with why they cannot be used.
func (e *export) gridNames() map[string]gridName {
	names := map[string]gridName{}
	runtime := map[string]int{}
	for i, p := range e.k.Params {
		if p.Of == "" {
			runtime[p.Name] = i
		}
	}
	for _, s := range e.k.Spec {
		switch s.Kind {
		case "one":
			names[s.Name] = gridName{value: 1}
		case "constexpr":
			switch {
			case s.Value == "True":
				names[s.Name] = gridName{value: 1}
			case s.Value == "False":
				names[s.Name] = gridName{value: 0}
			default:
				if v, err := strconv.ParseInt(s.Value, 10, 64); err == nil {
					names[s.Name] = gridName{value: v}
				} else {
					names[s.Name] = gridName{why: fmt.Sprintf("the constexpr is %s, not an integer", s.Value)}
				}
			}
		case "runtime":
			i, ok := runtime[s.Name]
			if !ok {
				names[s.Name] = gridName{why: "a tensor descriptor, not an integer"}
				continue
			}
			p, c := e.k.Params[i], e.params[i]
			switch {
			case p.DType.IsPtr():
				names[s.Name] = gridName{why: "a pointer; the grid is computed from integer parameters"}
			case !p.DType.Kind.IsInt():
				names[s.Name] = gridName{why: fmt.Sprintf("a %s parameter; the grid is computed from integer parameters", p.DType.Kind)}
			default:
				names[s.Name] = gridName{c: c.name, cType: c.cType}
			}
		default:
			names[s.Name] = gridName{why: "None, not an integer"}
		}
	}
	return names
}

// specification is the kernel's specialization in one line.
func (e *export) specification() string {
	var spec []string
	for _, s := range e.k.Spec {
		if s.Kind == "runtime" {
			spec = append(spec, s.Name+": "+s.Value)
		} else {
			spec = append(spec, s.Name+"="+s.Value)
		}
	}
	if len(spec) == 0 {
		return "no parameters"
	}
	return strings.Join(spec, ", ")
}

// oneLine is s with its whitespace runs made single spaces, for comments.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
