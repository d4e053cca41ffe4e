package ir

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAsmOperands(t *testing.T) {
	tests := []struct {
		constraints string
		want        []AsmOperand
		memory      bool
		err         string
	}{
		{"=r,r", []AsmOperand{{Output: true, Reg: 'r', Tied: -1}, {Reg: 'r', Tied: -1}}, false, ""},
		{"=r,r, r, r", []AsmOperand{{Output: true, Reg: 'r', Tied: -1}, {Reg: 'r', Tied: -1}, {Reg: 'r', Tied: -1}, {Reg: 'r', Tied: -1}}, false, ""},
		{"=&l,=f,0,d,~{memory}", []AsmOperand{{Output: true, EarlyClobber: true, Reg: 'l', Tied: -1}, {Output: true, Reg: 'f', Tied: -1},
			{Reg: 'l', Tied: 0}, {Reg: 'd', Tied: -1}}, true, ""},
		{"=r,=h", []AsmOperand{{Output: true, Reg: 'r', Tied: -1}, {Output: true, Reg: 'h', Tied: -1}}, false, ""},
		{"=r,r,~{cc}", nil, false, `clobber "~{cc}": only ~{memory} is supported`},
		{"=r,~{memory},r", nil, false, `constraint "r" after the clobbers`},
		{"r,=r", nil, false, `output "=r" after the inputs`},
		{"=q,r", nil, false, `constraint "=q"`},
		{"=r,1", nil, false, `input "1" is tied to 1, which is not an output`},
		{"=r,", nil, false, `constraint ""`},
		{"=r,99999999999999999999", nil, false, `is tied to 99999999999999999999, which is not an output`},
	}
	for _, tc := range tests {
		t.Run(tc.constraints, func(t *testing.T) {
			ops, memory, err := (&InlineAsm{Constraints: tc.constraints}).Operands()
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, ops)
			assert.Equal(t, tc.memory, memory)
		})
	}
}

func TestAsmParts(t *testing.T) {
	tests := []struct {
		asm  string
		n    int
		want []AsmPart
		err  string
	}{
		{"add.s32 $0, $1, $12;", 13, []AsmPart{{"add.s32 ", -1}, {"", 0}, {", ", -1}, {"", 1}, {", ", -1}, {"", 12}, {";", -1}}, ""},
		{"mov.u32 ${0}, %laneid; // $$", 1, []AsmPart{{"mov.u32 ", -1}, {"", 0}, {", %laneid; // $", -1}}, ""},
		{"", 0, nil, ""},
		{"mov $2, $0;", 2, nil, "$2 names no operand: the constraints give 2"},
		{"mov ${0:x};", 1, nil, "operand modifiers"},
		{"mov $x;", 1, nil, "names no operand"},
		{"mov $99999999999999999999;", 1, nil, "$99999999999999999999 names no operand"},
		{"mov ${0", 1, nil, "operand modifiers"},
		{"mov $", 1, nil, "names no operand"},
	}
	for _, tc := range tests {
		t.Run(tc.asm, func(t *testing.T) {
			parts, err := (&InlineAsm{Asm: tc.asm}).Parts(tc.n)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, parts)
		})
	}
}

func TestAsmElemsPerReg(t *testing.T) {
	for _, tc := range []struct {
		k          Kind
		pack, want int
	}{{Uint8, 4, 4}, {Uint8, 2, 2}, {Uint8, 8, 4}, {Float16, 4, 2}, {Float32, 4, 1}, {Int64, 2, 1}, {Ptr, 1, 1}, {Int8, 1, 1}} {
		assert.Equal(t, tc.want, AsmElemsPerReg(tc.k, tc.pack), "%s pack=%d", tc.k, tc.pack)
	}
}

func TestFormatInlineAsm(t *testing.T) {
	x := &Value{ID: 1, Op: OpParam, Type: ScalarType(TInt32), Param: &Param{Name: "x"}}
	v := &Value{ID: 2, Op: OpInlineAsm, Type: ScalarType(TInt32), Args: []*Value{x},
		Asm: &InlineAsm{Asm: "mov.b32 $0, $1;", Constraints: "=r,r", Pack: 1}}
	assert.Equal(t, `%2: i32 = inline_asm %1, asm="mov.b32 $0, $1;", constraints="=r,r", pure=false, pack=1`, FormatValue(v))
	assert.NoError(t, checkOp(v))
	v.Asm = nil
	assert.Error(t, checkOp(v))
}
