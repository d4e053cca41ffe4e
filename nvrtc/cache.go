package nvrtc

// This file implements the on-disk cache of compiled code: cubins, and PTX
// for targets older than the GPU.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tri-lang/tri/internal/cachedir"
	"github.com/tri-lang/tri/version"
)

// Cache keeps compiled cubins (name.cubin) and PTX (name.ptx) in a folder,
// one file per key, with NVRTC's log beside it. A missing, unreadable or
// corrupt entry is a miss.
type Cache struct {
	Dir string
}

// DefaultCache returns the cache in "cubin" under tri's cache folder:
// $TRI_CACHE_DIR/cubin, else ~/.cache/tri/cubin on Linux (under
// $XDG_CACHE_HOME when set), or nil when there is none. tri cache shows,
// measures and cleans it.
func DefaultCache() *Cache {
	dir := cachedir.Dir("cubin")
	if dir == "" {
		return nil
	}
	return &Cache{Dir: dir}
}

// IsCacheFile reports whether name, a file in a Cache's folder, is one the
// cache writes: an entry (key.cubin, key.ptx, key.log) or the temporary
// file of a write that was interrupted. tri cache clean removes only these.
func IsCacheFile(name string) bool {
	return cachedir.IsKeyFile(name, tmpPrefix, ".cubin", ".ptx", ".log")
}

// tmpPrefix starts the temporary name an entry is written under.
const tmpPrefix = ".tmp-"

// entryMagic starts every cache file; the SHA-256 of the payload follows,
// so a truncated or damaged file is detected.
const entryMagic = "TRICUBN1"

// Key returns the cache key of a compilation: the SHA-256, in hex, of the
// CUDA source, the NVRTC options, the architecture, whether the output is
// PTX or a cubin, and the NVRTC and tri versions.
func Key(src string, opt CompileOptions, arch, nvrtcVersion, triVersion string) string {
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field(src)
	opt.Arch = arch
	for _, o := range opt.Options() {
		field(o)
	}
	field("name=" + opt.name())
	field(arch)
	field("output=" + opt.output())
	field(nvrtcVersion)
	field(triVersion)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key, ext string) string { return filepath.Join(c.Dir, key+ext) }

// Get returns the cubin stored under key.
func (c *Cache) Get(key string) ([]byte, bool) {
	return c.read(c.path(key, ".cubin"))
}

// Put stores cubin under key. The file is written to a temporary name and
// renamed, so readers never see half an entry.
func (c *Cache) Put(key string, cubin []byte) error {
	return c.write(c.path(key, ".cubin"), cubin)
}

func (c *Cache) read(path string) ([]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) < len(entryMagic)+sha256.Size || string(data[:len(entryMagic)]) != entryMagic {
		return nil, false
	}
	sum := data[len(entryMagic) : len(entryMagic)+sha256.Size]
	payload := data[len(entryMagic)+sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return payload, true
}

func (c *Cache) write(path string, payload []byte) error {
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(c.Dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(payload)
	_, err = f.Write(append(append([]byte(entryMagic), sum[:]...), payload...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cubin cache: %w", err)
	}
	return nil
}

// CompileCached compiles src like Compile, reusing the cubin or PTX and the
// log of an earlier identical compilation from c. A nil c compiles every
// time. Cache failures never fail the compilation; hit reports whether the
// cache answered.
func CompileCached(c *Cache, src string, opt CompileOptions) (prog *Program, hit bool, err error) {
	if c == nil {
		prog, err = Compile(src, opt)
		return prog, false, err
	}
	major, minor, err := Version()
	if err != nil {
		return nil, false, err
	}
	key := Key(src, opt, opt.Arch, fmt.Sprintf("%d.%d", major, minor), version.Version)
	code := c.path(key, "."+opt.output())
	if data, ok := c.read(code); ok {
		log, _ := c.read(c.path(key, ".log"))
		prog = &Program{Log: string(log)}
		if opt.PTX {
			prog.PTX = data
		} else {
			prog.Cubin = data
		}
		return prog, true, nil
	}
	prog, err = Compile(src, opt)
	if err != nil {
		return nil, false, err
	}
	data := prog.Cubin
	if opt.PTX {
		data = prog.PTX
	}
	// The log goes first: a reader that finds the code also finds its log.
	if c.write(c.path(key, ".log"), []byte(prog.Log)) == nil {
		_ = c.write(code, data)
	}
	return prog, false, nil
}
