package cudagen

// This file holds the records the pipeline analysis makes and its
// printers read: pipeVerdict, what the analysis finds of each loop (its
// plan or why not); pipePlan, the one record of each pipelined loop; the
// records of its two cases (pipeline, the K loop of one dot; multiPipe, a
// loop of several dots, with wgDot, wgOperand and smemTile), their stages
// and shared memory (stagePlan), the tensor maps of their TMA copies
// (tensorMap), and the operands stored once before a loop for dots on
// wgmma outside the pipelines (hoistRegion). The passes that fill them in
// are pipeplan.go, pipescan.go, pipeone.go, multiplan.go, tensormap.go
// and wgdot.go; the methods that only read them stay with those passes.

import (
	"github.com/tri-lang/tri/ir"
)

// pipeline is a K loop that runs its dot on wgmma with its operands
// streamed through shared memory.
type pipeline struct {
	loop  *ir.For
	dot   *ir.Value
	loads [2]*ir.Value // a and b
	// stagePlan: its stages of a then b (multiples of 1024 bytes on
	// wgmma, of 128 on mma.sync), and one more buffer where a wgmma is
	// kept in flight.
	stagePlan
	m, n, k int
	elem    int  // bytes of one operand element: 2, or 1 for fp8
	bKMajor bool // b is stored K-major (fp8, or b.T): a column of b is a row of bytes
	bTrans  bool // b is tl.trans of a [N, K] load (b.T): its rows are the columns of b
	aRow    int  // bytes of one row of a in shared memory (k elements)
	bCols   int  // columns of b per swizzle block (MN-major b)
	aBytes  int  // bytes of a in one stage
	// tma holds, for a and b, the tensor map the TMA unit copies the load
	// with (nil: cp.async copies through the load's pointers).
	tma [2]*tensorMap
	// aRows, where not nil, is a map of a's descriptor whose one box lands
	// a block of whole rows in wgmma's order (wgmmaRowAxes); tma[0] copies
	// the block at the tensor's edge in 8-row boxes.
	aRows *tensorMap
	// direct marks, for a and b, a load through a tensor descriptor that
	// cp.async copies by rows from the descriptor's base, offsets, shape
	// and strides (a byte count per copy stops it at the tensor's edge),
	// without the load's pointer and mask tiles.
	direct [2]bool
	// mma marks a pipeline whose dot runs as mma.sync fed by ldmatrix
	// (targets without wgmma, mmapipe.go): a's rows lie in the stage in
	// their own order, and no wgmma is kept in flight.
	mma bool
}

// operandForm says where a wgmma operand comes from.
type operandForm int

// smemTile is how one wgmma operand lies in shared memory.
type smemTile struct {
	rows   int  // the extent that is not K: M of a, N of b
	k      int  // the K extent
	elem   int  // bytes of an element
	kMajor bool // each row of a or column of b is contiguous along K
	perm   bool // the rows of a are stored in permRow's order
	off    int  // byte offset in its stage or region, a multiple of 1024
}

// wgOperand is one operand of a dot of a multi-dot pipeline.
type wgOperand struct {
	form  operandForm
	src   *ir.Value // the load (streamed) or the value (invariant, in registers)
	trans bool      // b is tl.trans of src, an [N, K] load
	// cvt is the fp32 operand of an a in registers that is its rounding
	// to fp16 or bf16 (p.to(tl.float16)): the A fragments are converted
	// from it two at a time (cvt.rn.f16x2.f32).
	cvt  *ir.Value
	tile smemTile // streamed and invariant operands
	// direct marks a streamed load through a tensor descriptor copied by
	// rows from the descriptor (directStageCopies), without its pointer
	// and mask tiles; tma, one the TMA unit copies with this map
	// (tmaOperand), in boxes of the tile's swizzle rows. For an invariant
	// a that the TMA unit copies (findTMAInvariants), tma is the map of
	// 8-row boxes and rows, where not nil, the 5-D view whose one box per
	// chunk lands the rows in permRow's order (wgmmaRowAxes).
	direct bool
	tma    *tensorMap
	rows   *tensorMap
	// shares is the streamed operand whose copy this b reads: the same
	// load, lying in shared memory as this b's tile would (sameStorage).
	shares *wgOperand
	// base, where set, is the C name of the shared address the operand's
	// tile is at: a loop's region of operands stored before it (wgdot.go).
	base string
	// storedBy, for an invariant a, is the pipelined loop before this one
	// that left the same value at the same shared address
	// (findKeptInvariants): this loop stores nothing.
	storedBy *ir.For
}

// wgDot is one dot of a multi-dot pipeline.
type wgDot struct {
	dot     *ir.Value
	m, n, k int
	a, b    wgOperand
	zeroAcc bool // the accumulator is zero: the first wgmma ignores it
	// assign is the Var an in-flight dot's result is assigned to.
	assign *ir.Var
	// alone marks a dot outside the pipelines (wgdot.go).
	alone bool
}

// multiPipe is a loop pipelined with several dots (see above).
type multiPipe struct {
	dots     []*wgDot
	streamed []*wgOperand // in body order, each with its offset in a stage
	aIsA     map[*wgOperand]bool
	compute  map[ir.Stmt]bool // the statements run in their own iteration
	// stagePlan: its invariant operands, then its stages (as many
	// buffers as stages), each a multiple of 1024 bytes.
	stagePlan
	// inFlight, if set, is the last dot, left running into the next
	// iteration (see deferLast).
	inFlight *wgDot
}

const (
	streamed    operandForm = iota // loaded in the body and copied ahead into the stages
	invariant                      // defined before the loop and stored into shared memory once
	inRegisters                    // computed in the body (a only), read from the registers of layout wgmmaBlocked
	staged                         // a dot outside the pipelines: stored from registers where the dot stands (wgdot.go)
	hoisted                        // the same, defined before the dot's loop: stored once before it (wgdot.go)
)

// pipeVerdict is what the pipeline analysis (pipelineOf) finds of one
// loop: its plan, in one of its two cases, or why it is not pipelined.
type pipeVerdict struct {
	one   *pipeline  // the K loop of one dot (pipeone.go), or nil
	multi *multiPipe // a loop of several dots (multiplan.go), or nil
	// why is the reason the loop is not pipelined: its stages, step or
	// body, or the first check of the case of several dots it fails; ""
	// where it is pipelined or has no dot to pipeline.
	why string
	// kinds, on mma.sync, is why the K loop of one dot is not pipelined
	// there: its operands' kinds (mmaKindsWhy).
	kinds string
}

// pipePlan is the record of one software-pipelined loop, whatever the
// form that planned it: its instruction, its stages and their shared
// memory, the operands of its dots and how each reaches them, and the dot
// left in flight. The form's own record (one or multi) holds what only
// its printer needs: the layouts of the operands in a stage, the ahead
// and compute statements, the tensor maps.
type pipePlan struct {
	loop     *ir.For
	engine   string // the instruction the dots run on: "wgmma" or "mma.sync"
	dots     []*ir.Value
	operands []pipeOperand // the streamed ones first, in body order, each value once
	*stagePlan
	inFlight *ir.Value  // the dot whose wgmma runs on into the next iteration, or nil
	one      *pipeline  // the K loop of one dot (pipeone.go), or nil
	multi    *multiPipe // a loop of several dots (multiplan.go), or nil
}

// pipeOperand is one operand of a pipelined loop's dots.
type pipeOperand struct {
	src  *ir.Value // the load (streamed) or the value
	form operandForm
	copy copyKind // how a streamed operand is copied into its stage
	// kept marks an invariant the pipelined loop before left in place
	// (wgOperand.storedBy).
	kept bool
}

// copyKind is how a streamed load is copied into its stage.
type copyKind int

const (
	cpAsyncCopy copyKind = iota // cp.async, through the load's pointers and mask
	tmaCopy                     // the TMA unit, through a tensor map
	rowsCopy                    // cp.async by rows from the load's tensor descriptor
)

// stagePlan is what a pipelined loop of either form decides of its stages
// and their shared memory: the statements that run ahead of the dots, the
// stages, and the allocation, from the scratch memory's 1024-byte aligned
// start (after what the rest of the loop body needs, for a loop of
// several dots): the operands stored once before the loop (invSize
// bytes), then buffers stages of stageSize bytes each.
type stagePlan struct {
	ahead map[ir.Stmt]bool
	// stages is num_stages as the loop runs it: the copies run stages-1
	// iterations ahead of the dots; asked, where not 0, the num_stages
	// asked for, more than the shared memory holds.
	stages, asked int
	// spill marks stages cut below asked in a spill-bound kernel
	// (isSpillBound), where shared memory is left to L1.
	spill bool
	// buffers is the number of stages in shared memory: stages, or one
	// more where a wgmma runs on while the next iteration's copies are
	// issued (pipeone.go).
	buffers   int
	stageSize int
	invSize   int
}

// tensorMap is a tensor map (CUtensorMap) the TMA unit copies blocks of a
// tensor descriptor with, in boxes of BoxRows rows of BoxInner elements,
// rows swizzled as wgmma reads them. The map of a descriptor made on the
// host is a kernel parameter, which the launch encodes from the
// descriptor's parameters (Of names them: Of_base, Of_shape0, ...). The
// map of a descriptor made in the kernel (dev) is built by the kernel in
// slot of its program's part of the global scratch memory (tmapdev.go).
type tensorMap struct {
	Of       string // the descriptor's name: its parameters are Of_base, Of_shape0, ...
	BoxInner int
	BoxRows  int
	Swizzle  int // bytes of a swizzled row: 32, 64 or 128
	// rows, where not empty, makes the map a 5-D view of the descriptor's
	// rows (wgmmaRowAxes): a box is 8 consecutive rows, repeated along
	// each of these axes, innermost first; BoxRows counts them all.
	rows []rowAxis
	elem int
	dev  *ir.DescAccess // the descriptor made in the kernel; nil for one from the host
	slot int
}

// rowAxis is an axis of a tensor map's view of a descriptor's rows:
// Count blocks of rows, Stride rows apart.
type rowAxis struct{ Count, Stride int }

// hoistRegion is the shared memory of a loop's dots' operands that are
// defined before it: each is stored once, before the loop, into its own
// tile of the region, which lies after the scratch memory the loop's body
// uses and is kept until the loop ends.
type hoistRegion struct {
	name  string       // the C name of its shared address
	tiles []*wgOperand // in order of their offsets
	bytes int
}

// bytes is the tile's size, rounded up to 1024 bytes so that the next
// tile starts on a swizzle atom.
func (t smemTile) bytes() int { return (t.rows*t.k*t.elem + 1023) / 1024 * 1024 }

// tmaOperands is how many streamed operands of mp the TMA unit copies.
func (mp *multiPipe) tmaOperands() int {
	n := 0
	for _, o := range mp.streamed {
		if o.tma != nil {
			n++
		}
	}
	return n
}

// anyTMA reports whether a load of the pipeline is copied by the TMA unit.
func (pl *pipeline) anyTMA() bool { return pl.tma[0] != nil || pl.tma[1] != nil }
