package conformance

// This file implements the listing of the files under test and the binding
// of their inputs.

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/tensor"
)

// seed is the --seed every test launch uses.
const seed = 0

// testCase is one file under test: its key in references and its header.
type testCase struct {
	key    string
	sample *launch.Sample
}

// testCases lists constructs/*.tri (keyed by base name) and
// ../samples/*.tri (keyed "sample/NAME"), sorted by key.
func testCases(t *testing.T) []testCase {
	t.Helper()
	var cases []testCase
	add := func(pattern, prefix string) {
		paths, err := filepath.Glob(pattern)
		require.NoError(t, err)
		require.NotEmpty(t, paths, "no files match %s", pattern)
		for _, p := range paths {
			s, err := launch.ReadSample(p)
			require.NoError(t, err)
			cases = append(cases, testCase{key: prefix + strings.TrimSuffix(filepath.Base(p), ".tri"), sample: s})
		}
	}
	add(filepath.Join("constructs", "*.tri"), "")
	add(filepath.Join("..", "samples", "*.tri"), "sample/")
	sort.Slice(cases, func(i, j int) bool { return cases[i].key < cases[j].key })
	return cases
}

// bindInputs evaluates a file's --let bindings as the launcher does and
// splits them into tensors and numbers.
func bindInputs(s *launch.Sample) (map[string]*tensor.Tensor, map[string]float64, error) {
	env := hosteval.NewEnv(seed)
	for _, l := range s.Lets {
		if err := env.Let(l); err != nil {
			return nil, nil, err
		}
	}
	in, num := map[string]*tensor.Tensor{}, map[string]float64{}
	for _, name := range env.Names() {
		v, _ := env.Lookup(name)
		switch v.Kind {
		case hosteval.VTensor:
			in[name] = v.Tensor
		case hosteval.VInt:
			num[name] = float64(v.Int)
		case hosteval.VFloat:
			num[name] = v.Float
		}
	}
	return in, num, nil
}

// cloneAll deep-copies every tensor of a binding map.
func cloneAll(m map[string]*tensor.Tensor) map[string]*tensor.Tensor {
	out := make(map[string]*tensor.Tensor, len(m))
	for k, v := range m {
		out[k] = v.Clone()
	}
	return out
}

func TestEveryFileHasReference(t *testing.T) {
	files := map[string]bool{}
	for _, c := range testCases(t) {
		files[c.key] = true
		if _, ok := references[c.key]; !ok {
			t.Errorf("%s: no reference; add one to references", c.sample.Path)
		}
	}
	for key := range references {
		if !files[key] {
			t.Errorf("reference %q has no file in constructs/ or samples/", key)
		}
	}
}

// TestReferencesRun evaluates every file's bindings and runs its reference,
// checking that it returns every checked output with the binding's dtype
// and shape. It needs neither the interpreter nor a GPU, so a bad --let or a
// reference that reads a missing binding shows here first.
func TestReferencesRun(t *testing.T) {
	for _, c := range testCases(t) {
		t.Run(c.key, func(t *testing.T) {
			ref, ok := references[c.key]
			if !ok {
				t.Skip("no reference")
			}
			in, num, err := bindInputs(c.sample)
			require.NoError(t, err)
			require.NotEmpty(t, c.sample.Checks, "no '# check:' line")
			want := ref(cloneAll(in), num)
			for _, name := range c.sample.Checks {
				got, ok := want[name]
				require.True(t, ok, "reference returns no %q", name)
				require.Equal(t, in[name].Kind, got.Kind, name)
				require.Equal(t, in[name].Shape, got.Shape, name)
			}
		})
	}
}
