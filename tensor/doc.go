// Package tensor holds host tensors: a dtype, a shape and little-endian
// bytes, shared by the launcher, the interpreter and the GPU runtime, with a
// reader and writer for NumPy's .npy format.
package tensor
