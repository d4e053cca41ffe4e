package cudagen

// This file implements the printing of the tensor maps a kernel builds
// for its descriptors (placed by tmapdev.go): each built by thread 0 of a
// program in its part of the global scratch memory, before the statement
// the plan placed it at.

import (
	"fmt"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// buildMaps writes the builds of the tensor maps placed before statement
// s.
func (e *emitter) buildMaps(s ir.Stmt) {
	for _, tm := range e.builds[s] {
		d := tm.dev
		e.tmaHelpers()
		e.helpers.add("tmapbuild", tmapBuildHelper)
		swz := "unswizzled"
		if tm.Swizzle > 0 {
			swz = fmt.Sprintf("%d-byte swizzle", tm.Swizzle)
		}
		if len(tm.rows) > 0 {
			e.helpers.add("tmapbuildrows", tmapBuildRowsHelper)
			e.w.line("// The TMA unit's map of %s, in boxes of %d x %d elements, %s, rows in wgmma's order (a 5-D view):",
				descName(d), tm.BoxRows, tm.BoxInner, swz)
			e.w.line("// thread 0 builds it in this program's scratch.")
			var axes []string
			for _, a := range tm.rows {
				axes = append(axes, fmt.Sprintf("%d, %d", a.Count, a.Stride))
			}
			e.use("tri_thread_id", "tri_tmap_build_rows")
			e.w.line("if (tri_thread_id() == 0) tri_tmap_build_rows<%d, %d, %d, %s>(%s, %s, %s, %s, (%s) * %d);",
				tm.BoxInner, tmapElemType(tm.elem), tmapSwizzleMode(tm.Swizzle), strings.Join(axes, ", "), e.tmapNames[tm],
				e.expr(d.Base, ""), e.expr(d.Shape[1], ""), e.expr(d.Shape[0], ""), e.expr(d.Strides[0], ""), tm.elem)
			continue
		}
		e.w.line("// The TMA unit's map of %s, in boxes of %d x %d elements, %s: thread 0 builds it in this program's scratch.",
			descName(d), tm.BoxRows, tm.BoxInner, swz)
		e.use("tri_thread_id", "tri_tmap_build_2d")
		e.w.line("if (tri_thread_id() == 0) tri_tmap_build_2d<%d, %d, %d, %d>(%s, %s, %s, %s, (%s) * %d);",
			tm.BoxInner, tm.BoxRows, tmapElemType(tm.elem), tmapSwizzleMode(tm.Swizzle), e.tmapNames[tm],
			e.expr(d.Base, ""), e.expr(d.Shape[1], ""), e.expr(d.Shape[0], ""), e.expr(d.Strides[0], ""), tm.elem)
	}
}

// declareDeviceMaps writes, at the top of the kernel, the pointers to the
// maps the kernel builds: this program's slots of tri_scratch.
func (e *emitter) declareDeviceMaps() {
	if len(e.devMaps) == 0 {
		return
	}
	e.w.line("// This program's part of the global scratch memory: the tensor maps of the descriptors made in the kernel.")
	e.use("tri_tmap", "tri_program_id_x", "tri_program_id_y", "tri_program_id_z", "tri_num_programs_x", "tri_num_programs_y")
	e.w.line("const long long tri_program = ((long long)tri_program_id_z() * tri_num_programs_y() + tri_program_id_y()) * tri_num_programs_x() + tri_program_id_x();")
	e.w.line("tri_tmap* const tri_maps = reinterpret_cast<tri_tmap*>(tri_scratch) + tri_program * %d;", len(e.devMaps))
	for _, tm := range e.devMaps {
		e.w.line("tri_tmap* const %s = tri_maps + %d;", e.tmapNames[tm], tm.slot)
	}
}

// tmapElemType is the tensor map element type of es-byte elements
// (tensormap.replace's elemtype: .u8, .u16, .u32, .u64); the copies move
// bits, and out-of-bounds elements read as zero whatever the type.
func tmapElemType(es int) int {
	return map[int]int{1: 0, 2: 1, 4: 2, 8: 4}[es]
}

// tmapSwizzleMode is tensormap.replace's swizzle_mode for rows of swizzle
// bytes (0: none).
func tmapSwizzleMode(swizzle int) int {
	return map[int]int{0: 0, 32: 1, 64: 2, 128: 3}[swizzle]
}

// tmapBuildHelper builds a 2-D tiled tensor map in global memory (PTX ISA
// 8.3, sm_90a).
var tmapBuildHelper = cgroup{`// Zeroes the tensor map at m (global memory), after this thread's bulk stores, which may still read it.`, []cdef{
	{"tri_tmap_clear", []string{"tri_tmap"}, `TRI_DEV void tri_tmap_clear(tri_tmap* m) {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#pragma unroll
  for (int i = 0; i < 16; ++i) m->opaque[i] = 0ull;
}
template <int BOX0, int BOX1, int TYPE, int SWIZZLE>`},
	{"tri_tmap_build_2d", []string{"tri_tmap", "tri_tmap_clear"}, `// Builds a 2-D tiled tensor map at m (global memory): the tensor at base of dim1 rows of dim0 elements,
// rows stride1 bytes apart, copied in boxes of BOX1 x BOX0; then makes it visible to this thread's TMA copies.
// It first waits for this thread's bulk stores, which may still read the map it replaces.
TRI_DEV void tri_tmap_build_2d(tri_tmap* m, const void* base, long long dim0, long long dim1, long long stride1) {
  tri_tmap_clear(m);
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\n\t"
               "tensormap.replace.tile.rank.global.b1024.b32 [%0], 1;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 0, %2;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, %3;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, %4;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %5;\n\t"
               "tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %6;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 0, %7;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 1, %7;\n\t"
               "tensormap.replace.tile.elemtype.global.b1024.b32 [%0], %8;\n\t"
               "tensormap.replace.tile.interleave_layout.global.b1024.b32 [%0], 0;\n\t"
               "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], %9;\n\t"
               "tensormap.replace.tile.fill_mode.global.b1024.b32 [%0], 0;\n\t"
               "fence.proxy.tensormap::generic.release.gpu;\n\t"
               "fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               :: "l"(m), "l"(base), "r"(BOX0), "r"(BOX1), "r"((unsigned int)dim0), "r"((unsigned int)dim1),
                  "l"(stride1), "r"(1), "n"(TYPE), "n"(SWIZZLE) : "memory");
}`},
}}

// tmapBuildRowsHelper builds the 5-D tiled tensor map of a view of a 2-D
// tensor's rows (wgmmaRowAxes) in global memory (PTX ISA 8.3, sm_90a).
var tmapBuildRowsHelper = cgroup{`// Builds at m (global memory) a 5-D tiled tensor map viewing the rows of the tensor at base (dim1 rows of
// dim0 elements, rows stride1 bytes apart): axis 1 is the rows, copied 8 at a time, and axes 2 to 4 are
// C2, C3 and C4 blocks of rows, S2, S3 and S4 rows apart, copied whole. A box of BOX0 x 8 x C2 x C3 x C4
// elements lands its rows in shared memory in that order. Then makes it visible to this thread's TMA copies,
// after waiting for this thread's bulk stores, which may still read the map it replaces.
template <int BOX0, int TYPE, int SWIZZLE, int C2, int S2, int C3, int S3, int C4, int S4>`, []cdef{
	{"tri_tmap_build_rows", []string{"tri_tmap", "tri_tmap_clear"}, `TRI_DEV void tri_tmap_build_rows(tri_tmap* m, const void* base, long long dim0, long long dim1, long long stride1) {
  tri_tmap_clear(m);
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;\n\t"
               "tensormap.replace.tile.rank.global.b1024.b32 [%0], 4;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 0, %2;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, %14;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 2, %3;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 3, %4;\n\t"
               "tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 4, %5;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, %6;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %7;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 2, %3;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 3, %4;\n\t"
               "tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 4, %5;\n\t"
               "tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %8;\n\t"
               "tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 1, %9;\n\t"
               "tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 2, %10;\n\t"
               "tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 3, %11;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 0, %15;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 1, %15;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 2, %15;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 3, %15;\n\t"
               "tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 4, %15;\n\t"
               "tensormap.replace.tile.elemtype.global.b1024.b32 [%0], %12;\n\t"
               "tensormap.replace.tile.interleave_layout.global.b1024.b32 [%0], 0;\n\t"
               "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], %13;\n\t"
               "tensormap.replace.tile.fill_mode.global.b1024.b32 [%0], 0;\n\t"
               "fence.proxy.tensormap::generic.release.gpu;\n\t"
               "fence.proxy.tensormap::generic.acquire.gpu [%0], 128;"
               :: "l"(m), "l"(base), "r"(BOX0), "r"(C2), "r"(C3), "r"(C4), "r"((unsigned int)dim0), "r"((unsigned int)dim1),
                  "l"(stride1), "l"(stride1 * S2), "l"(stride1 * S3), "l"(stride1 * S4), "n"(TYPE), "n"(SWIZZLE), "r"(8), "r"(1) : "memory");
}`},
}}
