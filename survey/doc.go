// Package survey measures how much of a real project tri compiles: tri
// survey DIR finds every @triton.jit (or @jit) function in the .py and .tri files
// under DIR and builds each kernel the way tri build does, for a launch
// derived from the kernel's parameters alone, then counts what built per
// folder and ranks the failures by kind.
//
// Functions are found by a scan of the text, not by tri's parser, so that
// a kernel in a file tri cannot parse, or a @jit defined where tri does not
// look (inside an if or a function), is counted as a failure rather than
// missed. A function that another @jit function calls by name is a helper:
// it is compiled inside its callers and is not built on its own.
//
// Each kernel is built in-process through launch.PrepareValues and the
// CUDA generator, with no GPU and no NVRTC: the autotune and heuristics
// decorators are read as tri build reads them (the only host code run),
// the first autotune config is taken, and pointers are tried as fp32, then
// fp16, then int32, then as the other integer types that the file's @jit
// functions name (tl.uint32), then as fp32 with flags True (derive.go says
// how every other parameter gets its value). A build runs in its own
// goroutine under a timeout, and a panic is caught and counted as an
// internal error, the first row of every table.
//
// A failure's kind (Kind) is its message with the particulars left out:
// "parse", "tl.X unsupported", "type", "undefined", "import", "internal
// error", ... The CSV keeps, for each function, the whole first line of
// the message and the launch it was built for, which tri build repeats,
// and a verdict (verdict.go): tri's gap, a wrong derived launch, a kernel
// Triton rejects too, or one written for another backend, with the rule
// that decided it.
package survey
