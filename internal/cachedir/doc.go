// Package cachedir says where tri keeps what it caches on disk, and
// measures and empties those folders for tri cache.
//
// Every cache is a folder under one root: $TRI_CACHE_DIR when it is set,
// else "tri" under the user's cache folder (os.UserCacheDir: on Linux
// $XDG_CACHE_HOME, else ~/.cache). One variable moves them all, as
// TRITON_CACHE_DIR moves Triton's; a cache may have its own variable too
// ($TRI_AUTOTUNE_CACHE), which wins for that cache.
//
// Cleaning removes only the files the cache's owner says it wrote, never
// the folder's other contents: TRI_CACHE_DIR set by mistake to a folder of
// the user's must not lose it its files.
package cachedir
