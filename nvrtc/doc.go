// Package nvrtc is tri's GPU runtime: it loads NVIDIA's driver library
// (libcuda.so.1) and the runtime compiler (libnvrtc) when the program runs,
// compiles CUDA C to cubins, loads them as modules, moves memory and
// launches kernels. It uses purego instead of cgo, so tri builds with
// CGO_ENABLED=0 and no CUDA headers, and GPU features turn on only where a
// driver is found. On a machine without CUDA, Load returns an error that
// says what is missing (see ErrNotFound) and nothing else in the package
// works.
//
// # Libraries
//
// libcuda.so.1 comes with the driver and is found by the dynamic loader.
// libnvrtc is searched, in order, at the file named by TRI_NVRTC, under
// CUDA_HOME and CUDA_PATH (lib64, lib), in /usr/local/cuda/lib64, through
// the loader's own search (libnvrtc.so, .so.13, .so.12) and in the
// nvidia/cu13/lib and nvidia/cuda_nvrtc/lib folders of the pip packages
// under the Python site-packages folders the environment points at
// (VIRTUAL_ENV, CONDA_PREFIX, PYTHONPATH, ~/.local and the system ones).
// NVRTC and the driver are loaded separately (LoadNVRTC, LoadDriver), so
// compiling needs no GPU.
//
// # Contexts and threads
//
// Every Device uses the device's primary context. The CUDA driver keeps the
// current context per OS thread while Go moves goroutines between threads,
// so every method that calls the driver locks its goroutine to its thread
// for the length of the call, asks the driver for the thread's current
// context and makes the device's context current only when it differs.
// After the first call on a thread that check is a single cheap driver
// call, so callers need not pin goroutines and every method is safe to call
// from any goroutine.
//
// # Launches
//
// Kernel arguments are packed by ArgPacker into one byte buffer laid out as
// the kernel's parameter list (each argument at its natural alignment) and
// handed to cuLaunchKernel through its extra array
// (CU_LAUNCH_PARAM_BUFFER_POINTER). The extra array, the size word and a
// copy of the arguments live in pooled scratch memory mapped outside the Go
// heap, so no Go memory is ever handed to the driver and nothing needs
// pinning, and a launch allocates nothing.
//
// # Errors
//
// Every CUresult and nvrtcResult is reported by name and number
// ("cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS (700)"), from the libraries'
// own name functions where present and from the package's tables
// otherwise. A failed compilation returns a *CompileError carrying NVRTC's
// log; MapLogToSource rewrites the log's CUDA line numbers into .tri lines.
//
// # Targets older than the GPU
//
// A cubin runs only on GPUs of its own major architecture: sm_80 SASS does
// not run on an sm_90 GPU. Code for an older target is therefore compiled
// to PTX for it (CompileOptions.PTX: --gpu-architecture=compute_80) and
// loaded with Device.LoadPTX, through cuModuleLoadDataEx, whose JIT
// compiles it for the GPU at hand with the limits ptxas would have had
// (JITOptions) and returns ptxas's report in its log.
//
// # Cache
//
// Cache keeps cubins and PTX on disk, keyed by a hash of the CUDA source,
// the options, the architecture, the kind of output and the NVRTC and tri
// versions. Entries carry a
// checksum and are written atomically; an unreadable or corrupt entry is a
// miss, never an error.
package nvrtc
