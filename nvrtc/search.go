package nvrtc

// This file implements the search order for libnvrtc and libcuda. It is
// written against a small environment interface so tests can run it with a
// fake file system and fake variables.

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// searchEnv is what the library search reads from the machine.
type searchEnv struct {
	getenv func(string) string
	glob   func(pattern string) ([]string, error)
	home   string
}

func osSearchEnv() searchEnv {
	home, _ := os.UserHomeDir()
	return searchEnv{getenv: os.Getenv, glob: filepath.Glob, home: home}
}

// nvrtcSonames are the names handed to the loader's default search, newest
// first.
var nvrtcSonames = []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}

// driverCandidates lists where libcuda is looked for: the loader's search
// first, then the folder where WSL keeps the driver.
func driverCandidates() []string {
	return []string{"libcuda.so.1", "libcuda.so", "/usr/lib/wsl/lib/libcuda.so.1"}
}

// nvrtcCandidates lists, in order, the paths and bare names to try for
// libnvrtc. Bare names go through the loader's default search.
func nvrtcCandidates(env searchEnv) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if p := env.getenv("TRI_NVRTC"); p != "" {
		add(p)
	}
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if root := env.getenv(v); root != "" {
			for _, sub := range []string{"lib64", "lib"} {
				for _, p := range libsIn(env, filepath.Join(root, sub)) {
					add(p)
				}
			}
		}
	}
	for _, p := range libsIn(env, "/usr/local/cuda/lib64") {
		add(p)
	}
	for _, n := range nvrtcSonames {
		add(n)
	}
	for _, site := range sitePackages(env) {
		for _, sub := range []string{"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"} {
			for _, p := range libsIn(env, filepath.Join(site, sub)) {
				add(p)
			}
		}
	}
	return out
}

// libsIn returns the libnvrtc files in dir: the unversioned name first, then
// versioned names from the highest version down. libnvrtc-builtins is not
// the compiler and is skipped.
func libsIn(env searchEnv, dir string) []string {
	matches, _ := env.glob(filepath.Join(dir, "libnvrtc.so*"))
	sort.Slice(matches, func(i, j int) bool {
		return versionLess(soVersion(matches[j]), soVersion(matches[i]))
	})
	return matches
}

// soVersion returns the numbers after ".so." in a library's name; nil for
// an unversioned name, which sorts first.
func soVersion(p string) []int {
	_, ver, ok := strings.Cut(filepath.Base(p), ".so.")
	if !ok {
		return nil
	}
	var out []int
	for f := range strings.SplitSeq(ver, ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			break
		}
		out = append(out, n)
	}
	return out
}

// versionLess orders versions with nil (unversioned) above everything.
func versionLess(a, b []int) bool {
	if a == nil || b == nil {
		return b == nil && a != nil
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// sitePackages returns the Python package folders the environment points
// at, most specific first, without running Python.
func sitePackages(env searchEnv) []string {
	var out []string
	for _, p := range filepath.SplitList(env.getenv("PYTHONPATH")) {
		if p != "" {
			out = append(out, p)
		}
	}
	var roots []string
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if r := env.getenv(v); r != "" {
			roots = append(roots, r)
		}
	}
	if env.home != "" {
		roots = append(roots, filepath.Join(env.home, ".local"))
	}
	roots = append(roots, "/usr/local", "/usr")
	for _, r := range roots {
		for _, pat := range []string{"lib/python3*/site-packages", "lib/python3*/dist-packages"} {
			m, _ := env.glob(filepath.Join(r, pat))
			sort.Sort(sort.Reverse(sort.StringSlice(m)))
			out = append(out, m...)
		}
	}
	out = append(out, "/usr/lib/python3/dist-packages")
	return out
}
