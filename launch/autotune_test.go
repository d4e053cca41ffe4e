package launch

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/autotune"
	"github.com/tri-lang/tri/hosteval"
)

// fakeDevice is an autotune.Device that prepares configs as the GPU does (binding
// and specializing) but records launches, zeroing and restoring instead of
// running them.
type fakeDevice struct {
	p     *Prepared
	times map[int]float64 // no entry: the config fails to compile
	ops   []string
}

func (f *fakeDevice) Compile(i int) error {
	if _, ok := f.times[i]; !ok {
		return errors.New("does not compile")
	}
	_, err := f.p.setup.prepare(i, &Options{})
	f.ops = append(f.ops, fmt.Sprintf("compile %d", i))
	return err
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

// bench launches twice (a warm-up and one timed run) and reports the
// config's time, which it takes from the last launch recorded.
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

func TestTunePlan(t *testing.T) {
	src := decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n'], reset_to_zero=['out_ptr'], restore_value=['x_ptr'])")
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	zero, restore, err := autotune.Plan(p.Tuning.Autotune, p.Bound)
	require.NoError(t, err)
	assert.Equal(t, []string{"out_ptr"}, zero)
	assert.Equal(t, []string{"x_ptr"}, restore, "restore_value given: only those")
	assert.Equal(t, "n=100; x_ptr: float32, out_ptr: float32", autotune.Key(p.Tuning.Autotune, p.Bound))

	src = decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n', 'x_ptr'])")
	p, err = prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	zero, restore, err = autotune.Plan(p.Tuning.Autotune, p.Bound)
	require.NoError(t, err)
	assert.Empty(t, zero)
	assert.Equal(t, []string{"x_ptr", "out_ptr"}, restore, "no restore_value: every tensor argument")
	assert.Equal(t, "n=100, x_ptr=float32[100]; x_ptr: float32, out_ptr: float32", autotune.Key(p.Tuning.Autotune, p.Bound))

	src = decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n'], reset_to_zero=['n'])")
	p, err = prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	_, _, err = autotune.Plan(p.Tuning.Autotune, p.Bound)
	assert.ErrorContains(t, err, "@triton.autotune: reset_to_zero names 'n', which is an int in this launch, not a tensor")
}

func TestTuneLaunch(t *testing.T) {
	dir := t.TempDir()
	tune := func(n int, times map[int]float64) (*Prepared, *fakeDevice, string) {
		p, err := prepareTuned(t, tunedSrc, tunedLaunch, n, -1)
		require.NoError(t, err)
		dev := &fakeDevice{p: p, times: times}
		var log bytes.Buffer
		q, err := p.tune(dev, "fake GPU (sm_90)", &autotune.Tuner{CacheDir: dir, Log: &log}, &Options{})
		require.NoError(t, err)
		return q, dev, log.String()
	}
	times := map[int]float64{0: 4, 2: 1, 3: 2} // config 1 fails to compile
	q, dev, log := tune(100, times)
	assert.Equal(t, 2, q.Config)
	assert.Equal(t, hosteval.IntValue(64), meta(t, q, "BLOCK"))
	assert.Equal(t, 1, q.Kernel.NumWarps)
	assert.Equal(t, [3]int{2, 1, 1}, q.Grid)
	assert.Equal(t, []string{
		"compile 0", "zero out_ptr", "launch 0", "zero out_ptr", "launch 0", "restore x_ptr", "restore out_ptr",
		"compile 2", "zero out_ptr", "launch 2", "zero out_ptr", "launch 2", "restore x_ptr", "restore out_ptr",
		"compile 3", "zero out_ptr", "launch 3", "zero out_ptr", "launch 3", "restore x_ptr", "restore out_ptr",
	}, dev.ops)
	assert.Contains(t, log, "autotune: k: timing 4 configs for key (n=100; x_ptr: float32, out_ptr: float32)\n")
	assert.Contains(t, log, "config 1 (BLOCK=32, num_warps=2, num_stages=2): skipped: does not compile\n")
	assert.Contains(t, log, "config 2 is the fastest (1 ms): BLOCK=64, num_warps=1, num_stages=2\n")

	// Another process with the same key takes the cached choice.
	q, dev, log = tune(100, times)
	assert.Equal(t, 2, q.Config)
	assert.Empty(t, dev.ops)
	assert.Equal(t, "autotune: using cached config 2 for key (n=100; x_ptr: float32, out_ptr: float32): BLOCK=64, num_warps=1, num_stages=2\n", log)

	// early_config_prune keeps the configs whose BLOCK fits n.
	q, dev, log = tune(48, map[int]float64{0: 2, 1: 1})
	assert.Equal(t, 1, q.Config)
	assert.Contains(t, log, "timing 2 configs for key (n=48;")
	assert.Equal(t, hosteval.BoolValue(false), meta(t, q, "EVEN"))
	assert.NotContains(t, strings.Join(dev.ops, " "), "launch 2")
}

func TestPruneConfigs(t *testing.T) {
	tests := []struct {
		name, prune string
		want        []int
		nConfigs    int
		err         string
	}{
		{"subset", "return [c for c in configs if c.num_warps == named_args['n']]", []int{1}, 2, ""},
		{"keyword arguments", "return configs[:1] if kwargs.get('BLOCK') == 32 else configs", []int{0}, 2, ""},
		{"new config", "return [Config({'BLOCK': 128}, num_warps=8), configs[0], Config({'BLOCK': 32}, num_warps=2)]", []int{2, 0, 1}, 3, ""},
		{"nothing left", "return []", nil, 2, "early_config_prune left no config to time"},
		{"not a list", "return 3", nil, 2, "early_config_prune returned a int, not a list of configs"},
		{"bad config", "return [Config({'NOPE': 1})]", nil, 2, "config 2 sets 'NOPE', which is not a parameter of k()"},
		{"exception", "return configs[5]", nil, 2, "k.tri:7:5: early_config_prune: IndexError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := decorated("def prune(configs, named_args, **kwargs):\n    " + tt.prune + "\n\n" +
				"@triton.autotune(configs=[Config({'BLOCK': 32}, num_warps=1), Config({'BLOCK': 32}, num_warps=2)], key=['n'], prune_configs_by={'early_config_prune': prune})")
			p, err := prepareTuned(t, src, "k[(1,)](x, out, n, BLOCK=32)", 2, -1)
			require.NoError(t, err)
			got, err := p.pruneConfigs()
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Len(t, p.Tuning.Autotune.Configs, tt.nConfigs)
		})
	}
}

func TestRunFileConfig(t *testing.T) {
	path := writeKernel(t, tunedSrc)
	run := func(config int) (string, error) {
		var stderr bytes.Buffer
		o := &Options{Config: config, Interpret: true, Lets: []string{"n=100", "x=randn(n)", "out=empty(n)"}, Stderr: &stderr}
		err := RunFile(path, tunedLaunch, o)
		return stderr.String(), err
	}
	out, err := run(-1)
	require.NoError(t, err)
	assert.Contains(t, out, "k (autotune config 0): grid (4,) of 32 threads ran in the interpreter", "--interpret takes config 0 by default")
	out, err = run(3)
	require.NoError(t, err)
	assert.Contains(t, out, "k (autotune config 3): grid (2,) of 64 threads ran in the interpreter")
	_, err = run(9)
	assert.ErrorContains(t, err, "--config 9 is out of range")

	var stdout bytes.Buffer
	require.NoError(t, BuildFile(path, tunedLaunch, &Options{Config: -1, Arch: "sm_80", Lets: []string{"n=100", "x=randn(n)", "out=empty(n)"}, Stdout: &stdout}))
	assert.Contains(t, stdout.String(), "BLOCK=32", "tri build takes config 0 by default")
}
