// Package regfile opens and reads the files tri takes as input (kernel
// files, the modules they import, .npy arguments) with the same guard
// everywhere: only a regular file is read, and opening one never waits. A
// named pipe would block at open until a writer came, a device such as
// /dev/zero would never end, and a huge file would exhaust memory; each
// is refused with an error that says what the path is instead.
//
// Errors name no path (an error from the operating system has its path
// dropped), so that each caller places them as its diagnostics do.
package regfile
