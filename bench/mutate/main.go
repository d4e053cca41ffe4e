// Command mutate applies small deliberate mistakes to a copy of cudagen,
// one at a time, and reports which tests catch each. It copies the
// repository's tracked files (as they are in the working tree) into a
// scratch folder, which it changes and restores for every mutation, so
// the working tree is never touched.
//
// For each mutation (and a baseline without one) it builds the conformance
// test binary and tri into bin/mutants/NAME/ (for bench/mutate_gpu.sh, which
// runs them on the GPU) and, with -cpu, runs go test on cudagen and
// conformance in the copy (every failing test in bin/mutants/NAME/cpu.txt),
// reporting the failing tests in two columns: the
// golden comparisons (TestGolden, TestGoldenSM90a: they catch any change of
// the CUDA, right or wrong) and every other test. A mutation that fails no
// test but the goldens here is one only the GPU (or nothing) can catch.
//
//	go run ./bench/mutate -cpu                  # every mutation, CPU tests
//	go run ./bench/mutate -xz                   # binaries only, compressed
//	go run ./bench/mutate -cpu -nobin -run TestGolden  # the goldens each changes
//	go run ./bench/mutate -only scan-direction  # one, binaries only
//	go run ./bench/mutate -list
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	cpu := flag.Bool("cpu", false, "run go test ./cudagen ./conformance on each mutant")
	only := flag.String("only", "", "comma-separated mutation names (default: all)")
	bin := flag.String("bin", "bin/mutants", "folder for each mutant's binaries (relative: to the repository root)")
	list := flag.Bool("list", false, "list the mutations and exit")
	flag.StringVar(&testRun, "run", "", "with -cpu, only the tests matching this -run pattern (e.g. TestGolden: which goldens each mutation changes)")
	flag.BoolVar(&noBinaries, "nobin", false, "build no binaries (with -cpu: the CPU tests alone)")
	flag.BoolVar(&xzBinaries, "xz", false, "compress each binary with xz (NAME/conformance.test.xz, about 4 MB), which bench/mutate_gpu.sh expands")
	flag.Parse()
	if *list {
		for _, m := range mutations {
			fmt.Printf("%-22s %s\n", m.Name, m.What)
		}
		return
	}
	if err := run(*cpu, *only, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

// The flags -xz, -nobin and -run.
var (
	xzBinaries, noBinaries bool
	testRun                string
)

// result is what one mutant's build and tests gave.
type result struct {
	name          string
	golden, other []string // failing tests
	err           error
}

func run(cpu bool, only, bin string) error {
	root, err := output("", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	root = strings.TrimSpace(root)
	chosen, err := choose(only)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "tri-mutate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := copyTracked(root, work); err != nil {
		return err
	}
	binDir := bin
	if !filepath.IsAbs(bin) {
		binDir = filepath.Join(root, bin)
	}
	var results []result
	for _, m := range append([]mutation{{Name: "baseline", What: "no mutation"}}, chosen...) {
		fmt.Fprintf(os.Stderr, "mutate: %s\n", m.Name)
		r := result{name: m.Name}
		restore, err := apply(work, m)
		if err == nil && !noBinaries {
			err = buildBinaries(work, filepath.Join(binDir, m.Name), m)
		}
		if err == nil && cpu {
			r.golden, r.other = testCPU(work)
			if !noBinaries {
				err = writeList(filepath.Join(binDir, m.Name, "cpu.txt"), r.golden, r.other)
			}
		}
		if restore != nil {
			if rerr := restore(); rerr != nil {
				return rerr
			}
		}
		r.err = err
		results = append(results, r)
	}
	report(results, cpu)
	return nil
}

// choose returns the mutations named in only (all when empty).
func choose(only string) ([]mutation, error) {
	if only == "" {
		return mutations, nil
	}
	var out []mutation
	for _, n := range strings.Split(only, ",") {
		found := false
		for _, m := range mutations {
			if m.Name == n {
				out, found = append(out, m), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no mutation %q (see -list)", n)
		}
	}
	return out, nil
}

// copyTracked copies the files git tracks in root, as the working tree
// holds them, into dst.
func copyTracked(root, dst string) error {
	files, err := output(root, "git", "ls-files", "-z")
	if err != nil {
		return err
	}
	for _, f := range strings.Split(strings.TrimRight(files, "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			return err
		}
		to := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// apply makes m's edits in work and returns what puts the files back. An
// edit whose text is not where it says (the code moved on) is an error:
// the mutation list needs updating.
func apply(work string, m mutation) (restore func() error, err error) {
	saved := map[string][]byte{}
	restore = func() error {
		for f, data := range saved {
			if err := os.WriteFile(f, data, 0o644); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range m.Edits {
		f := filepath.Join(work, e.File)
		data, err := os.ReadFile(f)
		if err != nil {
			return restore, err
		}
		if _, ok := saved[f]; !ok {
			saved[f] = data
		}
		src := string(data)
		n := strings.Count(src, e.Old)
		if e.Nth == 0 && n != 1 || e.Nth > n {
			return restore, fmt.Errorf("%s: %s: found %d times: %q", m.Name, e.File, n, e.Old)
		}
		at, nth := 0, max(e.Nth, 1)
		for range nth - 1 {
			at += strings.Index(src[at:], e.Old) + len(e.Old)
		}
		at += strings.Index(src[at:], e.Old)
		src = src[:at] + e.New + src[at+len(e.Old):]
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			return restore, err
		}
	}
	return restore, nil
}

// buildBinaries builds the conformance test binary and tri of the mutant
// in work into dir, and writes what the GPU script reads about it.
func buildBinaries(work, dir string, m mutation) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Stripped, and tri only where the GPU script runs it: the binaries of
	// every mutant travel to the GPU machine together.
	builds := [][]string{{"test", "-c", "-ldflags=-s -w", "-o", filepath.Join(dir, "conformance.test"), "./conformance"}}
	if m.Sanitize != "" {
		builds = append(builds, []string{"build", "-ldflags=-s -w", "-o", filepath.Join(dir, "tri"), "./cmd/tri"})
	}
	for _, args := range builds {
		cmd := exec.Command("go", args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: go %s: %v\n%s", m.Name, strings.Join(args, " "), err, out)
		}
		if xzBinaries {
			bin := args[len(args)-2]
			if out, err := exec.Command("xz", "-f", "-T0", bin).CombinedOutput(); err != nil {
				return fmt.Errorf("%s: xz %s: %v\n%s", m.Name, bin, err, out)
			}
		}
	}
	about := m.What + "\n"
	if err := os.WriteFile(filepath.Join(dir, "what.txt"), []byte(about), 0o644); err != nil {
		return err
	}
	if m.Sanitize == "" {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, "sanitize.txt"), []byte(m.Sanitize+"\n"), 0o644)
}

// writeList writes every failing CPU test of a mutant, one a line.
func writeList(file string, golden, other []string) error {
	var b strings.Builder
	for _, t := range append(append([]string{}, golden...), other...) {
		b.WriteString(t + "\n")
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

// failLine matches a failing test or subtest in go test's output.
var failLine = regexp.MustCompile(`--- FAIL: (\S+)`)

// testCPU runs the CPU tests of cudagen and conformance in work and
// returns the failing tests, goldens apart. A test whose subtests fail is
// named by its subtests.
func testCPU(work string) (golden, other []string) {
	args := []string{"test", "-count=1"}
	if testRun != "" {
		args = append(args, "-run", testRun, "-v")
	}
	cmd := exec.Command("go", append(args, "./cudagen", "./conformance")...)
	cmd.Dir = work
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var failed []string
	for _, m := range failLine.FindAllStringSubmatch(out.String(), -1) {
		failed = append(failed, m[1])
	}
	if err != nil && len(failed) == 0 {
		// A build failure or a panic outside a test.
		other = append(other, "go test: "+firstLine(out.String()))
	}
	for _, f := range failed {
		if hasSubtest(failed, f) {
			continue
		}
		if strings.HasPrefix(f, "TestGolden") {
			golden = append(golden, f)
		} else {
			other = append(other, f)
		}
	}
	return golden, other
}

// hasSubtest reports whether a subtest of test f is among failed.
func hasSubtest(failed []string, f string) bool {
	for _, g := range failed {
		if strings.HasPrefix(g, f+"/") {
			return true
		}
	}
	return false
}

// report prints one row per mutant.
func report(results []result, cpu bool) {
	fmt.Println()
	if !cpu {
		fmt.Println("mutant binaries built (run with -cpu for the CPU tests):")
	}
	fmt.Printf("%-22s | %-40s | %s\n", "mutation", "goldens failing", "other CPU tests failing")
	fmt.Println(strings.Repeat("-", 22) + "-+-" + strings.Repeat("-", 40) + "-+-" + strings.Repeat("-", 40))
	for _, r := range results {
		if r.err != nil {
			fmt.Printf("%-22s | error: %v\n", r.name, r.err)
			continue
		}
		if !cpu {
			fmt.Printf("%-22s | %-40s | %s\n", r.name, "-", "-")
			continue
		}
		fmt.Printf("%-22s | %-40s | %s\n", r.name, summary(r.golden), summary(r.other))
	}
	if testRun == "" {
		return
	}
	// With -run the lists are short enough to print whole.
	for _, r := range results {
		fmt.Printf("\n%s: %s\n", r.name, strings.Join(append(r.golden, r.other...), " "))
	}
}

// summary is a count and the first few names of a list of tests.
func summary(tests []string) string {
	if len(tests) == 0 {
		return "none"
	}
	sort.Strings(tests)
	shown := tests[:min(3, len(tests))]
	s := fmt.Sprintf("%d: %s", len(tests), strings.Join(shown, " "))
	if len(tests) > len(shown) {
		s += " ..."
	}
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// output runs a command in dir and returns its standard output.
func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return string(out), nil
}
