package launch

// This file implements the commands: check, build and run.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/interp"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
	"github.com/tri-lang/tri/sema"
	"github.com/tri-lang/tri/tensor"
)

// CheckFile parses and resolves every @jit function of path and evaluates
// the arguments of its autotune and heuristics decorators, printing
// warnings to o.Stderr and the AST under --dump=ast.
func CheckFile(path string, o *Options) (err error) {
	o = o.orDefault()
	if err := checkDumps(o.Dump, []string{"ast"}); err != nil {
		return err
	}
	o, stop := o.withDeadline()
	defer stop()
	sf, err := ParseFile(path, o)
	if err != nil {
		return err
	}
	defer sf.sourced(&err)
	if err := o.stoppedAfter(path, "after parsing "+path); err != nil {
		return err
	}
	if o.dumps("ast") {
		frontend.Dump(o.stdout(), sf.File)
	}
	if err := splitDiags(sema.Check(sf.File), o.warnIn(sf)); err != nil {
		return hosteval.Usage(err)
	}
	// The arguments of autotune and heuristics decorators are evaluated too.
	for _, fn := range sf.File.Funcs {
		if err := o.stoppedAfter(path, "while reading the decorators of "+fn.Name); err != nil {
			return err
		}
		if _, err := autotune.Read(&autotune.Source{Path: sf.Path, Text: sf.Text, File: sf.File}, fn, func() string { return gpu.TargetArch(o.Arch) }, o.host(sf)); err != nil {
			return err
		}
	}
	fmt.Fprintf(o.stdout(), "%s: %s, no errors\n", path, diag.Count(int64(len(sf.File.Funcs)), "@jit function"))
	return nil
}

// BuildFile writes the CUDA C of one specialization, from -k/--signature or
// from a launch line (empty: the file's recorded launch).
func BuildFile(path, line string, o *Options) error {
	o = o.orDefault()
	if err := o.check(); err != nil {
		return err
	}
	if err := checkDumps(o.Dump, dumpKinds); err != nil {
		return err
	}
	if err := o.checkAOT(); err != nil {
		return err
	}
	o, stop := o.withDeadline()
	defer stop()
	var sf *SourceFile
	var k *ir.Kernel
	if o.Kernel != "" {
		var err error
		if sf, err = ParseFile(path, o); err != nil {
			return err
		}
		if err := o.stoppedAfter(path, "after parsing "+path); err != nil {
			return err
		}
		fn := sf.File.Func(o.Kernel)
		if fn == nil {
			return hosteval.Usage(unknownKernel(sf, o.Kernel, "-k"))
		}
		sig, err := ParseSignature(fn, o.Signature)
		if err != nil {
			return err
		}
		if o.AOT != "" {
			if err := checkAOTSignature(fn, o.Signature, sig); err != nil {
				return err
			}
		}
		sig.NumWarps, sig.NumStages = o.NumWarps, o.NumStages
		if k, err = compileIR(sf, fn, sig, o); err != nil {
			hosteval.AttachSource(&err, signatureSource, o.Signature)
			return err
		}
	} else {
		// Building reads the tensors' dtypes, shapes and strides, never
		// their elements: those are never made.
		bo := o.untuned()
		bo.DeferData = true
		p, err := Prepare(path, line, bo)
		if err != nil {
			return err
		}
		k, sf = p.Kernel, p.Source
	}
	if o.Output != "" {
		if err := hosteval.CheckOutput("-o "+o.Output, o.Output, sf.inputs()...); err != nil {
			return err
		}
	}
	arch := gpu.TargetArch(o.Arch)
	if o.dumps("layout") {
		if err := cudagen.DumpLayouts(o.dumpOut(), k, arch); err != nil {
			return err
		}
	}
	res, err := generateCUDA(k, arch, o)
	if err != nil {
		return err
	}
	switch {
	case o.AOT != "":
		if o.dumps("cuda") {
			fmt.Fprint(o.dumpOut(), res.Source)
		}
		if err := writeAOT(sf, k, res, arch, o); err != nil {
			return err
		}
		if o.Output != "" {
			err = os.WriteFile(o.Output, []byte(res.Source), 0o644)
		}
	case o.Output == "":
		_, err = fmt.Fprint(o.stdout(), res.Source)
	default:
		if o.dumps("cuda") {
			fmt.Fprint(o.dumpOut(), res.Source)
		}
		err = os.WriteFile(o.Output, []byte(res.Source), 0o644)
	}
	if err != nil {
		return err
	}
	// The CUDA is written first: a resource report needs NVRTC and a GPU,
	// the file does not.
	if o.dumps("resources") {
		if err := printResources(o, k, res, arch); err != nil {
			return fmt.Errorf("the CUDA is written, but there is no resource report: %w", err)
		}
	}
	return nil
}

func printResources(o *Options, k *ir.Kernel, res *cudagen.Result, arch string) error {
	prog, err := gpu.CompileReport(k, res, arch, o.LineInfo)
	if err != nil {
		return err
	}
	regs, st, ld, stack, smem := nvrtc.ParseResources(prog.Log)
	fmt.Fprintf(o.dumpOut(), "// %s on %s: %d registers, %d bytes spill stores, %d bytes spill loads, %d bytes stack, %d bytes shared memory, %d bytes dynamic shared memory\n",
		k.Name, arch, regs, st, ld, stack, smem, res.SharedBytes)
	return nil
}

// RunFile runs a launch on the GPU, in the interpreter (--interpret), or on
// both with a comparison (--check).
//
// An autotuned kernel is tuned on the GPU (or takes the choice cached by an
// earlier tuning) unless o.Config picks a config; --interpret and --check
// take config o.Config, default 0.
func RunFile(path, line string, o *Options) (err error) {
	o = o.orDefault()
	if o.Interpret || o.Check {
		o = o.untuned()
	}
	// The deadline bounds parsing, binding and specializing; tuning and
	// the run (or interpretation) then take o.Timeout each, as before.
	po, stop := o.withDeadline()
	p, err := Prepare(path, line, po)
	stop()
	if err != nil {
		return err
	}
	defer p.sourced(&err)
	saves, err := parseSaves(p, o.Saves)
	if err != nil {
		return err
	}
	// A target the GPU cannot run is refused before any tuning or run;
	// without a GPU the run says so where it needs one.
	if !o.Interpret {
		if _, err := resolveTarget(o); err != nil && !errors.Is(err, gpu.ErrNoGPU) {
			return err
		}
	}
	if o.Config < 0 {
		if p, err = p.Autotune(o); err != nil {
			return err
		}
	}
	arch := gpu.TargetArch(o.Arch)
	if o.dumps("layout") {
		if err := cudagen.DumpLayouts(o.dumpOut(), p.Kernel, arch); err != nil {
			return err
		}
	}
	if o.dumps("cuda") || o.dumps("resources") {
		res, err := generateCUDA(p.Kernel, arch, o)
		if err != nil {
			return err
		}
		if o.dumps("cuda") {
			fmt.Fprint(o.dumpOut(), res.Source)
		}
		if o.dumps("resources") {
			if err := printResources(o, p.Kernel, res, arch); err != nil {
				return err
			}
		}
	}
	if o.SaveInputs != "" {
		if err := p.saveAll(o.SaveInputs); err != nil {
			return err
		}
	}
	start := time.Now()
	where := "on the GPU (compile and copies included)"
	switch {
	case o.Interpret:
		where = "in the interpreter"
		if err := p.Interpret(o.Timeout); err != nil {
			return err
		}
	case o.Check:
		where = "on the GPU and in the interpreter (compile and copies included)"
		if err := p.check(o); err != nil {
			return err
		}
	default:
		if _, err := p.RunGPU(o.LineInfo); err != nil {
			return err
		}
	}
	for _, s := range saves {
		if err := tensor.SaveNPY(s.path, s.t); err != nil {
			return err
		}
	}
	elapsed := time.Since(start)
	// The outputs before the timing, which stays the last line (scripts
	// read it with tail -1).
	p.printChecked(o.stdout())
	name := p.Kernel.Name
	if p.Config >= 0 {
		name += fmt.Sprintf(" (autotune config %d)", p.Config)
	}
	fmt.Fprintf(o.stderr(), "%s: grid %s of %d threads ran %s in %s\n",
		name, gridString(p.Grid), 32*p.Kernel.NumWarps, where, elapsed.Round(time.Millisecond))
	return nil
}

// gridString prints a grid as (x, y, z), dropping trailing 1s.
func gridString(g [3]int) string {
	n := 3
	for n > 1 && g[n-1] == 1 {
		n--
	}
	parts := make([]string, n)
	for i := range parts {
		parts[i] = strconv.Itoa(g[i])
	}
	if n == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

type save struct {
	path string
	t    *tensor.Tensor
}

// parseSaves resolves --save NAME=F.npy against the bindings before
// anything runs, so a typo costs no run.
func parseSaves(p *Prepared, specs []string) ([]save, error) {
	var out []save
	for _, s := range specs {
		name, path, ok := strings.Cut(s, "=")
		if !ok || name == "" || path == "" {
			return nil, hosteval.Usage(fmt.Errorf("--save %q: want NAME=F.npy", s))
		}
		v, ok := p.Env.Lookup(name)
		if !ok || v.Kind != hosteval.VTensor {
			return nil, hosteval.Usage(fmt.Errorf("--save %s: %s is not a bound tensor (bound: %s)", s, name, strings.Join(p.tensorNames(), ", ")))
		}
		if err := checkWritable(path); err != nil {
			return nil, hosteval.Usage(fmt.Errorf("--save %s: %v", s, err))
		}
		if err := hosteval.CheckOutput("--save "+s, path, p.Source.inputs()...); err != nil {
			return nil, err
		}
		out = append(out, save{path, v.Tensor})
	}
	return out, nil
}

// checkWritable reports why a file cannot be written at path, trying a
// temporary file beside it (removed at once) so that nothing is left behind.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("no directory %s", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".tri-save-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s", dir)
	}
	f.Close()
	return os.Remove(f.Name())
}

func (p *Prepared) tensorNames() []string {
	var names []string
	for _, n := range p.Env.Names() {
		if v, _ := p.Env.Lookup(n); v.Kind == hosteval.VTensor {
			names = append(names, n)
		}
	}
	return names
}

// saveAll writes every bound tensor to dir/NAME.npy.
func (p *Prepared) saveAll(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, n := range p.tensorNames() {
		v, _ := p.Env.Lookup(n)
		out := filepath.Join(dir, n+".npy")
		if err := hosteval.CheckOutput("--save-inputs "+dir, out, p.Source.inputs()...); err != nil {
			return err
		}
		if err := tensor.SaveNPY(out, v.Tensor); err != nil {
			return err
		}
	}
	return nil
}

// ToleranceTable is the tolerance of `tri run --check`, printed by
// `tri run --help`.
const ToleranceTable = `  output dtype       allowed difference |gpu - interpreter|
  int*, uint*, bool  none (bit for bit)
  float64            1e-12 + 1e-12 * |interpreter|
  float32            1e-6  + 1e-5  * |interpreter|
  float16            1e-3  + 2e-3  * |interpreter|
  bfloat16           1e-2  + 1.6e-2 * |interpreter|
  NaN matches NaN; +-Inf must match exactly. float32 is loose by a few ulp
  because the GPU uses approximate exp, log, sqrt and division and fuses
  multiply-adds, as Triton does. In a kernel that sums floats (tl.sum,
  tl.cumsum, tl.reduce or associative_scan with a custom combine, a float
  atomic_add, a float tl.dot), the GPU and the interpreter add in different orders, and a
  sum's rounding error scales with its terms rather than its result: there
  |interpreter| above is the largest magnitude in the whole output tensor.
  A kernel that calls libdevice functions also passes an element within
  the largest error CUDA documents for the functions it calls, plus an ulp
  for the interpreter's own rounding: in ulps of the output (2 for asin,
  4 for tanf, 6 for lgammaf...), or absolute where CUDA states an absolute
  bound (2.2e-6 for the fp32 Bessel functions, 2^-21 for __sinf in
  [-pi, pi]). docs/LIBDEVICE.md lists every function's bound.`

var tolerances = map[string][2]float64{ // atol, rtol
	"fp64": {1e-12, 1e-12}, "fp32": {1e-6, 1e-5}, "fp16": {1e-3, 2e-3}, "bf16": {1e-2, 1.6e-2},
}

// closeEnough compares a GPU result with the interpreter's under the
// tolerance table; sums says the kernel sums floats, so the relative part of
// the tolerance is taken of the tensor's largest magnitude.
func closeEnough(name string, gpu, ref *tensor.Tensor, sums bool) error {
	return closeEnoughWith(name, gpu, ref, sums, libSlack{})
}

// closeEnoughWith is closeEnough that also lets an element differ by the
// documented error of the libdevice functions the kernel calls.
func closeEnoughWith(name string, gpu, ref *tensor.Tensor, sums bool, slack libSlack) error {
	if !gpu.Kind.IsFloat() || gpu.Kind.IsFP8() {
		// fp8 results come from exact conversions: the codes must agree.
		return CompareTensors(name, gpu, ref, "exact")
	}
	tol := tolerances[gpu.Kind.String()]
	scale := 0.0
	if sums {
		for i := 0; i < ref.NumElements(); i++ {
			if r := math.Abs(ref.Float(i)); !math.IsInf(r, 0) && !math.IsNaN(r) {
				scale = max(scale, r)
			}
		}
	}
	bad, first, worst := 0, -1, 0.0
	for i := 0; i < ref.NumElements(); i++ {
		g, r := gpu.Float(i), ref.Float(i)
		ok := g == r || (math.IsNaN(g) && math.IsNaN(r))
		if !ok && !math.IsInf(r, 0) && !math.IsNaN(g) && !math.IsNaN(r) {
			d := math.Abs(g - r)
			ok = d <= tol[0]+tol[1]*max(math.Abs(r), scale) || slack.allows(gpu.Kind, g, r)
			worst = max(worst, d)
		}
		if !ok {
			if first < 0 {
				first = i
			}
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("%s: %d of %d elements differ beyond the %s tolerance (first at %d: gpu %v, interpreter %v; largest difference %g)",
		name, bad, ref.NumElements(), gpu.Kind, first, gpu.Float(first), ref.Float(first), worst)
}

// sumsFloats reports whether k adds floats in an order the GPU and the
// interpreter need not share: a float sum or custom reduction or scan, a
// float atomic_add, or a float tl.dot (the tensor cores and the FMA loop
// add the products in their own orders).
func sumsFloats(k *ir.Kernel) bool {
	found := false
	ir.Inspect(k.Body, func(v *ir.Value) {
		switch v.Op {
		case ir.OpReduce, ir.OpScan:
			for _, a := range v.Args {
				if a.Type.Kind.IsFloat() && (v.Combine == ir.CombineSum || v.Combine == ir.CombineProd || v.Combine == ir.CombineCustom) {
					found = true
				}
			}
		case ir.OpAtomicRMW:
			if v.Atomic == ir.AtomicAdd && v.Args[1].Type.Kind.IsFloat() {
				found = true
			}
		case ir.OpDot:
			if v.Type.Kind.IsFloat() {
				found = true
			}
		}
	})
	return found
}

// check runs the launch on the GPU and in the interpreter on copies of the
// same inputs, compares every tensor, and leaves the GPU's results bound.
//
// A kernel the interpreter cannot run (inline PTX) runs on the GPU alone,
// with a warning that nothing was compared.
func (p *Prepared) check(o *Options) error {
	if why := interp.CanRun(p.Kernel); why != nil {
		var d *diag.Diagnostic
		at := ""
		if errors.As(why, &d) && d.Pos.String() != "" {
			at = d.Pos.String() + ": "
		}
		fmt.Fprintf(o.stderr(), "%swarning: --check skips the comparison: the interpreter cannot run the inline PTX of tl.inline_asm_elementwise; %s runs on the GPU only\n", at, p.Kernel.Name)
		_, err := p.RunGPU(o.LineInfo)
		return err
	}
	names := p.tensorNames()
	ref := map[string]*tensor.Tensor{}
	for _, n := range names {
		v, _ := p.Env.Lookup(n)
		ref[n] = v.Tensor.Clone()
	}
	c, err := p.RunGPU(o.LineInfo)
	if err != nil {
		return err
	}
	// Every result is taken before any input is put back: two names may
	// be bound to one tensor (desc_o=o).
	gpu := map[string]*tensor.Tensor{}
	for _, n := range names {
		v, _ := p.Env.Lookup(n)
		gpu[n] = v.Tensor.Clone()
	}
	for _, n := range names {
		v, _ := p.Env.Lookup(n)
		copy(v.Tensor.Data, ref[n].Data) // the interpreter starts from the inputs
	}
	// What the kernel prints is shown once, from the GPU. The interpreter
	// converts as the code that ran does: for the target it was generated
	// for, the GPU's own where no --arch was given (fp8e5 before sm_89 is
	// converted in software, and rounds otherwise; interpArch).
	stdout, arch := p.Stdout, p.Arch
	p.Stdout, p.Arch = io.Discard, c.Target.Arch
	err = p.Interpret(o.Timeout)
	p.Stdout, p.Arch = stdout, arch
	if err != nil {
		return fmt.Errorf("interpreter: %w", err)
	}
	sums, slack := sumsFloats(p.Kernel), libdeviceSlack(p.Kernel)
	var errs []error
	for _, n := range names {
		v, _ := p.Env.Lookup(n)
		if p.isPointerTable(n) {
			fmt.Fprintf(o.stdout(), "check %-12s %8d x %-5s not compared: a pointer table holds each side's own addresses\n", n, v.Tensor.NumElements(), v.Tensor.Kind)
			copy(v.Tensor.Data, gpu[n].Data)
			continue
		}
		if err := closeEnoughWith(n, gpu[n], v.Tensor, sums, slack); err != nil {
			errs = append(errs, err)
		} else {
			fmt.Fprintf(o.stdout(), "check %-12s %8d x %-5s gpu matches the interpreter\n", n, v.Tensor.NumElements(), v.Tensor.Kind)
		}
		copy(v.Tensor.Data, gpu[n].Data)
	}
	if len(errs) > 0 {
		return fmt.Errorf("check failed for %s:\n%w", p.Kernel.Name, errors.Join(errs...))
	}
	return nil
}

// RuntimeSummary says what tri finds of CUDA on this machine.
func RuntimeSummary() string {
	var b strings.Builder
	drv, nv := nvrtc.Paths()
	if d, err := gpu.Device(); err == nil {
		fmt.Fprintf(&b, "GPU: %s (%s), driver %s", d.Name(), d.Arch(), drv)
	} else {
		fmt.Fprintf(&b, "GPU: none; %s", strings.TrimPrefix(err.Error(), gpu.ErrNoGPU.Error()+": "))
	}
	if major, minor, err := nvrtc.Version(); err == nil {
		fmt.Fprintf(&b, "\nNVRTC: %d.%d (%s)", major, minor, nv)
	} else {
		fmt.Fprintf(&b, "\nNVRTC: not found (%v)", err)
	}
	return b.String()
}

// inputs are the files sf was read from: the kernel file and the modules
// it imports, which no output may replace.
func (sf *SourceFile) inputs() []string {
	out := []string{sf.Path}
	if sf.File != nil {
		for name := range sf.File.Sources() {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
