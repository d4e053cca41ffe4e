package cudagen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/launch"
)

// build runs tri build on a file's recorded launch for arch.
func build(t *testing.T, file, arch string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := launch.BuildFile(file, "", &launch.Options{Arch: arch, Stdout: &out})
	return out.String(), err
}

// kernelFiles are the samples and construct kernels, by golden folder.
func kernelFiles(t *testing.T) map[string][]string {
	files := map[string][]string{}
	for dir, pat := range map[string]string{"samples": "../samples/*.tri", "constructs": "../conformance/constructs/*.tri"} {
		f, err := filepath.Glob(pat)
		require.NoError(t, err)
		require.NotEmpty(t, f, pat)
		files[dir] = f
	}
	return files
}

// fileArch is the architecture a file's kernel is built for in these
// tests: sm_80, or what a "# arch: sm_XY" header line asks for (the fp8
// conversions need sm_89).
func fileArch(t *testing.T, file string) string {
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	for _, l := range strings.Split(string(src), "\n") {
		if a, ok := strings.CutPrefix(l, "# arch: "); ok {
			return strings.TrimSpace(a)
		}
	}
	return "sm_80"
}

// TestGolden keeps the CUDA of every sample's and construct kernel's
// recorded launch, for sm_80 (or its "# arch:"), under testdata/golden/{samples,constructs};
// UPDATE_GOLDEN=1 rewrites it. With TestGoldenSM90a (the same files'
// sm_90a CUDA where it differs) it is the golden suite: review its diffs
// like code. As the prelude holds only what a kernel uses, a file
// changes only when its kernel's code does.
func TestGolden(t *testing.T) {
	for dir, files := range kernelFiles(t) {
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".tri")
			t.Run(dir+"/"+name, func(t *testing.T) {
				src, err := build(t, f, fileArch(t, f))
				require.NoError(t, err)
				golden := filepath.Join("testdata", "golden", dir, name+".cu")
				if os.Getenv("UPDATE_GOLDEN") != "" {
					require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
					require.NoError(t, os.WriteFile(golden, []byte(src), 0o644))
					return
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err, "run UPDATE_GOLDEN=1 go test ./cudagen to create it")
				assert.Equal(t, string(want), src, "generated CUDA changed; review and run UPDATE_GOLDEN=1")
			})
		}
	}
}

// TestSamplesCompile compiles the CUDA of every sample and construct
// kernel with clang for sm_80 (the files of a later "# arch:" are built
// for it and compiled for clang's sm_86, as inline PTX is not checked by
// clang): with the prelude written on demand, a
// definition a kernel uses but the prelude left out fails here. It is
// skipped where clang is missing.
func TestSamplesCompile(t *testing.T) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		t.Skip("clang not found")
	}
	tmp := t.TempDir()
	for dir, files := range kernelFiles(t) {
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".tri")
			t.Run(dir+"/"+name, func(t *testing.T) {
				t.Parallel()
				arch := fileArch(t, f)
				src, err := build(t, f, arch)
				require.NoError(t, err)
				if arch != "sm_80" {
					arch = "sm_86"
				}
				file := filepath.Join(tmp, dir+"_"+name+".cu")
				require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
				out, err := exec.Command(clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch="+arch, "-nocudainc", "-nocudalib",
					"-Wno-unknown-cuda-version", "-S", "-o", os.DevNull, file).CombinedOutput()
				require.NoError(t, err, string(out))
			})
		}
	}
}
