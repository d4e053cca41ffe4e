//go:build !unix

package nvrtc

// This file implements the platform layer where tri has no GPU support:
// every library is missing, so Load reports ErrNotFound and the package
// still builds.

import (
	"errors"
	"runtime"
)

var errPlatform = errors.New("GPU support is not built for " + runtime.GOOS)

func dlopen(string) (uintptr, error) { return 0, errPlatform }

func dlsym(uintptr, string) (uintptr, error) { return 0, errPlatform }

func mapScratch(int) ([]byte, error) { return nil, errPlatform }

func unmapScratch([]byte) {}
