package cudagen

// This file plans the tensor maps of descriptors made in the kernel
// (tl.make_tensor_descriptor) on sm_90a, so that the TMA unit copies their
// blocks as it does those of descriptors made on the host; tmapbuild.go
// prints their builds.
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
	"slices"

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

// scratchBytes is the global scratch memory each program needs: one map
// per tensor map the kernel builds.
func (p *plan) scratchBytes() int { return 128 * len(p.devMaps) }
