package cudagen

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tri-lang/tri/ir"
)

// TestUmulhi: the C expression of tl.umulhi per kind, and its mul.hi
// wrapper added to the helpers only for the widths that use one.
func TestUmulhi(t *testing.T) {
	tests := []struct {
		k      ir.Kind
		want   string
		helper string
	}{
		{ir.Uint32, "tri_umulhi_u32(a, b)", "tri_umulhi_u32"},
		{ir.Int32, "(int)(tri_umulhi_u32((unsigned int)a, (unsigned int)b))", "tri_umulhi_u32"},
		{ir.Uint64, "tri_umulhi_u64(a, b)", "tri_umulhi_u64"},
		{ir.Int64, "(long long)(tri_umulhi_u64((unsigned long long)a, (unsigned long long)b))", "tri_umulhi_u64"},
		{ir.Uint8, "(unsigned char)((unsigned int)a * (unsigned int)b >> 8)", ""},
		{ir.Int16, "(short)((unsigned int)(unsigned short)a * (unsigned int)(unsigned short)b >> 16)", ""},
	}
	for _, tc := range tests {
		e := &emitter{nameSet: nameSet{}}
		assert.Equal(t, tc.want, e.umulhi(tc.k, "a", "b"), "%s", tc.k)
		if tc.helper == "" {
			assert.Empty(t, e.helpers.names, "%s", tc.k)
		} else {
			assert.Equal(t, []string{tc.helper}, e.helpers.names, "%s", tc.k)
		}
	}
}
