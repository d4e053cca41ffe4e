package survey

// This file implements Run: the files built in parallel, the results in
// order, the progress line.

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
)

// Options say how to survey a folder.
type Options struct {
	Jobs    int           // files built at once; at least 1
	Timeout time.Duration // per kernel (decorators included)
	Arch    string        // the target of the generated CUDA ("": the GPU's, else sm_80)
	// AllowHostIO (--allow-host-io) lets the surveyed files' host code do
	// I/O (autotune.Host.AllowIO).
	AllowHostIO bool
	// Progress, if set, receives a line now and then while the survey
	// runs, and one at the end.
	Progress io.Writer
}

// Status is how a function fared.
type Status string

// Statuses of a function.
const (
	Built  Status = "built"
	Failed Status = "failed"
	// Helper is a @jit function that another calls: it is compiled as
	// part of its callers, not on its own.
	Helper Status = "helper"
)

// Result is the outcome of one @jit function.
type Result struct {
	*Func
	Status  Status
	Kind    string // the failure's kind (see Kind); "" unless Failed
	Message string // the failure's first line, placed file:line:col
	// Errors are the first lines of every error the failure holds (sema
	// reports up to ten), Message first.
	Errors []string
	Elem   string // the pointers' element type of the build that worked
	// Verdict says whose a failure is (VerdictGap, VerdictLaunch,
	// VerdictRejected), or that the kernel is written for another
	// backend (VerdictBackend, built or not); "" for the rest. Why is
	// the rule that decided it (verdict.go).
	Verdict, Why string
	// Launch is the launch line the kernel was built for (or last tried),
	// and Lets its --let bindings: `tri build FILE LAUNCH --let ...`
	// repeats the build.
	Launch string
	Lets   []string
}

// Report is the outcome of a survey.
type Report struct {
	Dir     string
	Arch    string
	Results []*Result // by file, then line
}

// Run finds the @jit functions of the .py and .tri files under dir and builds each
// kernel (a function no other calls) for a launch derived from its
// parameters. Errors are a bad o.Arch (bad input) and those of reading the
// folder; a kernel that fails is a Result.
func Run(dir string, o Options) (*Report, error) {
	return run(dir, o, buildKernel)
}

// run is Run with the build of one kernel given, so that a test can make
// it fail as tri's own code might.
func run(dir string, o Options, build buildFunc) (*Report, error) {
	if o.Arch != "" {
		if err := cudagen.CheckArch(o.Arch); err != nil {
			return nil, hosteval.Usage(fmt.Errorf("--arch: %w", err))
		}
	}
	o.Arch = gpu.TargetArch(o.Arch)
	srcs, err := findSources(dir)
	if err != nil {
		return nil, err
	}
	markHelpers(srcs)
	lits := comparedLiterals(srcs)
	if o.Timeout <= 0 {
		o.Timeout = time.Minute
	}
	rep := &Report{Dir: dir, Arch: o.Arch}
	p := newProgress(o.Progress, len(srcs))
	jobs := make(chan *source)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(o.Jobs, 1) {
		wg.Go(func() {
			for s := range jobs {
				rs := surveyFile(s, o, lits, build)
				mu.Lock()
				rep.Results = append(rep.Results, rs...)
				p.fileDone(rs)
				mu.Unlock()
			}
		})
	}
	for _, s := range srcs {
		jobs <- s
	}
	close(jobs)
	wg.Wait()
	p.finish()
	slices.SortFunc(rep.Results, func(a, b *Result) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return rep, nil
}

// surveyFile parses one file as tri build does and builds its kernels.
func surveyFile(s *source, o Options, lits map[string]string, build buildFunc) []*Result {
	// Options, not nil, so that module-level values that only host code
	// computes are computed as tri build computes them; warnings are
	// dropped.
	sf, parseErr := launch.ParseFile(s.path, &launch.Options{Arch: o.Arch, Timeout: o.Timeout, AllowHostIO: o.AllowHostIO})
	var out []*Result
	for _, f := range s.funcs {
		r := &Result{Func: f}
		out = append(out, r)
		if f.Helper {
			r.Status = Helper
			continue
		}
		var err error
		var d derived
		switch fn := findFunc(sf, f); {
		case parseErr != nil:
			err = parseErr
		case fn == nil && f.Indent > 0:
			err = fmt.Errorf("%s:%d: %w", s.path, f.Line, errNested)
		case fn == nil:
			err = fmt.Errorf("%s:%d: %w", s.path, f.Line, errNotFound)
		default:
			r.Elem, d, err = guarded(build, &job{sf: sf, fn: fn, arch: o.Arch, timeout: o.Timeout, allowIO: o.AllowHostIO, lits: lits})
			r.Launch, r.Lets = d.line, d.lets
		}
		if err == nil {
			r.Status = Built
		} else {
			r.Status, r.Kind = Failed, Kind(err, s.text)
			r.Message, _, _ = strings.Cut(err.Error(), "\n")
			r.Errors = errorLines(err, r.Message)
		}
		r.Verdict, r.Why = verdict(r, err, s.text, d.guessed)
	}
	return out
}

var (
	errNested   = errors.New("a @jit function inside a function that tri does not read (it reads a local of the function, or the function is Python tri cannot parse)")
	errNotFound = errors.New("tri's parser found no @jit function here")
)

// findFunc is the function that tri's parser found at f's def line.
func findFunc(sf *launch.SourceFile, f *Func) *frontend.Func {
	if sf == nil {
		return nil
	}
	for _, fn := range sf.File.Funcs {
		if fn.Name == f.Name && fn.Pos.Line == f.Line {
			return fn
		}
	}
	return nil
}

// progress prints a line at most every two seconds while files finish.
type progress struct {
	w              io.Writer
	files, done    int
	kernels, built int
	last           time.Time
}

func newProgress(w io.Writer, files int) *progress {
	return &progress{w: w, files: files, last: time.Now()}
}

func (p *progress) fileDone(rs []*Result) {
	p.done++
	for _, r := range rs {
		if r.Status != Helper {
			p.kernels++
		}
		if r.Status == Built {
			p.built++
		}
	}
	if p.w != nil && time.Since(p.last) >= 2*time.Second {
		p.last = time.Now()
		p.print()
	}
}

func (p *progress) finish() {
	if p.w != nil {
		p.print()
	}
}

func (p *progress) print() {
	fmt.Fprintf(p.w, "survey: %d/%d files, %d of %d kernels built\n", p.done, p.files, p.built, p.kernels)
}
