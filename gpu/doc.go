// Package gpu is tri's GPU runtime: it lowers a specialized ir.Kernel to
// CUDA (GenerateCUDA), compiles it with NVRTC through the disk cache
// (CompileCUDA, CompileReport), loads it on GPU 0 (Compile, CompileFor) and
// launches it with packed arguments on any stream (Compiled.Launch,
// Compiled.LaunchOn).
//
// CompileFor honours a target architecture other than the GPU's own
// (ResolveTarget, target.go): one of an older major architecture (sm_80 on
// an sm_90 GPU) is compiled to PTX for that target, which the driver's JIT
// compiles for the GPU, so that the target's own code runs here
// (Compiled.Target.JIT); a target the GPU cannot run is refused with an
// error wrapping ErrTarget.
// Tensors places host tensors on the device and brings them back.
//
// It knows nothing of launch lines or host Python: the launch package binds
// a launch's values to a kernel and hands this package the kernel and its
// arguments. Without an NVIDIA driver or NVRTC, errors wrap ErrNoGPU.
//
// The Go API may be used from many goroutines: the device is opened once per
// process, argument packing is per call, and a Compiled may be launched from
// several goroutines at once (one nvrtc.Stream each). A Tensors is not safe
// for concurrent use.
package gpu
