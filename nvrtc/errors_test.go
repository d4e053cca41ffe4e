package nvrtc

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestResultNames(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{CUResultName(0), "CUDA_SUCCESS (0)"},
		{CUResultName(2), "CUDA_ERROR_OUT_OF_MEMORY (2)"},
		{CUResultName(209), "CUDA_ERROR_NO_BINARY_FOR_GPU (209)"},
		{CUResultName(700), "CUDA_ERROR_ILLEGAL_ADDRESS (700)"},
		{CUResultName(719), "CUDA_ERROR_LAUNCH_FAILED (719)"},
		{CUResultName(999), "CUDA_ERROR_UNKNOWN (999)"},
		{CUResultName(12345), "CUDA_ERROR_UNRECOGNIZED (12345)"},
		{NVRTCResultName(0), "NVRTC_SUCCESS (0)"},
		{NVRTCResultName(5), "NVRTC_ERROR_INVALID_OPTION (5)"},
		{NVRTCResultName(6), "NVRTC_ERROR_COMPILATION (6)"},
		{NVRTCResultName(11), "NVRTC_ERROR_INTERNAL_ERROR (11)"},
		{NVRTCResultName(-1), "NVRTC_ERROR_UNRECOGNIZED (-1)"},
	} {
		assert.Equal(t, tc.want, tc.got)
	}
}

func TestErrorText(t *testing.T) {
	var d driverAPI
	err := d.check("cuLaunchKernel", 700)
	assert.EqualError(t, err, "cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS (700)")
	assert.NoError(t, d.check("cuInit", 0))

	var n nvrtcAPI
	cerr := &CompileError{Name: "add.cu", Log: "add.cu(3): error: expected a \";\"", Err: n.check("nvrtcCompileProgram", 6)}
	assert.Contains(t, cerr.Error(), "NVRTC_ERROR_COMPILATION (6)")
	assert.Contains(t, cerr.Error(), `add.cu(3): error: expected a ";"`)
	var e *Error
	assert.True(t, errors.As(cerr, &e))
	assert.Equal(t, 6, e.Code)
}
