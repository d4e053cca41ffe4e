// Package version holds tri's version, shown by `tri version`, written into
// the header of generated CUDA and mixed into cache keys.
package version

// Version is tri's release version.
const Version = "0.1.0"
