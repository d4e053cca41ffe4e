// Package tensor holds host tensors: a dtype, a shape and little-endian
// bytes, shared by the launcher, the interpreter and the GPU runtime, with a
// reader and writer for NumPy's .npy format. A deferred tensor
// (Deferred) has a dtype and a shape and makes its elements only when
// something reads them, so that a command which reads only shapes (tri
// build) never makes them.
package tensor
