//go:build !unix

package regfile

// openFlags is empty where the platform has no O_NONBLOCK.
const openFlags = 0
