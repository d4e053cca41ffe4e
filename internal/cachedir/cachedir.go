package cachedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Env is the variable that moves every cache of tri.
const Env = "TRI_CACHE_DIR"

// Root is the folder that holds tri's caches: $TRI_CACHE_DIR, else "tri"
// under the user's cache folder; "" when neither is known (no HOME).
func Root() string {
	if d := os.Getenv(Env); d != "" {
		return d
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "tri")
}

// Dir is the folder of the cache named name under Root ("" when Root is).
func Dir(name string) string {
	root := Root()
	if root == "" {
		return ""
	}
	return filepath.Join(root, name)
}

// Usage counts the files in dir that owns claims, and their bytes. A
// missing dir holds nothing.
func Usage(dir string, owns func(name string) bool) (files int, bytes int64, err error) {
	err = walk(dir, owns, func(path string, size int64) error {
		files++
		bytes += size
		return nil
	})
	return files, bytes, err
}

// Clean removes the files in dir that owns claims, and dir itself if that
// leaves it empty; it reports what it removed. A missing dir is clean.
func Clean(dir string, owns func(name string) bool) (files int, bytes int64, err error) {
	err = walk(dir, owns, func(path string, size int64) error {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		files++
		bytes += size
		return nil
	})
	if err == nil && dir != "" {
		os.Remove(dir) // only succeeds when empty: other files stay
	}
	return files, bytes, err
}

// walk calls f on each regular file directly in dir whose name owns
// claims; caches are flat folders, so subfolders are not entered.
func walk(dir string, owns func(string) bool, f func(path string, size int64) error) error {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !owns(e.Name()) {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) { // removed meanwhile by another tri
			continue
		}
		if err != nil {
			return err
		}
		if err := f(filepath.Join(dir, e.Name()), info.Size()); err != nil {
			return err
		}
	}
	return nil
}

// IsKeyFile reports whether name is a cache entry named by a SHA-256 in
// hex with one of exts ("key.cubin"), or one of the temporary files,
// starting with tmpPrefix, that an interrupted write leaves.
func IsKeyFile(name, tmpPrefix string, exts ...string) bool {
	if tmpPrefix != "" && len(name) > len(tmpPrefix) && name[:len(tmpPrefix)] == tmpPrefix {
		return true
	}
	ext := filepath.Ext(name)
	key := name[:len(name)-len(ext)]
	if len(key) != 64 {
		return false
	}
	for _, c := range key {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	for _, e := range exts {
		if ext == e {
			return true
		}
	}
	return false
}
