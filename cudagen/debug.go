package cudagen

// This file implements the lowering of OpPrint and OpAssert.
//
// A print becomes one device printf per element a thread holds, with the
// format ir.PrintFormat gives (Triton's line: program id, element index,
// prefix, value). Unlike Triton, which prints every copy of a replicated
// element and a scalar once per thread, tri prints each element once per
// program (the owning thread of a replicated tile, thread 0 for a scalar),
// so the GPU prints the lines the interpreter prints; their order across
// threads and programs is the GPU's.
//
// An assertion is lowered only when the kernel is compiled with Debug (as
// Triton's device_assert emits nothing without debug=True): a failing lane
// calls CUDA's __assertfail with the message, the source file and line and
// the kernel's name, which prints the failure and makes the launch fail with
// CUDA_ERROR_ASSERT.
//
// NVRTC and nvcc declare printf themselves; clang without the CUDA headers
// gets its declaration from the helper. __assertfail is declared for nvcc
// and clang as CUDA's own headers declare it; NVRTC declares it itself.

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// clangOnly opens a block that only clang without the CUDA headers sees.
const clangOnly = `#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)`

// printfHelper is the device printf, under a name the prelude tracks.
var printfHelper = cgroup{`// Device printf (tl.device_print).
#if defined(__clang__) && !defined(__CUDACC_RTC__) && !defined(__NVCC__) && !defined(__CLANG_CUDA_RUNTIME_WRAPPER_H__)
extern "C" __device__ int printf(const char *, ...);
#endif`, []cdef{
	{"tri_printf", nil, `template <typename... T> TRI_DEV void tri_printf(const char *format, T... args) { printf(format, args...); }`},
}}

// assertHelper fails the launch with CUDA_ERROR_ASSERT (tl.device_assert).
// NVRTC declares __assertfail itself, with its own parameter types (a
// second declaration is an error there); elsewhere it is declared as CUDA's
// crt/device_runtime.h declares it, so that the declaration also stands
// where nvcc already made it.
var assertHelper = cgroup{`// Device assertions (tl.device_assert, with debug): __assertfail prints the failure and stops the launch.
#if !defined(__CUDACC_RTC__)
extern "C" __device__ void __assertfail(const void *, const void *, unsigned int, const void *, decltype(sizeof(0)));
#endif`, []cdef{
	{"tri_assert_fail", nil, `TRI_DEV void tri_assert_fail(const char *message, const char *file, unsigned int line, const char *function) { __assertfail(message, file, line, function, 1); }`},
}}

// printPids are the printf arguments of the program id: the locals print
// declares.
const printPids = "tri_px, tri_py, tri_pz"

// print writes an OpPrint, in a block that names the program id.
func (e *emitter) print(v *ir.Value) {
	e.helpers.add("tri_printf", printfHelper)
	e.use("tri_printf", "tri_program_id_x", "tri_program_id_y", "tri_program_id_z")
	e.w.open("{")
	defer e.w.close("}")
	e.w.line("const unsigned int tri_px = tri_program_id_x(), tri_py = tri_program_id_y(), tri_pz = tri_program_id_z();")
	if len(v.Args) == 0 {
		e.use("tri_thread_id")
		e.w.line("if (tri_thread_id() == 0) tri_printf(%s, %s);", cString(ir.PrintBareFormat(v.Msg.Text)), printPids)
		return
	}
	for n, a := range v.Args {
		format := cString(ir.PrintFormat(v.Msg.Text, a.Type, n, len(v.Args), v.Msg.Hex))
		if a.Type.IsScalar() {
			e.use("tri_thread_id")
			e.w.line("if (tri_thread_id() == 0) tri_printf(%s, %s, %s);", format, printPids, e.printArg(a.Type.DType, e.expr(a, ""), v.Msg.Hex))
			continue
		}
		l := e.layoutOf(a)
		fmtName := fmt.Sprintf("tri_format%d", n)
		e.w.line("const char* const %s = %s;", fmtName, format)
		e.loop(l.Elems, func(i string) string {
			args := []string{printPids}
			for ax := range a.Type.Shape {
				args = append(args, "(unsigned int)("+e.coord(l, ax, i)+")")
			}
			args = append(args, e.printArg(a.Type.DType, e.expr(a, i), v.Msg.Hex))
			call := fmt.Sprintf("tri_printf(%s, %s);", fmtName, strings.Join(args, ", "))
			if l.Repl {
				return fmt.Sprintf("if (%s) %s", l.owner(), call)
			}
			return call
		})
	}
}

// printArg is the printf argument of element x of dtype d: floats as
// double (their bits in their own width with hex), integers of 32 bits or
// fewer as int or unsigned int by their signedness, bools as unsigned.
func (s nameSet) printArg(d ir.DType, x string, hex bool) string {
	k := d.Kind
	switch {
	case k == ir.Ptr:
		return "(const void *)" + x
	case hex && k == ir.Float32:
		s.use("tri_bits_f32")
		return "tri_bits_f32(" + x + ")"
	case hex && k == ir.Float64:
		s.use("tri_bits_f64")
		return "tri_bits_f64(" + x + ")"
	case hex && isHalf(k):
		return "(unsigned int)" + x // kept as their bits
	case isHalf(k):
		return "(double)" + s.toFloat(k, x)
	case k == ir.Float32:
		return "(double)" + x
	case k.IsFloat():
		return x
	case k.Bits() == 64 && k.IsSigned():
		return "(long long)" + x
	case k.Bits() == 64:
		return "(unsigned long long)" + x
	case k.IsSigned():
		return "(int)" + x
	}
	return "(unsigned int)" + x
}

// assert writes an OpAssert: nothing without Debug.
func (e *emitter) assert(v *ir.Value) {
	if !e.k.Debug {
		return
	}
	e.source(v.Pos)
	e.helpers.add("tri_assert_fail", assertHelper)
	file := v.Pos.File
	if file == "" {
		file = e.k.File
	}
	e.use("tri_assert_fail")
	fail := fmt.Sprintf("tri_assert_fail(%s, %s, %d, %s);", cString(v.Msg.Text), cString(filepath.Base(file)), v.Pos.Line, cString(e.k.Name))
	cond := v.Args[0]
	if cond.Type.IsScalar() {
		e.w.line("if (!(%s)) %s", e.expr(cond, ""), fail)
		return
	}
	e.loop(e.layoutOf(cond).Elems, func(i string) string { return fmt.Sprintf("if (!(%s)) %s", e.expr(cond, i), fail) })
}
