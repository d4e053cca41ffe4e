// Package launch is tri's driver: it ties a kernel file, a launch line
// and --let bindings to the compiler and runs the result, for the command
// line (RunFile, BuildFile, CheckFile, BenchFile) and for Go programs
// (Prepare, Prepared.RunGPU, Prepared.Interpret, samples and the comparison
// of results).
//
// The host Python of a launch (launch lines, --let, constructors, grids) is
// evaluated by package hosteval; the GPU runtime (compile, launch, device
// tensors) is package gpu.
//
// Package bind matches a launch's arguments to a kernel's parameters as
// Python would (positional, then by keyword, then defaults) and derives the
// kernel's specialization (sema.Signature) from the values as Triton does:
// tensors become 16-byte aligned pointers, the integer 1 folds to a
// constant, other integers are i32 or i64 with a divisibility-by-16 flag,
// floats are fp32, and tl.constexpr parameters take their values at
// compile time.
//
// A kernel under @triton.autotune or @triton.heuristics has a Tuning
// (package autotune), read from its decorators in gpython's interpreter.
// Prepare binds the config that Options.Config picks (its meta-parameters
// fill what the launch leaves out; heuristics set theirs at every launch),
// and Prepared.Autotune times the configs on the GPU through package
// autotune, which keeps the fastest in a disk cache.
package launch
