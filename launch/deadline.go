package launch

// This file implements --timeout for the phases before a kernel runs:
// parsing, sema (unrolling and inlining) and CUDA generation share one
// deadline, o.Timeout from the start of the command. sema and cudagen check
// it before each statement, so a kernel that unrolls to tens of thousands of
// statements stops within a statement of the deadline, with an error placed
// at that statement; between phases the commands check it too. No goroutine
// is started: the phases stop themselves, so nothing is left running.

import (
	"context"
	"fmt"
	"time"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/ir"
)

// timeoutCause is the cause of a stop at the deadline: its text opens the
// placed message ("stopped at --timeout 5s while generating CUDA for
// kernel k").
type timeoutCause struct{ d time.Duration }

func (c timeoutCause) Error() string { return "stopped at --timeout " + durationString(c.d) }

// durationString prints whole seconds as "60s", as the flag is usually
// written, and other durations as Go does.
func durationString(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// withDeadline returns a copy of o whose phases stop o.Timeout from now
// (o itself where o.Timeout is 0: no deadline) and the function that
// releases the deadline's timer.
func (o *Options) withDeadline() (*Options, context.CancelFunc) {
	if o.Timeout <= 0 {
		return o, func() {}
	}
	q := *o
	ctx, cancel := context.WithTimeoutCause(context.Background(), o.Timeout, timeoutCause{o.Timeout})
	q.ctx = ctx
	return &q, cancel
}

// deadlineDone closes when o's deadline passes, and never when the
// deadline is released: a host session made under the deadline of parsing
// and binding (Prepare) goes on serving the tuning after RunFile releases
// that deadline, bounded then by --timeout for each evaluation. Its
// goroutine ends with the deadline's context, reached or released.
func (o *Options) deadlineDone() <-chan struct{} {
	ctx := o.context()
	if ctx.Done() == nil {
		return nil
	}
	ch := make(chan struct{})
	go func() {
		<-ctx.Done()
		if _, reached := context.Cause(ctx).(timeoutCause); reached {
			close(ch)
		}
	}()
	return ch
}

// context is the context that ends o's phases: Background where no
// deadline was set.
func (o *Options) context() context.Context {
	if o == nil || o.ctx == nil {
		return context.Background()
	}
	return o.ctx
}

// stoppedAfter is the error for a deadline passed by the time phase
// (e.g. "after parsing"), placed at file, or nil while time is left.
func (o *Options) stoppedAfter(file, phase string) error {
	ctx := o.context()
	if ctx.Err() == nil {
		return nil
	}
	return diag.Errorf(diag.Pos{File: file}, diag.CodeTimeout, "%v %s", context.Cause(ctx), phase)
}

// generateCUDA is gpu.GenerateCUDA under o's deadline.
func generateCUDA(k *ir.Kernel, arch string, o *Options) (*cudagen.Result, error) {
	res, err := cudagen.Generate(k, cudagen.Options{Arch: arch, LineInfo: o.LineInfo, Context: o.ctx})
	if err != nil {
		return nil, fmt.Errorf("generating CUDA for %s: %w", k.Name, err)
	}
	return res, nil
}
