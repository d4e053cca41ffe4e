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
// for NaN padding.
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
	switch strings.TrimSpace(hint) {
	case "":
	case ":nan":
		arg.Padding = "nan"
	default:
		return sema.Arg{}, fmt.Errorf("unknown hint %s of a tensor descriptor (want :nan)", hint)
	}
	return arg, nil
}
