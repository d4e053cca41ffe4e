package sema

// This file implements the functions of Triton 3.6's tl.extra.cuda
// (third_party/nvidia/language/cuda/utils.py) that read a special
// register: globaltimer and smid, each an inline asm of no inputs, as
// Triton defines them (tritonbench's profiling helpers read both).

import "github.com/tri-lang/tri/ir"

func init() {
	builtins["triton.language.extra.cuda.globaltimer"] = &builtin{nil, 0, bSpecialRegister("mov.u64 $0, %globaltimer;", "=l", ir.TInt64, false)}
	builtins["triton.language.extra.cuda.smid"] = &builtin{nil, 0, bSpecialRegister("mov.u32 $0, %smid;", "=r", ir.TInt32, true)}
}

// bSpecialRegister is the builtin that reads one register by inline asm:
// tl.inline_asm_elementwise(asm, constraints, [], dtype, is_pure, pack=1).
func bSpecialRegister(asm, constraints string, dt ir.DType, pure bool) func(*compiler, *args) *val {
	return func(c *compiler, a *args) *val {
		return bInlineAsm(c, &args{name: a.name, pos: a.pos, call: a.call, vals: []*val{
			strVal(asm), strVal(constraints), {k: kTuple}, dtypeVal(dt), boolVal(pure), intVal(1),
		}})
	}
}
