// Package autotune is tri's @triton.autotune and @triton.heuristics: it
// reads the decorators (Read: their arguments, the file's config-building
// functions, pruning functions and heuristics lambdas run in gpython's
// interpreter against stand-ins of the triton and torch modules), binds a
// config's meta-parameters and the heuristics into a launch (Tuning.Apply),
// prunes the configs (Tuning.Prune), keys a launch (Key, Plan), and chooses
// the fastest config and remembers the choice on disk (Tuner).
//
// Tuner.Tune is independent of the GPU: it is handed a Job whose Compile and
// Time functions try one config, so tests drive it with fake timings. The
// driver (package launch) builds the Job: Compile specializes and compiles a
// config, Time is a Session's, which times it on a Device (the GPU, or a
// fake in tests), zeroing the reset_to_zero tensors before each launch and
// restoring the tuning copies after each config, as Triton's autotuner does.
//
// The choice is kept in a small JSON file under the user cache dir
// (~/.cache/tri/autotune next to the cubins, or $TRI_CACHE_DIR/autotune, or
// $TRI_AUTOTUNE_CACHE), named
// by a hash of the kernel file's text, the kernel's name, the key (the
// values of the autotune key's arguments and the dtypes of the tensor
// arguments, as Triton keys its cache), the GPU and tri's version, so a
// later process reuses it without timing again.
package autotune

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/internal/cachedir"
	"github.com/tri-lang/tri/version"
)

// Job is one tuning: what its result is keyed by, and how to try a
// config.
type Job struct {
	Kernel string // the kernel's name
	Source []byte // the kernel file's text
	Key    string // the autotune key's values and the tensor dtypes
	Device string // the GPU's name and architecture
	// Configs describes every config ("bm=64, ..., num_warps=4,
	// num_stages=3"); an index into it names a config.
	Configs []string
	// Candidates are the configs to time, in order (all of them, or those
	// left by early_config_prune).
	Candidates []int
	// Compile prepares config i; an error skips it with a warning.
	Compile func(i int) error
	// Warm, if set, readies the candidates side by side before they are
	// compiled one by one (NVRTC compiles into the disk cache in
	// parallel); its errors come back from Compile.
	Warm func(cands []int)
	// Time returns the median time of config i in milliseconds. An error
	// stops the tuning.
	Time func(i int) (float64, error)
}

// Tuner picks the fastest config of a Job and remembers the choice on
// disk.
type Tuner struct {
	// CacheDir holds the choices; "" means DefaultCacheDir().
	CacheDir string
	// Log receives a line per config timed, and the choice.
	Log io.Writer
	// Deadline, if not zero, stops a tuning that is still running then.
	Deadline time.Time
	// Timeout is the --timeout that set Deadline, for the message.
	Timeout time.Duration
}

// DefaultCacheDir is where autotune choices are kept:
// $TRI_AUTOTUNE_CACHE if set, else "autotune" under tri's cache folder
// ($TRI_CACHE_DIR, else tri under the user cache dir, next to the cubin
// cache), or "" if there is none.
func DefaultCacheDir() string {
	if d := os.Getenv("TRI_AUTOTUNE_CACHE"); d != "" {
		return d
	}
	return cachedir.Dir("autotune")
}

// IsCacheFile reports whether name, a file in the cache's folder, is one
// a Tuner writes: a choice (key.json) or the temporary file of a write
// that was interrupted. tri cache clean removes only these.
func IsCacheFile(name string) bool {
	return cachedir.IsKeyFile(name, tmpPrefix, ".json")
}

// tmpPrefix starts the temporary name a choice is written under.
const tmpPrefix = ".tune-"

// entry is a cached choice.
type entry struct {
	Kernel   string  `json:"kernel"`
	Key      string  `json:"key"`
	Device   string  `json:"device"`
	Config   int     `json:"config"`
	Describe string  `json:"describe"`
	Ms       float64 `json:"ms"`
}

// Tune returns the index of the fastest config: the only candidate if there
// is one, the cached choice if the cache holds one for the job, else the
// fastest candidate by compiling and timing each.
func (t *Tuner) Tune(j *Job) (int, error) {
	w := t.Log
	if w == nil {
		w = io.Discard
	}
	if len(j.Candidates) == 1 { // nothing to choose from, as in Triton
		return j.Candidates[0], nil
	}
	path := t.entryPath(j)
	if i, ok := t.cached(path, j); ok {
		fmt.Fprintf(w, "autotune: using cached config %d for key (%s): %s\n", i, j.Key, j.Configs[i])
		return i, nil
	}
	if j.Warm != nil {
		fmt.Fprintf(w, "autotune: %s: compiling %s side by side\n", j.Kernel, hosteval.Plural(len(j.Candidates), "config"))
		j.Warm(j.Candidates)
	}
	fmt.Fprintf(w, "autotune: %s: timing %s for key (%s)\n", j.Kernel, hosteval.Plural(len(j.Candidates), "config"), j.Key)
	best, bestMs := -1, 0.0
	var firstErr error
	for n, i := range j.Candidates {
		if !t.Deadline.IsZero() && time.Now().After(t.Deadline) {
			return -1, fmt.Errorf("autotuning %s stopped by --timeout %v after %d of %d configs", j.Kernel, t.Timeout, n, len(j.Candidates))
		}
		if err := j.Compile(i); err != nil {
			fmt.Fprintf(w, "autotune:   config %d (%s): skipped: %s\n", i, j.Configs[i], firstLine(err))
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		ms, err := j.Time(i)
		if err != nil {
			return -1, fmt.Errorf("autotuning %s: config %d (%s): %w", j.Kernel, i, j.Configs[i], err)
		}
		fmt.Fprintf(w, "autotune:   config %d (%s): %.4g ms\n", i, j.Configs[i], ms)
		if best < 0 || ms < bestMs {
			best, bestMs = i, ms
		}
	}
	if best < 0 {
		if firstErr == nil {
			return -1, fmt.Errorf("autotuning %s: no config to time", j.Kernel)
		}
		return -1, fmt.Errorf("autotuning %s: no config compiled; the first error:\n%w", j.Kernel, firstErr)
	}
	fmt.Fprintf(w, "autotune: %s: config %d is the fastest (%.4g ms): %s\n", j.Kernel, best, bestMs, j.Configs[best])
	if path != "" {
		if err := writeEntry(path, entry{Kernel: j.Kernel, Key: j.Key, Device: j.Device, Config: best, Describe: j.Configs[best], Ms: bestMs}); err != nil {
			fmt.Fprintf(w, "autotune: could not cache the choice: %v\n", err)
		}
	}
	return best, nil
}

// entryPath is the cache file of a job, or "" without a cache dir.
func (t *Tuner) entryPath(j *Job) string {
	dir := t.CacheDir
	if dir == "" {
		dir = DefaultCacheDir()
	}
	if dir == "" {
		return ""
	}
	h := sha256.New()
	for _, s := range []string{version.Version, j.Kernel, string(j.Source), j.Key, j.Device} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil))+".json")
}

// cached reads a job's cached choice; an entry that does not name one of
// the job's candidates as it is described now is a miss.
func (t *Tuner) cached(path string, j *Job) (int, bool) {
	if path == "" {
		return 0, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	var e entry
	if json.Unmarshal(data, &e) != nil || e.Config < 0 || e.Config >= len(j.Configs) ||
		!slices.Contains(j.Candidates, e.Config) || j.Configs[e.Config] != e.Describe || e.Kernel != j.Kernel || e.Key != j.Key {
		return 0, false
	}
	return e.Config, true
}

// writeEntry writes a cache file through a temporary name, so that readers
// never see half of it.
func writeEntry(path string, e entry) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), tmpPrefix+"*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// firstLine is the first line of an error's text.
func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
