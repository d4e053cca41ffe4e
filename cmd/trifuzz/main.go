// Command trifuzz runs random well-typed Triton kernels from package
// kernelgen through tri and reports every kernel tri fails on.
//
//	trifuzz -n 2000 -seed 1 -clang                # CI: interpreter and clang
//	trifuzz -n 5000 -seed 1 -gpu -out dir         # GPU: also NVRTC and --check
//	trifuzz -n 2000 -seed 1 -gpu -arch sm_80      # the sm_80 code, through the PTX JIT
//	trifuzz -n 500 -dots 1 -arch sm_90a -clang    # only kernels of kernelgen's dot positions
//
// For each kernel it runs the interpreter on the launch recorded in the
// kernel's header, generates the CUDA C for -arch (by default the GPU's
// target with -gpu, else sm_80) and, with -clang, compiles it with clang's
// CUDA mode (many kernels per clang call, each in its own namespace). With
// -gpu it runs `tri run --check --arch ARCH` on the kernel: NVRTC, the GPU,
// and the comparison with the interpreter under the tolerances of --check;
// a target older than the GPU's runs as PTX that the driver compiles.
// -dots sets the share of kernels whose dots stand where tri lowers them
// specially (kernelgen.Options.DotPositions). Every failing kernel is written to -out as
// seed-N.tri, runnable as it stands (`tri run --check seed-N.tri`), with the
// error in seed-N.txt. Progress goes to stderr and a summary table to
// stdout; the exit status is 1 if any kernel failed. -show -seed N prints
// kernel N.
package main

import (
	"bytes"
	"flag"
	"fmt"
	_ "github.com/tri-lang/tri/hostpy" // autotune and heuristics arguments are host Python
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/kernelgen"
	"github.com/tri-lang/tri/launch"
)

// config is the command line.
type config struct {
	n, jobs, batch int
	seed           uint64
	clang, gpu     bool
	out, clangPath string
	timeout        time.Duration
	// arch is the target of the CUDA and of the GPU runs; "" until main
	// resolves it.
	arch string
	dots float64 // kernelgen.Options.DotPositions
}

func main() {
	var c config
	flag.IntVar(&c.n, "n", 2000, "number of kernels")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the first kernel; kernel i has seed+i")
	flag.BoolVar(&c.clang, "clang", false, "compile the generated CUDA with clang")
	flag.StringVar(&c.clangPath, "clang-path", "clang", "the clang binary")
	flag.BoolVar(&c.gpu, "gpu", false, "run each kernel on the GPU and compare with the interpreter")
	flag.IntVar(&c.jobs, "j", runtime.NumCPU(), "parallel clang calls")
	flag.IntVar(&c.batch, "batch", 100, "kernels per clang call")
	flag.StringVar(&c.out, "out", "trifuzz-failures", "folder for failing kernels")
	flag.DurationVar(&c.timeout, "timeout", 30*time.Second, "time limit of each kernel's GPU check")
	flag.StringVar(&c.arch, "arch", "", "target architecture (default: the GPU's with -gpu, else sm_80)")
	flag.Float64Var(&c.dots, "dots", kernelgen.DefaultDotPositions, "share of kernels with dots where tri lowers them specially (0 to 1)")
	show := flag.Bool("show", false, "print the kernel of -seed and exit")
	flag.Parse()
	if *show {
		fmt.Print(kernelgen.GenerateWith(c.seed, kernelgen.Options{DotPositions: c.dots}).Source)
		return
	}
	if flag.NArg() > 0 || c.n < 1 || c.jobs < 1 || c.batch < 1 || !(c.dots >= 0 && c.dots <= 1) {
		fmt.Fprintln(os.Stderr, "usage: trifuzz [-n N] [-seed S] [-clang] [-gpu] [-arch ARCH] [-dots SHARE] [-j J] [-batch B] [-out DIR]")
		os.Exit(2)
	}
	if err := (&launch.Options{Arch: c.arch}).CheckFlags(func(f string) bool { return f == "arch" && c.arch != "" }); err != nil {
		fmt.Fprintln(os.Stderr, "trifuzz: -arch:", err)
		os.Exit(2)
	}
	if c.gpu {
		t, err := gpu.ResolveTarget(c.arch)
		if err != nil {
			fmt.Fprintln(os.Stderr, "trifuzz: -gpu:", err)
			os.Exit(1)
		}
		c.arch = t.Arch
		if note := t.Note(); note != "" {
			fmt.Fprintln(os.Stderr, "trifuzz:", strings.TrimPrefix(note, "tri: "))
		}
	}
	if c.arch == "" {
		c.arch = "sm_80"
	}
	failed, err := run(&c, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trifuzz:", err)
		os.Exit(2)
	}
	if failed {
		os.Exit(1)
	}
}

// stages, in the order a kernel goes through them.
// "range" checks that the interpreter's outputs lie in the intervals the
// generator derived for them.
var stages = []string{"interpret", "range", "cuda", "clang", "gpu"}

// failure is one kernel's failure at one stage.
type failure struct {
	kernel *kernelgen.Kernel
	stage  string
	msg    string
}

// tally counts the kernels that passed and failed each stage.
type tally struct {
	mu       sync.Mutex
	pass     map[string]int
	failures []failure
}

func (t *tally) ok(stage string) {
	t.mu.Lock()
	t.pass[stage]++
	t.mu.Unlock()
}

func (t *tally) fail(k *kernelgen.Kernel, stage, msg string) {
	t.mu.Lock()
	t.failures = append(t.failures, failure{k, stage, msg})
	t.mu.Unlock()
}

func run(c *config, stdout, stderr io.Writer) (bool, error) {
	dir, err := os.MkdirTemp("", "trifuzz")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	t := &tally{pass: map[string]int{}}
	start := time.Now()
	cl := newClangPool(c, t)
	for i := range c.n {
		k := kernelgen.GenerateWith(c.seed+uint64(i), kernelgen.Options{DotPositions: c.dots})
		path := filepath.Join(dir, k.Name+".tri")
		if err := os.WriteFile(path, []byte(k.Source), 0o644); err != nil {
			return false, err
		}
		src, ok, gpuFailed := check(c, t, k, path)
		if ok && c.clang {
			cl.add(k, src)
		}
		if gpuFailed {
			// A fault on the GPU (an illegal address, say) poisons the
			// context, and every later kernel would fail with it.
			if err := gpu.Synchronize(); err != nil {
				fmt.Fprintf(stderr, "trifuzz: the GPU context is lost after seed %d (%v); the rest of the run would fail with it: rerun from -seed %d\n", k.Seed, err, k.Seed+1)
				c.n = i + 1
				break
			}
		}
		if (i+1)%100 == 0 || i+1 == c.n {
			fmt.Fprintf(stderr, "trifuzz: %d of %d kernels, %d failures, %s\n", i+1, c.n, len(t.failures), time.Since(start).Round(time.Second))
		}
	}
	cl.wait()
	if err := report(c, t, stdout, time.Since(start)); err != nil {
		return false, err
	}
	return len(t.failures) > 0, nil
}

// check runs one kernel through the interpreter, the CUDA generator and,
// with -gpu, the GPU, and returns its CUDA where generated and whether it
// failed on the GPU.
func check(c *config, t *tally, k *kernelgen.Kernel, path string) (src string, ok, gpuFailed bool) {
	stage := "interpret"
	defer func() {
		if p := recover(); p != nil {
			t.fail(k, stage, fmt.Sprintf("panic: %v", p))
			ok, gpuFailed = false, stage == "gpu"
		}
	}()
	s, err := launch.ReadSample(path)
	if err != nil {
		t.fail(k, stage, errorText(err))
		return "", false, false
	}
	out, err := s.Interpret(0)
	if err != nil {
		t.fail(k, stage, errorText(err))
		return "", false, false
	}
	t.ok(stage)
	stage = "range"
	for _, o := range k.Outputs {
		if err := o.Check(out.After[o.Name]); err != nil {
			t.fail(k, stage, err.Error())
			return "", false, false
		}
	}
	t.ok(stage)
	stage = "cuda"
	var b bytes.Buffer
	if err := launch.BuildFile(path, "", &launch.Options{Arch: c.arch, Stdout: &b}); err != nil {
		t.fail(k, stage, errorText(err))
		return "", false, false
	}
	t.ok(stage)
	if c.gpu {
		stage = "gpu"
		if err := launch.RunFile(path, "", &launch.Options{Check: true, Arch: c.arch, Timeout: c.timeout}); err != nil {
			t.fail(k, stage, errorText(err))
			return b.String(), true, true
		}
		t.ok(stage)
	}
	return b.String(), true, false
}

// errorText is an error as tri prints it, with the source line.
func errorText(err error) string {
	var b bytes.Buffer
	hosteval.PrintError(&b, err)
	return b.String()
}

// report writes each failing kernel and its error to c.out and prints the
// summary table: per stage, the kernels that passed and failed, then the
// failures per feature.
func report(c *config, t *tally, w io.Writer, took time.Duration) error {
	sort.Slice(t.failures, func(i, j int) bool { return t.failures[i].kernel.Seed < t.failures[j].kernel.Seed })
	if len(t.failures) > 0 {
		if err := os.MkdirAll(c.out, 0o755); err != nil {
			return err
		}
	}
	byFeature := map[string]int{}
	byStage := map[string]int{}
	for _, f := range t.failures {
		base := filepath.Join(c.out, fmt.Sprintf("seed-%d", f.kernel.Seed))
		if err := os.WriteFile(base+".tri", []byte(f.kernel.Source), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(base+".txt", []byte(f.stage+": "+f.msg+"\n"), 0o644); err != nil {
			return err
		}
		byStage[f.stage]++
		for _, x := range f.kernel.Features {
			byFeature[x]++
		}
		fmt.Fprintf(w, "FAIL seed %d at %s: %s\n", f.kernel.Seed, f.stage, firstLine(f.msg))
	}
	fmt.Fprintf(w, "\n%d kernels (seeds %d to %d) in %s\n", c.n, c.seed, c.seed+uint64(c.n)-1, took.Round(time.Second))
	fmt.Fprintf(w, "target %s, dot-position share %g\n", c.arch, c.dots)
	fmt.Fprintf(w, "%-10s %8s %8s\n", "stage", "passed", "failed")
	for _, s := range stages {
		if (s == "clang" && !c.clang) || (s == "gpu" && !c.gpu) {
			continue
		}
		fmt.Fprintf(w, "%-10s %8d %8d\n", s, t.pass[s], byStage[s])
	}
	if len(byFeature) > 0 {
		var fs []string
		for f := range byFeature {
			fs = append(fs, f)
		}
		sort.Strings(fs)
		fmt.Fprintf(w, "failures by feature:")
		for _, f := range fs {
			fmt.Fprintf(w, " %s %d", f, byFeature[f])
		}
		fmt.Fprintf(w, "\nreproducers in %s\n", c.out)
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
