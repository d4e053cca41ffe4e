package autotune

// This file times one config: a Session on a Device.

import (
	"fmt"
	"slices"
)

// Device is what timing configs needs from the GPU; the driver implements
// it on the GPU, tests fake it.
type Device interface {
	// Compile prepares config i for Launch.
	Compile(i int) error
	// Launch runs config i once.
	Launch(i int) error
	// Zero zeroes the tuning copy of tensor argument name.
	Zero(name string) error
	// Restore gives the tuning copy of tensor argument name back the
	// contents it had before tuning.
	Restore(name string) error
	// Bench times launch as tri bench does and returns the times in
	// milliseconds.
	Bench(launch func() error) ([]float64, error)
}

// Session times configs on a Device, zeroing and restoring tensors as
// reset_to_zero and restore_value ask.
type Session struct {
	Dev     Device
	Zero    []string // tensor arguments to zero before every launch, timed or not
	Restore []string // tensor arguments to restore after each config's timing
}

// Time times config i and returns its median in milliseconds; it is a
// Job's Time.
func (s *Session) Time(i int) (float64, error) {
	launch := func() error {
		for _, n := range s.Zero {
			if err := s.Dev.Zero(n); err != nil {
				return err
			}
		}
		return s.Dev.Launch(i)
	}
	times, err := s.Dev.Bench(launch)
	if err != nil {
		return 0, err
	}
	for _, n := range s.Restore {
		if err := s.Dev.Restore(n); err != nil {
			return 0, err
		}
	}
	if len(times) == 0 {
		return 0, fmt.Errorf("no timings")
	}
	slices.Sort(times)
	return Quantile(times, 0.5), nil
}

// Quantile is the q quantile of sorted xs, linearly interpolated as numpy
// does; tri bench reports its figures with it, so that a config's tuning
// time and its bench median agree.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	pos := q * float64(len(xs)-1)
	i := int(pos)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	f := pos - float64(i)
	return xs[i]*(1-f) + xs[i+1]*f
}
