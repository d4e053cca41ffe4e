package gpu

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/nvrtc"
)

// TestTargetArch: an architecture asked for is used as given; otherwise the
// GPU's, or sm_80 without one.
func TestTargetArch(t *testing.T) {
	for _, arch := range []string{"sm_80", "sm_86", "sm_90a"} {
		assert.Equal(t, arch, TargetArch(arch))
	}
	dev, err := Device()
	if err != nil {
		assert.Equal(t, "sm_80", TargetArch(""))
		return
	}
	assert.Equal(t, DeviceTarget(dev), TargetArch(""))
}

// TestNoGPU: without a driver, Compile and Synchronize fail with an error
// that wraps ErrNoGPU (and never panic). With a GPU it skips; without one
// under TRI_REQUIRE_GPU=1 it fails, as the GPU tests do.
func TestNoGPU(t *testing.T) {
	if _, err := Device(); err == nil {
		t.Skip("a GPU is present")
	}
	if os.Getenv("TRI_REQUIRE_GPU") == "1" {
		t.Fatal("TRI_REQUIRE_GPU=1 but no GPU")
	}
	_, err := Compile(&ir.Kernel{Name: "k", NumWarps: 4}, false)
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrNoGPU), "%v", err)
	assert.True(t, errors.Is(Synchronize(), ErrNoGPU))
}

// TestEncodeTensorMapMissingParameter: a tensor map whose descriptor
// parameters are not among the launch's arguments is an error, not a
// driver call with a wrong address.
func TestEncodeTensorMapMissingParameter(t *testing.T) {
	tm := cudagen.TensorMap{Name: "a_desc_tmap8x64", Base: 3, Shape: []int{1, 2}, Strides: []int{4}, ElemBytes: 2, Box: []int{8, 64}, Swizzle: 128}
	_, err := (&Compiled{}).tensorMap(tm, []Arg{{Ptr: 16}, {Int: 64}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tensor map a_desc_tmap8x64: a descriptor parameter is missing")
}

// TestRowView checks the 5-D view of a descriptor's rows the launch
// encodes for a map with RowAxes: outermost first, the axes (outermost
// last in RowAxes) with their strides in elements and whole boxes, then
// the rows in boxes of 8 and the row itself.
func TestRowView(t *testing.T) {
	m := nvrtc.TensorMap{Base: 4096, ElemBytes: 2, Dims: []int64{1000, 4096}, Strides: []int64{4096, 1}, Box: []int{8, 64}, Swizzle: 128}
	v := rowView(m, []cudagen.RowAxis{{Count: 2, Stride: 64}, {Count: 4, Stride: 8}, {Count: 2, Stride: 32}})
	assert.Equal(t, []int64{2, 4, 2, 1000, 4096}, v.Dims)
	assert.Equal(t, []int64{32 * 4096, 8 * 4096, 64 * 4096, 4096, 1}, v.Strides)
	assert.Equal(t, []int{2, 4, 2, 8, 64}, v.Box)
	assert.Equal(t, m.Base, v.Base)
	assert.Equal(t, 128, v.Swizzle)
	assert.Equal(t, 2, v.ElemBytes)
}

// TestTensorMapCache checks that a launch whose descriptor was encoded
// before takes the map from the cache (the Compiled here has no device to
// encode with), and that the key tells apart descriptors that differ in
// base, shape or view.
func TestTensorMapCache(t *testing.T) {
	tm := cudagen.TensorMap{Name: "a_desc_tmap8x64", Base: 0, Shape: []int{1, 2}, Strides: []int{3}, ElemBytes: 2, Box: []int{8, 64}, Swizzle: 128}
	args := []Arg{{Ptr: 4096}, {Int: 1000}, {Int: 64}, {Int: 64}}
	m, err := tensorMapFrom(tm, args)
	require.NoError(t, err)
	var want [nvrtc.TensorMapBytes]byte
	want[0], want[127] = 7, 9
	c := &Compiled{tmapCache: map[string][nvrtc.TensorMapBytes]byte{mapKey(m): want}}
	got, err := c.tensorMap(tm, args)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	other := func(tm cudagen.TensorMap, args []Arg) string {
		m, err := tensorMapFrom(tm, args)
		require.NoError(t, err)
		return mapKey(m)
	}
	key := mapKey(m)
	assert.NotEqual(t, key, other(tm, []Arg{{Ptr: 8192}, {Int: 1000}, {Int: 64}, {Int: 64}}))
	assert.NotEqual(t, key, other(tm, []Arg{{Ptr: 4096}, {Int: 999}, {Int: 64}, {Int: 64}}))
	rows := tm
	rows.RowAxes = []cudagen.RowAxis{{Count: 2, Stride: 64}, {Count: 4, Stride: 8}, {Count: 2, Stride: 32}}
	assert.NotEqual(t, key, other(rows, args))
}
