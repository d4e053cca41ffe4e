package review

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/launch"
)

// TestBuildDefersData: a review page, which reads the launch's dtypes and
// shapes only, is made for --let tensors of 2^34 elements without making
// them (a binding past 2^31 elements was refused before).
func TestBuildDefersData(t *testing.T) {
	lets := []string{"n=2**34", "x=randn(n)", "y=randn(n)", "output=empty(n)"}
	pg, err := Build("../samples/add.tri", "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)",
		Options{NoNVRTC: true, Launch: &launch.Options{Arch: "sm_80", Lets: lets}})
	require.NoError(t, err)
	assert.Equal(t, [3]int{1 << 24, 1, 1}, pg.Grid)
}
