// Package ir is tri's typed tile IR: the output of sema and the input of the
// interpreter and of CUDA generation.
//
// The IR is a structured tree, not a CFG: loops and ifs stay loops and ifs,
// because CUDA C is structured too. A kernel body is a Block of statements.
// Every computed Value appears exactly once in a Block (as a statement of its
// own, in evaluation order) before its uses; a Value defined in a block is
// visible in the blocks nested inside it after its definition. Side effects
// (loads that may fault, stores, atomics, barriers) are Values placed in
// order like the rest; those without a result have the Void type.
//
// Source names that are reassigned under control flow (loop-carried values,
// names assigned in branches of a runtime if) are Vars: typed mutable slots
// written by Assign and read by OpVarRead values. All other names are plain
// Values, so straight-line code is SSA.
//
// Every Value has a Type: an element DType and a Shape (nil for a scalar).
// Sema makes every conversion explicit: operands of an elementwise op have
// the same dtype and shape (OpCast, OpSplat and OpBroadcast are inserted),
// and constexpr values are folded into OpConst.
//
// Every op is described once, in the op table of op.go: its name, class,
// arity, the operand kinds it accepts, its result rule and, for a math
// function, the tl name sema binds to it. The verifier, sema's math
// builtins, the interpreter's dispatch and cudagen's lowering check read
// it, and TestEveryOp fails when an op lacks an entry, an implementation
// in the interpreter or a lowering in cudagen. An elementwise math function
// is added end to end with its table entry, its Go function in interp and
// its CUDA names in cudagen (cudagen/libm.go).
//
// ir imports no other package of tri, so that every phase can share it
// without pulling in another: positions are ir's own Pos, which converts
// to and from diag.Pos where a phase reports an error.
package ir
