//go:build unix

package nvrtc

// This file implements the platform layer on Unix: dlopen and anonymous
// memory maps.

import (
	"syscall"

	"github.com/ebitengine/purego"
)

func dlopen(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

func dlsym(h uintptr, name string) (uintptr, error) { return purego.Dlsym(h, name) }

// mapScratch maps n bytes of zeroed memory outside the Go heap.
func mapScratch(n int) ([]byte, error) {
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
}

func unmapScratch(mem []byte) { _ = syscall.Munmap(mem) }
