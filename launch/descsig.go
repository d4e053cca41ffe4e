package launch

// This file reads the --signature entry of a host tensor descriptor.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

// parseDescEntry reads what follows "tensordesc<" in a signature entry:
// an element type and a block shape, fp16[64, 64]>, then optionally :nan
// for NaN padding and :shape(16,_), the dimensions of the shape that are
// multiples of 16 (as the specialization line of tri build prints them).
func parseDescEntry(rest string) (sema.Arg, error) {
	inner, hint, _ := strings.Cut(rest, ">")
	elem, dims, ok := strings.Cut(inner, "[")
	if !ok || !strings.HasSuffix(dims, "]") {
		return sema.Arg{}, fmt.Errorf("want tensordesc<TYPE[B0, B1, ...]>, got tensordesc<%s>", inner)
	}
	d, ok := ir.ParseDType(strings.TrimSpace(elem))
	if !ok || d.IsPtr() {
		return sema.Arg{}, fmt.Errorf("unknown element type %q of a tensor descriptor", elem)
	}
	arg := sema.Arg{Kind: sema.ArgDesc, DType: ir.PtrTo(d.Kind), Padding: "zero"}
	var block []int64
	for _, f := range strings.Split(strings.TrimSuffix(dims, "]"), ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return sema.Arg{}, fmt.Errorf("the block shape of a tensor descriptor needs integers, got %q", f)
		}
		arg.Block = append(arg.Block, n)
		block = append(block, int64(n))
	}
	if err := hosteval.CheckBlockShape(block); err != nil {
		return sema.Arg{}, err
	}
	for _, h := range strings.Split(strings.TrimSpace(hint), ":")[1:] {
		dims, isShape := strings.CutPrefix(h, "shape(")
		switch {
		case h == "nan":
			arg.Padding = "nan"
		case isShape && strings.HasSuffix(dims, ")"):
			for _, f := range strings.Split(strings.TrimSuffix(dims, ")"), ",") {
				arg.ShapeDiv16 = append(arg.ShapeDiv16, strings.TrimSpace(f) == "16")
			}
			if len(arg.ShapeDiv16) != len(arg.Block) {
				return sema.Arg{}, fmt.Errorf(":shape(...) names %d dimensions of a descriptor of rank %d", len(arg.ShapeDiv16), len(arg.Block))
			}
		default:
			return sema.Arg{}, fmt.Errorf("unknown hint :%s of a tensor descriptor (want :nan or :shape(16,_))", h)
		}
	}
	return arg, nil
}
