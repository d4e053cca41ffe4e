package main

import (
	"errors"

	"github.com/tri-lang/tri/gpu"
)

// hintedError is an error with a hint for the user printed after it, as
// diagnostics print theirs; it wraps the error, so the exit code and
// errors.Is see through it.
type hintedError struct {
	err  error
	hint string
}

func (e *hintedError) Error() string { return e.err.Error() + "\n\thint: " + e.hint }
func (e *hintedError) Unwrap() error { return e.err }

// suggestInterpret adds, to an error saying there is no GPU (or NVRTC),
// the way to run the kernel anyway: the interpreter, which needs neither.
func suggestInterpret(err error, hint string) error {
	if err == nil || !errors.Is(err, gpu.ErrNoGPU) {
		return err
	}
	return &hintedError{err, hint}
}
