package nvrtc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const ptxasLog = `ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'softmax_kernel' for 'sm_90'
ptxas info    : Function properties for softmax_kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 38 registers, used 1 barriers, 64 bytes smem, 392 bytes cmem[0]
ptxas info    : Compile time = 3.127 ms
ptxas info    : Compiling entry function 'matmul_kernel' for 'sm_90'
ptxas info    : Function properties for matmul_kernel
    32 bytes stack frame, 24 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 49152 bytes smem, 416 bytes cmem[0]
ptxas info    : Compile time = 41.003 ms
`

func TestFunctionResources(t *testing.T) {
	assert.Equal(t, []Resources{
		{Function: "softmax_kernel", Regs: 38, SmemBytes: 64},
		{Function: "matmul_kernel", Regs: 255, SpillStores: 24, SpillLoads: 16, StackBytes: 32, SmemBytes: 49152},
	}, FunctionResources(ptxasLog))
}

func TestParseResources(t *testing.T) {
	for _, tc := range []struct {
		name, log                                  string
		regs, spillStores, spillLoads, stack, smem int
	}{
		{"two kernels take the largest", ptxasLog, 255, 24, 16, 32, 49152},
		{"no report", "", 0, 0, 0, 0, 0},
		{"no smem, CRLF", "ptxas info    : Compiling entry function 'add' for 'sm_80'\r\nptxas info    : Function properties for add\r\n    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\r\nptxas info    : Used 16 registers, used 0 barriers, 380 bytes cmem[0]\r\n", 16, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			regs, ss, sl, stack, smem := ParseResources(tc.log)
			assert.Equal(t, []int{tc.regs, tc.spillStores, tc.spillLoads, tc.stack, tc.smem}, []int{regs, ss, sl, stack, smem})
		})
	}
}
