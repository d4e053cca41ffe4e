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
// Module-level if and try statements are descended into: the statements of
// each arm are handled like top-level ones and every name they bind is
// recorded in the file's Scope with its arm (scope.go, compound.go).
//
// A file is a Python module: File.Lookup gives what a module-level name
// stands for after Python would have imported the file, following imports
// into the project's other modules, which a Loader finds under the source
// roots and parses only when a name is needed (modules.go, lookup.go). A
// module's top level is evaluated statement by statement in source order
// (exec.go): assignments, augmented assignments, loops, star imports,
// attribute assignments on modules and the globals of functions called at
// module level bind names as Python binds them, values tri cannot compute
// without host code are left to sema or the host evaluator, and a name
// whose value tri cannot know is an error placed where it is bound. The
// arms of if and try statements that run are chosen as Python would choose
// them on a CUDA machine (branch.go). No host code is run by the frontend.
//
// The AST keeps a position on every node and records only the Python subset
// that kernels use; everything else becomes Unsupported or BadExpr nodes so
// that sema can report them only where they are reached.
package frontend
