package launch

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/hosteval"
)

// fakeJob is a TuneJob over configs whose times are given; a config
// without a time fails to compile. Calls are counted.
func fakeJob(key string, times map[int]float64, n int) (*TuneJob, *[]string) {
	var calls []string
	j := &TuneJob{Kernel: "k", Source: []byte("src"), Key: key, Device: "fake GPU (sm_90)"}
	for i := range n {
		j.Configs = append(j.Configs, fmt.Sprintf("BLOCK=%d, num_warps=4, num_stages=3", 32<<i))
		j.Candidates = append(j.Candidates, i)
	}
	j.Compile = func(i int) error {
		calls = append(calls, fmt.Sprintf("compile %d", i))
		if _, ok := times[i]; !ok {
			return fmt.Errorf("config %d does not compile\nsecond line", i)
		}
		return nil
	}
	j.Time = func(i int) (float64, error) {
		calls = append(calls, fmt.Sprintf("time %d", i))
		return times[i], nil
	}
	return j, &calls
}

func TestTunerPicksFastest(t *testing.T) {
	var log bytes.Buffer
	tuner := &Tuner{CacheDir: t.TempDir(), Log: &log}
	j, calls := fakeJob("n=100", map[int]float64{0: 2.5, 2: 1.25, 3: 1.5}, 4)
	best, err := tuner.Tune(j)
	require.NoError(t, err)
	assert.Equal(t, 2, best)
	assert.Equal(t, []string{"compile 0", "time 0", "compile 1", "compile 2", "time 2", "compile 3", "time 3"}, *calls)
	assert.Equal(t, `autotune: k: timing 4 configs for key (n=100)
autotune:   config 0 (BLOCK=32, num_warps=4, num_stages=3): 2.5 ms
autotune:   config 1 (BLOCK=64, num_warps=4, num_stages=3): skipped: config 1 does not compile
autotune:   config 2 (BLOCK=128, num_warps=4, num_stages=3): 1.25 ms
autotune:   config 3 (BLOCK=256, num_warps=4, num_stages=3): 1.5 ms
autotune: k: config 2 is the fastest (1.25 ms): BLOCK=128, num_warps=4, num_stages=3
`, log.String())
}

func TestTunerCacheInAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	times := map[int]float64{0: 3, 1: 1, 2: 2}
	j, _ := fakeJob("n=100", times, 3)
	best, err := (&Tuner{CacheDir: dir}).Tune(j)
	require.NoError(t, err)
	require.Equal(t, 1, best)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	require.Len(t, files, 1)

	// A fresh tuner finds the choice without compiling or timing anything,
	// also through $TRI_AUTOTUNE_CACHE.
	t.Setenv("TRI_AUTOTUNE_CACHE", dir)
	var log bytes.Buffer
	j2, calls := fakeJob("n=100", times, 3)
	best, err = (&Tuner{Log: &log}).Tune(j2)
	require.NoError(t, err)
	assert.Equal(t, 1, best)
	assert.Empty(t, *calls)
	assert.Equal(t, "autotune: using cached config 1 for key (n=100): BLOCK=64, num_warps=4, num_stages=3\n", log.String())

	// Another key, device, source or config list is tuned again.
	for name, change := range map[string]func(*TuneJob){
		"key":    func(j *TuneJob) { j.Key = "n=200" },
		"device": func(j *TuneJob) { j.Device = "other GPU (sm_80)" },
		"source": func(j *TuneJob) { j.Source = []byte("edited") },
		"config": func(j *TuneJob) { j.Configs[1] = "BLOCK=64, num_warps=8, num_stages=3" },
		"pruned": func(j *TuneJob) { j.Candidates = []int{0, 2} },
	} {
		dir2 := t.TempDir()
		j3, _ := fakeJob("n=100", times, 3)
		_, err := (&Tuner{CacheDir: dir2}).Tune(j3)
		require.NoError(t, err)
		j3, calls := fakeJob("n=100", times, 3)
		change(j3)
		_, err = (&Tuner{CacheDir: dir2}).Tune(j3)
		require.NoError(t, err)
		assert.NotEmpty(t, *calls, name)
	}

	// A damaged entry is a miss.
	require.NoError(t, os.WriteFile(files[0], []byte("{"), 0o644))
	j4, calls := fakeJob("n=100", times, 3)
	_, err = (&Tuner{CacheDir: dir}).Tune(j4)
	require.NoError(t, err)
	assert.NotEmpty(t, *calls)
}

func TestTunerFailures(t *testing.T) {
	j, _ := fakeJob("n=1", map[int]float64{}, 2)
	_, err := (&Tuner{CacheDir: t.TempDir()}).Tune(j)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "autotuning k: no config compiled; the first error:\nconfig 0 does not compile")

	j, _ = fakeJob("n=1", map[int]float64{0: 1, 1: 1}, 2)
	j.Time = func(int) (float64, error) { return 0, errors.New("illegal address") }
	_, err = (&Tuner{CacheDir: t.TempDir()}).Tune(j)
	assert.EqualError(t, err, "autotuning k: config 0 (BLOCK=32, num_warps=4, num_stages=3): illegal address")

	j, calls := fakeJob("n=1", map[int]float64{0: 1, 1: 2}, 2)
	_, err = (&Tuner{CacheDir: t.TempDir(), Deadline: time.Now().Add(-time.Second), Timeout: time.Minute}).Tune(j)
	assert.EqualError(t, err, "autotuning k stopped by --timeout 1m0s after 0 of 2 configs")
	assert.Empty(t, *calls)

	j, calls = fakeJob("n=1", map[int]float64{}, 3)
	j.Candidates = []int{2}
	best, err := (&Tuner{CacheDir: t.TempDir()}).Tune(j)
	require.NoError(t, err)
	assert.Equal(t, 2, best, "a single candidate is taken without timing")
	assert.Empty(t, *calls)
}

// fakeDevice is a tuneDevice that prepares configs as the GPU does (binding
// and specializing) but records launches, zeroing and restoring instead of
// running them.
type fakeDevice struct {
	p     *Prepared
	times map[int]float64 // no entry: the config fails to compile
	ops   []string
}

func (f *fakeDevice) compile(i int) error {
	if _, ok := f.times[i]; !ok {
		return errors.New("does not compile")
	}
	_, err := f.p.setup.prepare(i, &Options{})
	f.ops = append(f.ops, fmt.Sprintf("compile %d", i))
	return err
}

func (f *fakeDevice) launch(i int) error {
	f.ops = append(f.ops, fmt.Sprintf("launch %d", i))
	return nil
}

func (f *fakeDevice) zero(name string) error {
	f.ops = append(f.ops, "zero "+name)
	return nil
}

func (f *fakeDevice) restore(name string) error {
	f.ops = append(f.ops, "restore "+name)
	return nil
}

// bench launches twice (a warm-up and one timed run) and reports the
// config's time, which it takes from the last launch recorded.
func (f *fakeDevice) bench(launch func() error) ([]float64, error) {
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
	s := &tuneSession{dev: dev, zero: []string{"acc", "lock"}, restore: []string{"x"}}
	ms, err := s.time(0)
	require.NoError(t, err)
	assert.Equal(t, 5.0, ms, "the median")
	assert.Equal(t, []string{"zero acc", "zero lock", "launch 0", "zero acc", "zero lock", "launch 0", "restore x"}, dev.ops)
}

func TestTunePlan(t *testing.T) {
	src := decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n'], reset_to_zero=['out_ptr'], restore_value=['x_ptr'])")
	p, err := prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	zero, restore, err := tunePlan(p.Tuning.Autotune, p.Bound)
	require.NoError(t, err)
	assert.Equal(t, []string{"out_ptr"}, zero)
	assert.Equal(t, []string{"x_ptr"}, restore, "restore_value given: only those")
	assert.Equal(t, "n=100; x_ptr: float32, out_ptr: float32", tuneKey(p.Tuning.Autotune, p.Bound))

	src = decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n', 'x_ptr'])")
	p, err = prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	zero, restore, err = tunePlan(p.Tuning.Autotune, p.Bound)
	require.NoError(t, err)
	assert.Empty(t, zero)
	assert.Equal(t, []string{"x_ptr", "out_ptr"}, restore, "no restore_value: every tensor argument")
	assert.Equal(t, "n=100, x_ptr=float32[100]; x_ptr: float32, out_ptr: float32", tuneKey(p.Tuning.Autotune, p.Bound))

	src = decorated("@triton.autotune(configs=[Config({'BLOCK': 32})], key=['n'], reset_to_zero=['n'])")
	p, err = prepareTuned(t, src, "k[(1,)](x, out, n)", 100, 0)
	require.NoError(t, err)
	_, _, err = tunePlan(p.Tuning.Autotune, p.Bound)
	assert.ErrorContains(t, err, "@triton.autotune: reset_to_zero names 'n', which is an int in this launch, not a tensor")
}

func TestTuneLaunch(t *testing.T) {
	dir := t.TempDir()
	tune := func(n int, times map[int]float64) (*Prepared, *fakeDevice, string) {
		p, err := prepareTuned(t, tunedSrc, tunedLaunch, n, -1)
		require.NoError(t, err)
		dev := &fakeDevice{p: p, times: times}
		var log bytes.Buffer
		q, err := p.tune(dev, "fake GPU (sm_90)", &Tuner{CacheDir: dir, Log: &log}, &Options{})
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
