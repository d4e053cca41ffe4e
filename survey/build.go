package survey

// This file implements the build of one kernel for its derived launch, the
// way tri build does it, bounded in time and with panics caught.

import (
	"errors"
	"fmt"
	"path"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
)

// job is one kernel to build.
type job struct {
	sf      *launch.SourceFile
	fn      *frontend.Func
	arch    string
	timeout time.Duration
	allowIO bool // --allow-host-io
	// done is closed when the survey gives up on the build (guarded): the
	// host code it runs stops then instead of running on.
	done chan struct{}
	// lits maps a parameter name to the first literal that a @jit
	// function of the survey compares a parameter of that name with.
	lits map[string]string
}

// buildFunc builds one kernel. It returns the element type its pointers
// were built with and the launch it was built for (or first tried).
type buildFunc func(j *job) (elem string, used derived, err error)

// errDerive marks an error in the survey's own launch: a failure of the
// derivation, not of the kernel.
var errDerive = errors.New("the derived launch")

// buildKernel reads fn's decorators, then builds it as tri build does for
// each attempt in turn until one builds; the error of the first is
// returned if none does.
func buildKernel(j *job) (string, derived, error) {
	sf, fn := j.sf, j.fn
	tuning, err := autotune.Read(&autotune.Source{Path: sf.Path, Text: sf.Text, File: sf.File}, fn,
		func() string { return j.arch }, autotune.Host{Timeout: j.timeout, Done: j.done, AllowIO: j.allowIO})
	if err != nil {
		return "", derived{}, err
	}
	var first error
	var firstLaunch derived
	for _, try := range attempts(sf.File) {
		d := derive(j, tuning, try)
		err := buildDerived(sf, fn, tuning, d, j)
		if err == nil {
			return try.elem, d, nil
		}
		if first == nil {
			first, firstLaunch = err, d
		}
	}
	return "", firstLaunch, first
}

// buildDerived binds launch d, specializes the kernel and generates its
// CUDA (without NVRTC, which needs no GPU but is not what is measured).
func buildDerived(sf *launch.SourceFile, fn *frontend.Func, tuning *autotune.Tuning, d derived, j *job) error {
	env := hosteval.NewEnv(0)
	env.DeferData = true // a build reads no tensor's elements
	env.UseGlobals(launch.KernelGlobals(sf, fn))
	for _, let := range d.lets {
		if err := env.Let(let); err != nil {
			return fmt.Errorf("%w: --let %s: %v", errDerive, let, err)
		}
	}
	l, err := hosteval.ParseLaunch(d.line)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", errDerive, d.line, err)
	}
	p, err := launch.PrepareValues(sf, fn, tuning, l, env, &launch.Options{Arch: j.arch, Timeout: j.timeout, AllowHostIO: j.allowIO})
	if err != nil {
		return err
	}
	_, err = gpu.GenerateCUDA(p.Kernel, j.arch, false)
	return err
}

// errTimeout is the error of a kernel whose build ran past the timeout.
var errTimeout = errors.New("timed out")

// guarded runs build in its own goroutine and waits at most timeout for
// it: a build that runs on is abandoned, and told so by closing j.done
// (host code stops at that; a phase of tri's own keeps the goroutine until
// it ends). A panic becomes an error that starts with "internal error".
func guarded(build buildFunc, j *job) (string, derived, error) {
	type outcome struct {
		elem string
		d    derived
		err  error
	}
	done := make(chan outcome, 1)
	if j.done == nil {
		j.done = make(chan struct{})
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{err: fmt.Errorf("internal error: panic: %v%s", r, panicSite(debug.Stack()))}
			}
		}()
		elem, d, err := build(j)
		done <- outcome{elem, d, err}
	}()
	select {
	case o := <-done:
		return o.elem, o.d, o.err
	case <-time.After(j.timeout):
		close(j.done)
		// Host code stops at that and says where; tri's own phases run on.
		select {
		case o := <-done:
			if o.err != nil {
				return "", derived{}, fmt.Errorf("%w: %w", errTimeout, o.err)
			}
		case <-time.After(time.Second):
		}
		return "", derived{}, fmt.Errorf("%w after %v", errTimeout, j.timeout)
	}
}

// panicSite is " (at sema/expr.go:120 (*checker).expr)" for the innermost
// frame of tri's own code (the survey's left out) below the panic in a
// goroutine's stack, or "".
func panicSite(stack []byte) string {
	const module = "github.com/tri-lang/tri/"
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic(") {
			continue
		}
		for j := i + 2; j+1 < len(lines); j += 2 {
			fn, ok := strings.CutPrefix(lines[j], module)
			if !ok || strings.HasPrefix(fn, "survey.") {
				continue
			}
			pkg, name, _ := strings.Cut(fn, ".")
			if k := strings.LastIndex(name, "("); k > 0 {
				name = name[:k]
			}
			where := strings.TrimSpace(lines[j+1])
			if k := strings.LastIndex(where, " +0x"); k >= 0 {
				where = where[:k]
			}
			return fmt.Sprintf(" (at %s/%s %s)", pkg, path.Base(where), name)
		}
	}
	return ""
}
