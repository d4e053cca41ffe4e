package nvrtc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fakeEnv is a searchEnv over a list of existing files and some variables.
func fakeEnv(vars map[string]string, files ...string) searchEnv {
	return searchEnv{
		getenv: func(k string) string { return vars[k] },
		glob: func(pattern string) ([]string, error) {
			var out []string
			for _, f := range files {
				// Match the pattern against each prefix of f of the same depth.
				parts := strings.Split(f, "/")
				depth := len(strings.Split(pattern, "/"))
				if depth > len(parts) {
					continue
				}
				p := strings.Join(parts[:depth], "/")
				if ok, _ := filepath.Match(pattern, p); ok && !contains(out, p) {
					out = append(out, p)
				}
			}
			return out, nil
		},
		home: "/home/u",
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestNVRTCCandidates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vars  map[string]string
		files []string
		want  []string
	}{
		{
			name: "nothing installed: loader names only",
			want: []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"},
		},
		{
			name:  "TRI_NVRTC first, then CUDA_HOME, then /usr/local/cuda",
			vars:  map[string]string{"TRI_NVRTC": "/opt/my/libnvrtc.so.13", "CUDA_HOME": "/opt/cuda"},
			files: []string{"/opt/cuda/lib64/libnvrtc.so.12", "/opt/cuda/lib64/libnvrtc-builtins.so.12", "/usr/local/cuda/lib64/libnvrtc.so.13"},
			want: []string{"/opt/my/libnvrtc.so.13", "/opt/cuda/lib64/libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.13",
				"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"},
		},
		{
			name:  "unversioned, then highest version",
			files: []string{"/usr/local/cuda/lib64/libnvrtc.so.12.4.99", "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so"},
			want: []string{"/usr/local/cuda/lib64/libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12.4.99",
				"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"},
		},
		{
			name:  "CUDA_PATH lib",
			vars:  map[string]string{"CUDA_PATH": "/c"},
			files: []string{"/c/lib/libnvrtc.so.13"},
			want:  []string{"/c/lib/libnvrtc.so.13", "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"},
		},
		{
			name: "pip wheels in a venv, ~/.local and PYTHONPATH",
			vars: map[string]string{"VIRTUAL_ENV": "/venv", "PYTHONPATH": "/pp"},
			files: []string{
				"/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
				"/home/u/.local/lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
				"/pp/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
			},
			want: []string{"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
				"/pp/nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
				"/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libnvrtc.so.13",
				"/home/u/.local/lib/python3.11/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, nvrtcCandidates(fakeEnv(tc.vars, tc.files...)))
		})
	}
}

func TestLoadNVRTCReportsWhatWasTried(t *testing.T) {
	_, err := loadNVRTC([]string{"/nonexistent/libnvrtc.so.13"})
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, "no NVRTC found")
	assert.ErrorContains(t, err, "/nonexistent/libnvrtc.so.13")
}
