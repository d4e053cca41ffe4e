package autotune

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeJob is a Job over configs whose times are given; a config
// without a time fails to compile. Calls are counted.
func fakeJob(key string, times map[int]float64, n int) (*Job, *[]string) {
	var calls []string
	j := &Job{Kernel: "k", Source: []byte("src"), Key: key, Device: "fake GPU (sm_90)"}
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
	for name, change := range map[string]func(*Job){
		"key":    func(j *Job) { j.Key = "n=200" },
		"device": func(j *Job) { j.Device = "other GPU (sm_80)" },
		"source": func(j *Job) { j.Source = []byte("edited") },
		"config": func(j *Job) { j.Configs[1] = "BLOCK=64, num_warps=8, num_stages=3" },
		"pruned": func(j *Job) { j.Candidates = []int{0, 2} },
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

// TestCacheDirAndFiles: the choices go under $TRI_CACHE_DIR (as the cubins
// do) unless $TRI_AUTOTUNE_CACHE moves them alone, and the files a Tuner
// writes there are its own, for tri cache clean.
func TestCacheDirAndFiles(t *testing.T) {
	root := t.TempDir()
	t.Setenv("TRI_AUTOTUNE_CACHE", "")
	t.Setenv("TRI_CACHE_DIR", root)
	assert.Equal(t, filepath.Join(root, "autotune"), DefaultCacheDir())
	t.Setenv("TRI_AUTOTUNE_CACHE", "/tmp/elsewhere")
	assert.Equal(t, "/tmp/elsewhere", DefaultCacheDir())

	t.Setenv("TRI_AUTOTUNE_CACHE", "")
	j, _ := fakeJob("n=100", map[int]float64{0: 3, 1: 1}, 2)
	_, err := (&Tuner{}).Tune(j)
	require.NoError(t, err)
	entries, err := os.ReadDir(filepath.Join(root, "autotune"))
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.True(t, IsCacheFile(entries[0].Name()), entries[0].Name())
	assert.False(t, IsCacheFile("config.json"))
}
