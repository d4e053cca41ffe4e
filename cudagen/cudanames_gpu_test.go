package cudagen_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/cudagen/internal/cudanames"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/nvrtc"
)

// namesChildEnv names the file of kernel names a child process of
// TestCUDANamesCompileGPU compiles.
const namesChildEnv = "TRI_CUDA_NAMES_CHILD"

// pythonKeywords cannot name a kernel.
var pythonKeywords = strings.Fields(`False None True and as assert async await break class continue def del
	elif else except finally for from global if import in is lambda nonlocal not or pass raise return try
	while with yield`)

// TestCUDANamesCompileGPU compiles, with NVRTC, samples/add.tri with its
// kernel and first parameter named after each name CUDA declares
// (cudagen.ReservedNames that Python allows: vprintf, atomicAdd, __nv_sinf,
// threadIdx...) and fails on any NVRTC error or crash. NVRTC crashes in
// the process that calls it (a kernel named vprintf did, with SIGSEGV), so
// the compiles run in child processes of this test binary, several at a
// time; a child that dies names the kernel it was compiling, and the rest
// of its names go to a new child. Without NVRTC it skips, unless
// TRI_REQUIRE_GPU=1.
//
//	go test ./cudagen -run 'TestCUDANames.*GPU' -v
func TestCUDANamesCompileGPU(t *testing.T) {
	if list := os.Getenv(namesChildEnv); list != "" {
		compileNamesChild(t, list)
		return
	}
	needNVRTC(t)
	var names []string
	for _, n := range cudagen.ReservedNames() {
		if !slices.Contains(pythonKeywords, n) {
			names = append(names, n)
		}
	}
	require.Greater(t, len(names), 3000)
	const workers = 8
	var mu sync.Mutex
	var crashed, failed []string
	var wg sync.WaitGroup
	for w := range workers {
		var mine []string
		for i := w; i < len(names); i += workers {
			mine = append(mine, names[i])
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(mine) > 0 {
				done, bad, crash := runNamesChild(t, mine)
				mu.Lock()
				failed = append(failed, bad...)
				if crash != "" {
					crashed = append(crashed, crash)
					done++
				}
				mu.Unlock()
				mine = mine[done:]
			}
		}()
	}
	wg.Wait()
	sort.Strings(crashed)
	sort.Strings(failed)
	t.Logf("compiled %d kernels named after CUDA names on %s", len(names), gpu.TargetArch(""))
	require.Empty(t, crashed, "NVRTC crashed compiling kernels named so")
	require.Empty(t, failed, "NVRTC rejected kernels named so")
}

// runNamesChild compiles names in a child process. It returns how many
// names the child finished, those that failed (with NVRTC's message), and
// the name it was compiling when it died, if it did.
func runNamesChild(t *testing.T, names []string) (done int, failed []string, crash string) {
	list := filepath.Join(t.TempDir(), "names.txt")
	require.NoError(t, os.WriteFile(list, []byte(strings.Join(names, "\n")), 0o644))
	cmd := exec.Command(os.Args[0], "-test.run=^TestCUDANamesCompileGPU$")
	cmd.Env = append(os.Environ(), namesChildEnv+"="+list)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output() // a crash is told by a name started and not finished
	started := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		verb, rest, _ := strings.Cut(sc.Text(), " ")
		name, msg, _ := strings.Cut(rest, " ")
		switch verb {
		case "start":
			started = name
		case "ok", "fail":
			started = ""
			done++
			if verb == "fail" {
				failed = append(failed, name+": "+strings.ReplaceAll(msg, "\\n", "\n"))
			}
		}
	}
	if done < len(names) {
		crash = started
		if crash == "" { // died before its first name: nothing to blame
			t.Fatalf("the child compiling %s... died: %s", names[done], stderr.String())
		}
		crash += ": " + lastLine(stderr.String())
	}
	return done, failed, crash
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// compileNamesChild is the child's side: it compiles the kernel named
// after each name of the list, writing "start NAME" before and "ok NAME"
// or "fail NAME MESSAGE" after, to stdout, unbuffered, so that the parent
// knows which compile a crash interrupted.
func compileNamesChild(t *testing.T, list string) {
	data, err := os.ReadFile(list)
	require.NoError(t, err)
	src, err := os.ReadFile("../samples/add.tri")
	require.NoError(t, err)
	arch := gpu.TargetArch("")
	dir := t.TempDir()
	for _, name := range strings.Fields(string(data)) {
		fmt.Fprintf(os.Stdout, "start %s\n", name)
		if err := compileNamed(dir, string(src), name, arch); err != nil {
			fmt.Fprintf(os.Stdout, "fail %s %s\n", name, strings.ReplaceAll(err.Error(), "\n", "\\n"))
			continue
		}
		fmt.Fprintf(os.Stdout, "ok %s\n", name)
	}
}

// compileNamed builds add.tri with its kernel and first parameter called
// name and compiles the CUDA with NVRTC for arch.
func compileNamed(dir, src, name, arch string) error {
	text := strings.ReplaceAll(strings.ReplaceAll(src, "add_kernel", name), "x_ptr", name)
	path := filepath.Join(dir, "k.tri")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	p, err := launch.Prepare(path, "", &launch.Options{})
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	res, err := gpu.GenerateCUDA(p.Kernel, arch, false)
	if err != nil {
		return err
	}
	_, err = gpu.CompileReport(p.Kernel, res, arch, false)
	return err
}

// needNVRTC skips the test where no NVRTC is found, unless
// TRI_REQUIRE_GPU=1. The compiles need no GPU.
func needNVRTC(t *testing.T) {
	t.Helper()
	if err := nvrtc.LoadNVRTC(); err != nil {
		if os.Getenv("TRI_REQUIRE_GPU") == "1" {
			t.Fatalf("TRI_REQUIRE_GPU=1 but %v", err)
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		t.Skip(first)
	}
}

// TestCUDANamesTableGPU reads the builtins library of the NVRTC found (the
// headers it compiles against) as the table's generator does, and fails if
// that NVRTC declares a global name the table lacks. The message gives the
// command that writes the library's names as a list for the generator
// (cudagen/internal/cudanames/nvrtc-VERSION.txt, run here, where the
// library is); with the list committed, cudanames.go is regenerated (see
// internal/cudanames/gen).
//
//	go test ./cudagen -run 'TestCUDANames.*GPU' -v
func TestCUDANamesTableGPU(t *testing.T) {
	needNVRTC(t)
	lib := builtinsLibrary(t)
	data, err := os.ReadFile(lib)
	require.NoError(t, err)
	found := cudanames.FromBuiltins(data)
	require.Greater(t, len(found), 1000, "%s: too few names read; is it NVRTC's builtins library?", lib)
	reserved := map[string]bool{}
	for _, n := range cudagen.ReservedNames() {
		reserved[n] = true
	}
	var missing []string
	for _, n := range found {
		// Names of two underscores, or one and a capital, are renamed
		// whether listed or not.
		if cudanames.IsIdent(n) && !reserved[n] && !strings.HasPrefix(n, "__") && !(len(n) > 1 && n[0] == '_' && n[1] >= 'A' && n[1] <= 'Z') {
			missing = append(missing, n)
		}
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	major, minor, _ := nvrtc.Version()
	t.Logf("NVRTC %d.%d: %s, %d names", major, minor, lib, len(found))
	if len(missing) > 0 {
		version := cudanames.LibraryVersion(lib)
		if version == "" {
			version = fmt.Sprintf("%d.%d", major, minor)
		}
		t.Fatalf("NVRTC %d.%d declares %d names the table lacks: %s\n"+
			"Write them as a list for the table's generator, from the repository root on this machine:\n\t%s\n"+
			"then commit the list and regenerate cudanames.go with it (see cudagen/internal/cudanames/gen).",
			major, minor, len(missing), strings.Join(missing, " "), cudanames.ListCommand(lib, cudanames.ListFile(version)))
	}
}

// builtinsLibrary finds NVRTC's builtins library: mapped into the process
// once NVRTC has compiled something, else beside libnvrtc.
func builtinsLibrary(t *testing.T) string {
	src, err := os.ReadFile("../samples/add.tri")
	require.NoError(t, err)
	require.NoError(t, compileNamed(t.TempDir(), string(src), "probe_kernel", gpu.TargetArch("")))
	if maps, err := os.ReadFile("/proc/self/maps"); err == nil {
		for _, line := range strings.Split(string(maps), "\n") {
			if i := strings.Index(line, "/"); i >= 0 && strings.Contains(line[i:], "libnvrtc-builtins") {
				return line[i:]
			}
		}
	}
	_, nvrtcPath := nvrtc.Paths()
	libs, _ := filepath.Glob(filepath.Join(filepath.Dir(nvrtcPath), "libnvrtc-builtins*.so*"))
	if len(libs) == 0 {
		t.Fatalf("no libnvrtc-builtins beside %s", nvrtcPath)
	}
	// The file itself, not a link such as libnvrtc-builtins.so.13.0, names
	// the full version its list is named after.
	if real, err := filepath.EvalSymlinks(libs[0]); err == nil {
		return real
	}
	return libs[0]
}
