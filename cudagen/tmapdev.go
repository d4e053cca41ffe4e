package cudagen

// This file implements the tensor maps of descriptors made in the kernel
// (tl.make_tensor_descriptor) on sm_90a, so that the TMA unit copies their
// blocks as it does those of descriptors made on the host.
//
// Such a descriptor's base, shape and strides are known only in the
// kernel, so the kernel builds its CUtensorMap itself, as Triton does: in
// its program's part of a global scratch buffer that the launch passes
// (tri_scratch, 128 bytes a map), thread 0 zeroes the map, writes each
// field with tensormap.replace, and fences the tensormap proxy before the
// TMA unit reads it. Thread 0 issues every TMA copy and store of the
// kernel, so no barrier is needed. A map is built before the outermost
// statement around its loop or store that holds none of the values it is
// made of: once per descriptor, not once per tile.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// tmaDesc reports whether the TMA unit may copy blocks through descriptor
// d, of rank 2: one made on the host, or one made in the kernel whose last
// stride is the constant 1.
func tmaDesc(d *ir.DescAccess) bool {
	if d == nil || len(d.Offsets) != 2 {
		return false
	}
	if d.Host() {
		return true
	}
	if len(d.Shape) != 2 || len(d.Strides) != 2 {
		return false
	}
	s := d.Strides[1]
	return s.Op == ir.OpConst && s.Const.Int == 1
}

// descMade are the values a descriptor made in the kernel is made of: its
// base, shape and strides.
func descMade(d *ir.DescAccess) []*ir.Value {
	out := append([]*ir.Value{d.Base}, d.Shape...)
	return append(out, d.Strides...)
}

// sameDesc reports whether tm is a map of descriptor d.
func sameDesc(tm *tensorMap, d *ir.DescAccess) bool {
	if d.Host() {
		return tm.dev == nil && tm.Of == d.Base.Param.Of
	}
	return tm.dev != nil && slices.Equal(descMade(tm.dev), descMade(d))
}

// placeTensorMaps drops the tensor maps of pipelines that are not
// written (their loop does not run on wgmma after all), and chooses where
// the kernel builds the maps of descriptors made in it, for the pipelined
// loops and stores that use them.
func (p *plan) placeTensorMaps() {
	p.builds = map[ir.Stmt][]*tensorMap{}
	live := func(u ir.Stmt) bool {
		f, ok := u.(*ir.For)
		return !ok || p.loops[f] != nil && p.usesWgmma(p.loops[f].dot) || p.mloops[f] != nil
	}
	p.tmaps = slices.DeleteFunc(p.tmaps, func(tm *tensorMap) bool { return !slices.ContainsFunc(p.mapUsers[tm], live) })
	var kept []*tensorMap
	for _, tm := range p.devMaps {
		used := false
		for _, u := range p.mapUsers[tm] {
			if !live(u) {
				continue
			}
			used = true
			at := p.buildSite(u, descMade(tm.dev))
			if !slices.Contains(p.builds[at], tm) {
				p.builds[at] = append(p.builds[at], tm)
			}
		}
		if used {
			tm.slot = len(kept)
			kept = append(kept, tm)
		}
	}
	p.devMaps = kept
}

// buildSite is the statement before which a map made of made is built
// for statement u: the outermost statement enclosing u that holds none of
// made's values (u itself where its block's does).
func (p *plan) buildSite(u ir.Stmt, made []*ir.Value) ir.Stmt {
	at := u
	for {
		var b *ir.Block
		if v, ok := at.(*ir.Value); ok {
			b = p.defs[v.ID].Block
		} else {
			b = p.ctlSite[at].Block
		}
		own := p.owner[b]
		if own == nil || slices.ContainsFunc(made, func(v *ir.Value) bool { return p.within(v, own) }) {
			return at
		}
		at = own
	}
}

// within reports whether v is computed inside statement s.
func (p *plan) within(v *ir.Value, s ir.Stmt) bool {
	for b := p.defs[v.ID].Block; b != nil; b = p.parent[b] {
		if p.owner[b] == s {
			return true
		}
	}
	return false
}

// descName is the source name of descriptor d made in the kernel, which
// sema gives the values of its shape (a_desc_shape0), for the names of its
// maps.
func descName(d *ir.DescAccess) string {
	if name, ok := strings.CutSuffix(d.Shape[0].Name, "_shape0"); ok && name != "" {
		return name
	}
	return "desc"
}

// scratchBytes is the global scratch memory each program needs: one map
// per tensor map the kernel builds.
func (p *plan) scratchBytes() int { return 128 * len(p.devMaps) }

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
