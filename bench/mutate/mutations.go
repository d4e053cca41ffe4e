package main

// mutation is one small deliberate mistake in cudagen: each edit replaces
// Old by New in File (Nth occurrence, 1-based; 0: Old must occur once).
type mutation struct {
	Name  string
	What  string
	Edits []edit
	// Sanitize names a compute-sanitizer tool and a file whose launch the
	// GPU script runs under it with the mutant's tri, where the mistake
	// shows as a race or an access out of bounds before (or instead of) a
	// wrong value.
	Sanitize string
}

type edit struct {
	File     string
	Old, New string
	Nth      int
}

// mutations are the mistakes, each written as a person might make it. The
// first four are those a review found caught by golden files only or by
// nothing; the constructs reduce_butterfly, cast_half_rounding,
// reduce_xwarp_2d and tensor_desc_store_rows were written for them.
var mutations = []mutation{
	{
		Name: "reduce-last-butterfly",
		What: "a warp reduction stops one shuffle step early (the step of mask 16 in a 32-lane axis)",
		Edits: []edit{{File: "cudagen/reduce.go",
			Old: `e.w.open("for (int tri_m = %d; tri_m < %d; tri_m *= 2) {", div, div*lanes)`,
			New: `e.w.open("for (int tri_m = %d; tri_m < %d; tri_m *= 2) {", div, div*lanes/2)`}},
	},
	{
		Name: "f2h-toward-zero",
		What: "fp32 to fp16 rounds toward zero (cvt.rz) instead of to nearest even",
		Edits: []edit{{File: "cudagen/prelude.go",
			Old: `tri_half tri_f2h(float f) { tri_half r; asm("cvt.rn.f16.f32`,
			New: `tri_half tri_f2h(float f) { tri_half r; asm("cvt.rz.f16.f32`}},
	},
	{
		Name: "reduce-xwarp-stride",
		What: "the cross-warp slots of a reduction with a tile for a result are 2*warps apart (write and read alike): past the shared buffer",
		Edits: []edit{
			{File: "cudagen/reduce.go", Old: `slot := fmt.Sprintf("(%s) * %d + %s", lin, warps, w)`, New: `slot := fmt.Sprintf("(%s) * %d + %s", lin, 2*warps, w)`},
			{File: "cudagen/reduce.go", Old: `base := fmt.Sprintf("(%s) * %d", lin, warps)`, New: `base := fmt.Sprintf("(%s) * %d", lin, 2*warps)`},
		},
		Sanitize: "memcheck conformance/constructs/reduce_xwarp_2d.tri",
	},
	{
		Name: "descstore-run-bound",
		What: "a descriptor store written by rows takes a thread's run as inside the tensor when it ends one past the edge",
		Edits: []edit{{File: "cudagen/tma.go", Nth: 1,
			Old: `e.w.open("if (tri_in && tri_col >= 0 && tri_col + %d <= %s) {", w, shape1)`,
			New: `e.w.open("if (tri_in && tri_col >= 0 && tri_col + %d <= %s) {", w-1, shape1)`}},
	},
	{
		Name: "descload-full-block",
		What: "a descriptor load read by rows takes a block as wholly inside when it ends one column past the edge",
		Edits: []edit{{File: "cudagen/tma.go",
			Old: `r0, r0, v.Type.Shape[0], shape0, c0, c0, v.Type.Shape[1], shape1)`,
			New: `r0, r0, v.Type.Shape[0], shape0, c0, c0, v.Type.Shape[1]-1, shape1)`}},
	},
	{
		Name: "fulltile-off-by-one",
		What: "the full-tile fast path's test is one short: the tile whose last element is at the bound runs unmasked",
		Edits: []edit{{File: "cudagen/fastpath.go",
			Old: `k := af.k + af.hi`,
			New: `k := af.k + af.hi - 1`}},
	},
	{
		Name: "reduce-no-barrier",
		What: "no __syncthreads between the warps' writes of a cross-warp reduction's partials and their reads",
		Edits: []edit{{File: "cudagen/reduce.go",
			Old: "if warps > 1 {\n\t\te.w.line(\"__syncthreads();\")\n",
			New: "if warps > 1 {\n"}},
		Sanitize: "racecheck conformance/constructs/reduce_xwarp_2d.tri",
	},
	{
		Name: "wgmma-b-majorness",
		What: "wgmma reads a K-major B tile with the transpose bit of an MN-major one",
		Edits: []edit{{File: "cudagen/pipeline.go",
			Old: `name, imm, what = kind+"_kb", "1, 1, 0, 0"`,
			New: `name, imm, what = kind+"_kb", "1, 1, 0, 1"`}},
	},
	{
		Name: "tma-store-swizzle",
		What: "the threads write a TMA store's box with the 64-byte swizzle pattern while its tensor map says 128-byte",
		Edits: []edit{{File: "cudagen/tma.go",
			Old: `off := fmt.Sprintf("tri_swizzle((%s) * 128 + (%s) * %d, 7)", r, c, es)`,
			New: `off := fmt.Sprintf("tri_swizzle((%s) * 128 + (%s) * %d, 3)", r, c, es)`}},
	},
	{
		Name: "pipeline-write-stage",
		What: "a Hopper K-loop pipeline's first refill goes to stage stages-2, which still holds an iteration not yet read",
		Edits: []edit{{File: "cudagen/pipeline.go",
			Old: `tri_write = %d;  // the stages the wgmma reads and the copies fill", pl.stages-1)`,
			New: `tri_write = %d;  // the stages the wgmma reads and the copies fill", pl.stages-2)`}},
	},
	{
		Name: "store-mask-dropped",
		What: "a masked store written element by element drops its mask (the partial tile writes every lane)",
		Edits: []edit{{File: "cudagen/memory.go",
			Old: "\t\tif mask != nil {\n\t\t\tconds = append(conds, e.expr(mask, i))\n\t\t}\n",
			New: ""}},
	},
	{
		Name: "fp8-e4m3-half",
		What: "fp32 to fp8 e4m3 converts into the other byte of cvt's pair (operands swapped)",
		Edits: []edit{{File: "cudagen/fp8.go",
			Old: `asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f));`,
			New: `asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(f), "f"(0.0f));`}},
	},
	{
		Name: "scan-direction",
		What: "scans run the other way (reverse=True and False swapped)",
		Edits: []edit{{File: "cudagen/scan.go",
			Old: `reverse := v.Flags&ir.FlagReverse != 0`,
			New: `reverse := v.Flags&ir.FlagReverse == 0`}},
	},
	{
		Name: "f2bf-toward-zero",
		What: "fp32 to bf16 rounds toward zero (cvt.rz) instead of to nearest even",
		Edits: []edit{{File: "cudagen/prelude.go",
			Old: `tri_bf16 tri_f2bf(float f) { tri_bf16 r; asm("cvt.rn.bf16.f32`,
			New: `tri_bf16 tri_f2bf(float f) { tri_bf16 r; asm("cvt.rz.bf16.f32`}},
	},
}
