package cudanames

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseList reads names one a line, skipping notes and blank lines,
// and places what is not a name at its line.
func TestParseList(t *testing.T) {
	names, err := ParseList("l.txt", []byte("# a note\n\nh2tanh\r\ncudaLogLevel\nh2tanh\n  double4_16a  \n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"cudaLogLevel", "double4_16a", "h2tanh"}, names)
	_, err = ParseList("l.txt", []byte("# a note\nh2tanh\nnot a name\n"))
	assert.EqualError(t, err, `l.txt:3: "not a name" is not a C identifier`)
	_, err = ParseList("l.txt", []byte("# only a note\n"))
	assert.EqualError(t, err, "l.txt: no names")
}

// TestListText: what ListText writes, ParseList reads back as the
// library's identifiers; its note names the library by its file name only
// (no folder of the machine it was written on) and the command that
// writes it.
func TestListText(t *testing.T) {
	lib := "/opt/cuda-13.0/lib64/libnvrtc-builtins.so.13.0.88"
	text := ListText(lib, "/tmp/out/nvrtc-13.0.88.txt", []string{"vprintf", "atomicAdd", "operator+", "vprintf", "__nv_sinf"})
	names, err := ParseList("nvrtc-13.0.88.txt", text)
	require.NoError(t, err)
	assert.Equal(t, []string{"__nv_sinf", "atomicAdd", "vprintf"}, names)
	assert.NotContains(t, string(text), "/opt/")
	assert.NotContains(t, string(text), "/tmp/")
	assert.Contains(t, string(text), "# The names NVRTC's builtins library libnvrtc-builtins.so.13.0.88 declares")
	assert.Contains(t, string(text), "go run ./cudagen/internal/cudanames/gen -list -builtins libnvrtc-builtins.so.13.0.88 -o cudagen/internal/cudanames/nvrtc-13.0.88.txt\n")
}

// TestListCommand: the version comes from the library's file name, and a
// path a shell would split is quoted.
func TestListCommand(t *testing.T) {
	assert.Equal(t, "13.0.88", LibraryVersion("/usr/local/cuda/lib64/libnvrtc-builtins.so.13.0.88"))
	assert.Equal(t, "", LibraryVersion("/usr/local/cuda/lib64/libnvrtc-builtins.so"))
	assert.Equal(t, "nvrtc-13.0.88.txt", ListFile("13.0.88"))
	assert.True(t, IsListFile(ListFile("13.1")))
	assert.False(t, IsListFile("nvrtc-.txt"))
	assert.False(t, IsListFile("names.txt"))
	assert.Equal(t, "go run ./cudagen/internal/cudanames/gen -list -builtins /usr/lib/libnvrtc-builtins.so.13.0.88 -o cudagen/internal/cudanames/nvrtc-13.0.88.txt",
		ListCommand("/usr/lib/libnvrtc-builtins.so.13.0.88", "nvrtc-13.0.88.txt"))
	assert.Equal(t, `go run ./cudagen/internal/cudanames/gen -list -builtins '/my cuda/it'\''s/libnvrtc-builtins.so.13.0' -o cudagen/internal/cudanames/nvrtc-13.0.txt`,
		ListCommand("/my cuda/it's/libnvrtc-builtins.so.13.0", "nvrtc-13.0.txt"))
}

// TestCommittedLists: every committed list reads (a list that does not
// would stop the table's generator), NVRTC 13.0's among them.
func TestCommittedLists(t *testing.T) {
	lists, err := Lists()
	require.NoError(t, err)
	versions := map[string][]string{}
	for _, l := range lists {
		versions[l.Version] = l.Names
	}
	assert.Contains(t, versions["13.0.88"], "h2tanh", "NVRTC 13.0 declares h2tanh; CUDA 12.5 did not")
}
