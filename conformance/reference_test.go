package conformance

import "github.com/tri-lang/tri/tensor"

// Reference computes the expected outputs of a construct's launch from its
// inputs: in holds every tensor binding as it was before the launch (copies;
// modify freely), num the numeric --let bindings.
type Reference func(in map[string]*tensor.Tensor, num map[string]float64) map[string]*tensor.Tensor

// references holds the reference of every file in constructs/ (keyed by the
// file's base name) and of every sample (keyed "sample/NAME"). Each returns
// at least the outputs its file names in "# check:".
var references = map[string]Reference{
	// Printing and assertions (refs_debug_test.go).
	"device_print":  refDevicePrint,
	"device_assert": refDeviceAssert,
	// Grid, arange, memory.
	"program_id_3d":     refProgramID3D,
	"arange":            refArange,
	"load_store_mask":   refLoadStoreMask,
	"load_store_scalar": refLoadStoreScalar,
	"ptr_reassign":      refPtrReassign,
	"loop_peel_mixed":   refLoopPeelMixed,
	"loop_peel_step":    refLoopPeelStep,
	"loop_peel_unroll":  refLoopPeelUnroll,

	// Operators.
	"binop_float":             refBinopFloat,
	"binop_int32_div":         refDivMod,
	"binop_int64_div":         refDivMod,
	"binop_uint32_div":        refDivMod,
	"binop_int8_div":          refDivMod,
	"binop_int_arith":         refIntArith,
	"binop_compare":           refCompare,
	"binop_bitwise":           refBitwise,
	"binop_shift":             refShift,
	"unary":                   refUnary,
	"where":                   refWhere,
	"div_guarded":             refDivGuarded,
	"reduce_replicated_warps": refColReduce,
	"zeros_full":              refZerosFull,

	// Casts.
	"cast_float_to_int": refCastFloatToInt,
	"cast_int_to_float": refCastIntToFloat,
	"cast_fp32_to_half": refCastFP32ToHalf,
	"cast_int_wrap":     refCastIntWrap,
	"cast_bool":         refCastBool,
	"cast_uint8_float":  refCastUint8Float,

	// Math functions and min/max.
	"math_exp_log":    refExpLog,
	"math_exp2_ftz":   refExp2FTZ,
	"math_sqrt":       refSqrt,
	"math_trig":       refTrig,
	"math_erf":        refErf,
	"math_sigmoid":    refSigmoid,
	"math_abs":        refAbs,
	"math_fma":        refFMA,
	"minmax_nan":      refMinMaxNaN,
	"minmax_int":      refMinMaxInt,
	"clamp":           refClamp,
	"builtin_min_max": refBuiltinMinMax,
	"cdiv":            refCdiv,
	"hints":           refHints,
	"hints_statement": refHintsStatement,

	// Control flow and calls.
	"loop_range":         refLoopRange,
	"loop_tl_range":      refLoopTlRange,
	"loop_carried_block": refLoopCarriedBlock,
	"loop_static_range":  refLoopStaticRange,
	"while_loop":         refWhileLoop,
	"if_runtime":         refIfRuntime,
	"if_program_id":      refIfProgramID,
	"if_constexpr":       refIfConstexpr,
	"early_return":       refEarlyReturn,
	"pass_stmt":          refPassStmt,
	"jit_call":           refJitCall,
	"constexpr_global":   refConstexprGlobal,

	// Promotion and literal typing.
	"promote_int8_int32":   refPromoteInt8Int32,
	"promote_fp16_fp32":    refPromoteFP16FP32,
	"promote_int32_fp16":   refPromoteInt32FP16,
	"promote_uint32_int32": refPromoteUint32Int32,
	"promote_scalar":       refPromoteScalar,
	"promote_int_truediv":  refPromoteIntTruediv,
	"literal_int64":        refLiteralInt64,
	"fp16_arith":           refHalfArith(r16),
	"bf16_arith":           refHalfArith(rbf),

	// Two- and three-dimensional tiles.
	"tile_index_none":   refIndexNone,
	"tile_expand_dims":  refExpandDims,
	"tile_broadcast_to": refBroadcastTo,
	"tile_reshape":      refReshape,
	"tile_trans":        refTrans,
	"tile_permute_3d":   refPermute3D,
	"tile_join_split":   refJoinSplit,
	"tile_shape_index":  refShapeIndex,
	"tile_mask_2d":      refMask2D,
	"tile_grid_3d":      refGrid3D,

	// Reductions.
	"reduce_sum_axes": refSumAxes,
	"reduce_sum_fp32": refSumFP32,
	"reduce_fp16":     refReduceFP16,
	"reduce_int":      refReduceInt,
	"reduce_or":       refReduceOr, // tl.reduce_or
	"reduce_nan":      refReduceNaN,
	"reduce_argmax":   refArgmax,
	"reduce_custom":   refReduceCustom,
	"reduce_tuple":    refReduceTuple,

	// Scans.
	"scan_cumsum":      refCumsum,
	"scan_cumsum_fp32": refCumsumFP32,
	"scan_custom":      refScanCustom,

	// Atomics and barriers.
	"atomic_add_hist": refAtomicAddHist,
	"atomic_minmax":   refAtomicMinMax,
	"atomic_bitwise":  refAtomicBitwise,
	"atomic_xchg":     refAtomicXchg,
	"atomic_cas_lock": refAtomicCASLock,
	"debug_barrier":   refDebugBarrier,

	// Tile operations (refs_tileops_test.go).
	"sort_1d":                refSort1D,
	"sort_2d":                refSort2D,
	"topk":                   refTopk,
	"flip":                   refFlip,
	"histogram":              refHistogram,
	"gather_1d":              refGather1D,
	"gather_2d":              refGather2D,
	"cat":                    refCat,
	"interleave":             refInterleave,
	"softmax_tl":             refSoftmaxTL,
	"zeros_like":             refZerosLike,
	"logical_and_or":         refLogical,
	"clamp_nan":              refClampNaN,
	"map_elementwise":        refMapElementwise,
	"map_elementwise_branch": refMapBranch,
	"map_elementwise_return": refMapReturn,
	"map_elementwise_selu":   refMapSelu,
	"bitonic_merge":          refBitonicMerge,

	// tl.map_elementwise with pack > 1 (refs_tileops_test.go).
	"map_elementwise_pack2":       refMapPack2,
	"map_elementwise_pack4":       refMapPack4,
	"map_elementwise_pack_shared": refMapPackShared,

	// Samples.
	"sample/add":        refSampleAdd,
	"sample/copy":       refSampleCopy,
	"sample/fused_fp16": refSampleFusedFP16,
	"sample/helpers":    refSampleHelpers,
	"sample/row_chunks": refSampleRowChunks,

	// Constructs of real projects (refs_introspect_test.go).
	"cast_method_same_type": refCastMethodSameType,
}
