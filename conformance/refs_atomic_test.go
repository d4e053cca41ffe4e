package conformance

// This file implements the references of the atomics and of
// debug_barrier. Many programs hit the same addresses; the checked values
// do not depend on the order the programs run in.

import "math"

func refAtomicAddHist(in tensors, num map[string]float64) tensors {
	x, w := in["x"], in["w"]
	n := int(num["n"])
	counts, weights, total := in["counts"], in["weights"], in["total"]
	nbins := counts.NumElements()
	for i := range n {
		b := int(x.Int(i)) % nbins
		counts.SetInt(b, counts.Int(b)+1)
		weights.SetFloat(b, weights.Float(b)+w.Float(i))
	}
	total.SetInt(0, int64((n+127)/128))
	total.SetInt(1, int64(n))
	return tensors{"counts": counts, "weights": weights, "total": total}
}

func refAtomicMinMax(in tensors, num map[string]float64) tensors {
	a, x := in["a"], in["x"]
	m, n := int(num["M"]), int(num["N"])
	imax, imin, fmax, fmin := in["imax"], in["imin"], in["fmax"], in["fmin"]
	for i := range m {
		for j := range n {
			k := i*n + j
			imax.SetInt(j, max(imax.Int(j), a.Int(k)))
			imin.SetInt(j, min(imin.Int(j), a.Int(k)))
			fmax.SetFloat(j, math.Max(fmax.Float(j), x.Float(k)))
			fmin.SetFloat(j, math.Min(fmin.Float(j), x.Float(k)))
		}
	}
	return tensors{"imax": imax, "imin": imin, "fmax": fmax, "fmin": fmin}
}

func refAtomicBitwise(in tensors, num map[string]float64) tensors {
	x := in["x"]
	p := int(num["P"])
	const block = 4
	ors, ands, xors := in["ors"], in["ands"], in["xors"]
	for pid := range p {
		bit := int64(int32(uint32(1) << pid))
		for l := range block {
			if l != pid%block {
				ors.SetInt(l, ors.Int(l)|bit)
			}
			ands.SetInt(l, ands.Int(l)&^bit)
			xors.SetInt(l, xors.Int(l)^x.Int(pid*block+l))
		}
	}
	return tensors{"ors": ors, "ands": ands, "xors": xors}
}

func refAtomicXchg(in tensors, num map[string]float64) tensors {
	mem, nw, old := in["mem"], in["new"], in["old"]
	slots, olds := in["slots"], in["olds"]
	n := int(num["n"])
	for i := range n {
		old.SetInt(i, mem.Int(i))
		mem.SetInt(i, nw.Int(i))
	}
	for pid := range (n + 63) / 64 {
		olds.SetInt(pid, slots.Int(pid))
		slots.SetInt(pid, int64(pid*1000))
	}
	return tensors{"mem": mem, "old": old, "slots": slots, "olds": olds}
}

func refAtomicCASLock(in tensors, num map[string]float64) tensors {
	x, acc, locks, counts := in["x"], in["acc"], in["locks"], in["counts"]
	m, n := int(num["M"]), int(num["N"])
	g := locks.NumElements()
	for row := range m {
		grp := row % g
		for j := range n {
			v := x.Int(row*n + j)
			if counts.Int(grp) != 0 {
				v += acc.Int(grp*n + j)
			}
			acc.SetInt(grp*n+j, v)
		}
		counts.SetInt(grp, 1)
	}
	return tensors{"acc": acc, "locks": locks, "counts": counts}
}

func refDebugBarrier(in tensors, _ map[string]float64) tensors {
	x := in["x"]
	block := x.Shape[1]
	return tensors{"out": eachFloat(in["out"], func(k int) float64 {
		return r32(x.Float(k/block*block+block-1-k%block) * 2)
	})}
}
