package interp

// This file implements the progress guarantee for programs that wait for
// one another (spin locks, flags): a program spinning in a while loop lets
// the other goroutines run and starts a helper that runs the next program
// not yet started.

import (
	"runtime"
)

// spinCheck is how many iterations of a while loop pass between calls to
// spinning.
const spinCheck = 64

// spinning yields the processor and, unless a helper it started is still
// running or every program has started, starts a helper goroutine that
// runs one more program. A program waiting for a lock held by a running
// program gets it once the holder, which runs on its own goroutine,
// releases it; a program waiting for a program not yet started (with
// fewer workers than programs) gets that program started by its helpers,
// as on a GPU where all programs are resident. If every program waits, the
// run is deadlocked: Options.Timeout stops it with an error naming the
// loop (without a timeout it hangs, as the GPU would).
func (p *program) spinning() {
	runtime.Gosched()
	m := p.m
	if p.helper.Load() || m.next.Load() >= m.total {
		return
	}
	p.helper.Store(true)
	m.wg.Go(func() {
		defer p.helper.Store(false)
		m.work(m.newProgram(), true)
	})
}
