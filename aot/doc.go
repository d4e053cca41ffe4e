// Package aot writes a C library for one specialized kernel, as Triton's
// ahead-of-time compiler (python -m triton.tools.compile) does: a header,
// NAME.h, and a C file, NAME.c, that a C or C++ program compiles with the
// CUDA driver's cuda.h and links with -lcuda. `tri build --aot DIR` calls it.
//
// The header declares four functions:
//
//	CUresult NAME(CUstream stream, CUdeviceptr x, ..., int32_t n);
//	CUresult load_NAME(void);
//	CUresult unload_NAME(void);
//	const char *NAME_error(void);
//
// NAME takes the kernel's runtime parameters in source order (pointers as
// CUdeviceptr, integers as the stdint type of their width, floats as float
// or double); constexpr parameters and integers specialized to 1 are folded
// into the code and are not parameters, as in Triton's launcher. NAME
// computes the launch grid from its integer arguments (grid.go: the --grid
// expressions, in int64_t, with cdiv, min and max) and launches with
// cuLaunchKernel: 32*num_warps threads per program and the dynamic shared
// memory the kernel was generated for (cudagen.Result.SharedBytes), which
// load_NAME allows beforehand with cuFuncSetAttribute, as package gpu does
// for tri's own launches.
//
// The C file holds the kernel in one of two forms:
//
//   - a cubin compiled by NVRTC when tri built the library (Options.Cubin),
//     loaded with cuModuleLoadData: nothing else is needed at run time, but
//     the GPU must be of the cubin's architecture;
//   - the generated CUDA C itself, which load_NAME compiles with NVRTC,
//     found at run time with dlopen (TRI_NVRTC, CUDA_HOME, /usr/local/cuda,
//     the loader's path), for the GPU it runs on: an architecture-specific
//     target (sm_90a) needs exactly that GPU, any other one a GPU of at
//     least its compute capability.
//
// Only the driver API is used, so the library needs neither the CUDA
// runtime nor nvrtc.h. What NAME_error returns says why the last load
// failed (NVRTC's log included), since a CUresult alone cannot.
//
// Kernels whose launches need more than a parameter list (CUtensorMap
// parameters encoded on the host, per-program scratch memory) are refused
// with an error rather than exported with a launcher that would be wrong.
package aot
