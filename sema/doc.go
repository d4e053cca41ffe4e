// Package sema specializes a @jit kernel for one launch signature: it turns
// tri's AST into the typed tile IR of package ir.
//
// Specialization is one walk over the kernel body, evaluating every
// expression to a value that is either known at compile time (a constexpr:
// a Python int of arbitrary precision, a float, a bool, a string, None, a
// dtype, a tuple, a function or module) or a runtime ir.Value with a dtype
// and a shape. Expressions whose operands are all constexprs are folded with
// Python's semantics; as soon as one operand is a runtime value, Triton's
// rules apply (literal typing, promotion, broadcasting), and sema emits IR
// with every conversion explicit.
//
// Control flow follows the value kinds: an if whose condition is a
// constexpr compiles only the taken branch, tl.static_range unrolls, and
// calls to other @jit functions are inlined at the call site. Runtime ifs,
// for loops and while loops stay structured; source names reassigned under
// them become ir.Vars (loop-carried values, values merged after an if),
// found by scanning the statements for assignments before compiling them.
// The keywords of tl.range are checked as Triton's code generator reads
// them; num_stages, loop_unroll_factor and disallow_acc_multi_buffer are
// recorded on the ir.For, the rest (and Python's range's keywords, and
// tl.condition's disable_licm) are ignored (see rangeKeywords).
//
// Reductions and scans follow Triton's standard.py: tl.sum, max, min,
// argmax, argmin, xor_sum, cumsum and cumprod become OpReduce/OpScan with a
// builtin combiner after the dtype conversions standard.py makes; axis=None
// flattens with OpReshape and keep_dims re-inserts the axis. tl.reduce and
// tl.associative_scan inline their @jit combine function into an ir.Region
// over scalar OpRegionArg values; several inputs give one multi-result
// value read with OpTupleGet. Atomics follow semantic.py's type checks and
// conversions.
//
// Errors are collected with positions (at most ten); only code reachable
// after constexpr folding is checked, as in Triton. Check resolves names of
// every function without a signature, for tri check.
package sema
