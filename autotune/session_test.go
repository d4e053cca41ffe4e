package autotune

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeDevice is a Device that records launches, zeroing and restoring
// instead of running them.
type fakeDevice struct {
	times map[int]float64
	ops   []string
}

func (f *fakeDevice) Compile(i int) error {
	f.ops = append(f.ops, fmt.Sprintf("compile %d", i))
	return nil
}

func (f *fakeDevice) Launch(i int) error {
	f.ops = append(f.ops, fmt.Sprintf("launch %d", i))
	return nil
}

func (f *fakeDevice) Zero(name string) error {
	f.ops = append(f.ops, "zero "+name)
	return nil
}

func (f *fakeDevice) Restore(name string) error {
	f.ops = append(f.ops, "restore "+name)
	return nil
}

// Bench launches twice (a warm-up and one timed run) and reports three
// times around the config's, so that Time must take their median.
func (f *fakeDevice) Bench(launch func() error) ([]float64, error) {
	for range 2 {
		if err := launch(); err != nil {
			return nil, err
		}
	}
	var i int
	_, _ = fmt.Sscanf(f.ops[len(f.ops)-1], "launch %d", &i)
	return []float64{f.times[i] + 1, f.times[i], f.times[i] - 1}, nil
}

func TestTuneSessionBookkeeping(t *testing.T) {
	dev := &fakeDevice{times: map[int]float64{0: 5}}
	s := &Session{Dev: dev, Zero: []string{"acc", "lock"}, Restore: []string{"x"}}
	ms, err := s.Time(0)
	require.NoError(t, err)
	assert.Equal(t, 5.0, ms, "the median")
	assert.Equal(t, []string{"zero acc", "zero lock", "launch 0", "zero acc", "zero lock", "launch 0", "restore x"}, dev.ops)
}
