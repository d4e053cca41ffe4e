// Package frontend finds the @triton.jit functions of a .tri or .py file and
// converts them to tri's own small AST.
//
// A file is never parsed as a whole: host code may use syntax newer than the
// Python 3.4 grammar of gpython's parser (f-strings, the @ operator, ...).
// The file is split into top-level statements by indentation; each
// statement that matters (imports, constexpr globals, decorated or jitted
// functions, host functions) is parsed on its own with its line numbers
// kept, and the rest is skipped. Inside kernels, a local annotated
// assignment (NAME: tl.constexpr = expr), which the old grammar rejects, is
// blanked to NAME = expr before parsing, keeping columns, and remembered as
// a constexpr.
//
// The AST keeps a position on every node and records only the Python subset
// that kernels use; everything else becomes Unsupported or BadExpr nodes so
// that sema can report them only where they are reached.
package frontend
