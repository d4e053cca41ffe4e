package sema

// This file gives a number a kernel assigns to a name (value = 1) the
// dtype Triton's code generator gives it: its visit_Assign turns a Python
// number into a scalar tensor (semantic.to_tensor), so value.dtype is
// tl.int32 (test_store_constant). tri keeps such a number a compile-time
// value, which computes the same; only .dtype tells them apart.

import (
	"math"
	"math/big"

	"github.com/tri-lang/tri/ir"
)

// assignedNumber is a copy of the number v marked as assigned.
func assignedNumber(v *val) *val {
	nv := *v
	nv.assigned = true
	return &nv
}

var (
	minInt32  = big.NewInt(math.MinInt32)
	maxInt32  = big.NewInt(math.MaxInt32)
	minInt64  = big.NewInt(math.MinInt64)
	maxInt64  = big.NewInt(math.MaxInt64)
	maxUint64 = new(big.Int).SetUint64(math.MaxUint64)
)

// toTensorDType is the dtype semantic.to_tensor gives a Python number: a
// bool is int1; an int is int32, int64 or uint64, the first that holds it;
// a float is fp32 where fp32's range holds it (inf and nan too), else fp64.
func toTensorDType(v *val) ir.DType {
	switch v.k {
	case kBool:
		return ir.TBool
	case kInt:
		switch {
		case v.i.Cmp(minInt32) >= 0 && v.i.Cmp(maxInt32) <= 0:
			return ir.TInt32
		case v.i.Cmp(minInt64) >= 0 && v.i.Cmp(maxInt64) <= 0:
			return ir.TInt64
		case v.i.Sign() > 0 && v.i.Cmp(maxUint64) <= 0:
			return ir.Scalar(ir.Uint64)
		}
		return ir.TInt64
	}
	if math.IsInf(v.f, 0) || math.IsNaN(v.f) || math.Abs(v.f) <= math.MaxFloat32 {
		return ir.TFloat32
	}
	return ir.Scalar(ir.Float64)
}
