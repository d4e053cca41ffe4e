package benchplot

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/launch"
)

const (
	addLine  = "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)"
	add2Line = "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024, num_warps=8)"
)

// syntheticResults are two launch lines over a sweep of sizes: a fixed
// launch cost plus the time to move 12 bytes an element at 3000 and 2500
// GB/s.
func syntheticResults(points []string) []launch.BenchResult {
	var rs []launch.BenchResult
	for _, pt := range points {
		n, _ := strconv.ParseFloat(pt, 64)
		for j, l := range []string{addLine, add2Line} {
			bytes := 12 * n
			ms := 0.004*(1+0.5*float64(j)) + bytes/((3000-500*float64(j))*1e6)
			rs = append(rs, launch.BenchResult{Launch: l, Point: pt, Median: ms, P20: ms, P80: ms, Reps: 100, GBps: bytes / (ms * 1e6)})
		}
	}
	return rs
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// countColour counts the pixels of img that are exactly c.
func countColour(img image.Image, c color.Color) int {
	r0, g0, b0, _ := c.RGBA()
	n := 0
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y++ {
		for x := bnd.Min.X; x < bnd.Max.X; x++ {
			if r, g, b, _ := img.At(x, y).RGBA(); r == r0 && g == g0 && b == b0 {
				n++
			}
		}
	}
	return n
}

func TestWriteBenchPlot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "add.png")
	points := []string{"1048576", "4194304", "16777216", "67108864", "268435456"}
	b := &launch.BenchOptions{Bytes: "3 * n * 4"}
	require.NoError(t, Write(path, "tri bench: samples/add.tri", "n", b, syntheticResults(points)))
	img := readPNG(t, path)
	assert.GreaterOrEqual(t, img.Bounds().Dx(), 400)
	assert.GreaterOrEqual(t, img.Bounds().Dy(), 300)
	for i := range 2 {
		assert.Greater(t, countColour(img, plotColors[i]), 100, "line %d's colour", i)
	}
	assert.Zero(t, countColour(img, plotColors[2]), "a third colour for two lines")
}

func TestWriteBenchPlotNonNumericSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dtype.png")
	rs := []launch.BenchResult{
		{Launch: addLine, Point: "fp16", Median: 0.2},
		{Launch: addLine, Point: "bf16", Median: 0.2},
		{Launch: addLine, Point: "fp32", Median: 0.4},
	}
	require.NoError(t, Write(path, "tri bench: x.tri", "dtype", &launch.BenchOptions{}, rs))
	assert.Greater(t, countColour(readPNG(t, path), plotColors[0]), 100)
}

func TestWriteBenchPlotWithoutSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.png")
	rs := []launch.BenchResult{{Launch: addLine, Median: 0.2, TFlops: 1.5}, {Launch: add2Line, Median: 0.3, TFlops: 1}}
	require.NoError(t, Write(path, "tri bench: x.tri", "", &launch.BenchOptions{Flops: "n"}, rs))
	img := readPNG(t, path)
	assert.Positive(t, countColour(img, plotColors[0]))
	assert.Positive(t, countColour(img, plotColors[1]))
}

func TestWriteBenchPlotInfiniteRate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "inf.png")
	rs := []launch.BenchResult{{Launch: addLine, Point: "1", GBps: math.Inf(1)}, {Launch: addLine, Point: "1024", GBps: math.Inf(1)}}
	require.NoError(t, Write(path, "t", "n", &launch.BenchOptions{Bytes: "n"}, rs))
	readPNG(t, path)
}

func TestWriteBenchPlotErrorNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "add.png")
	err := Write(path, "t", "n", &launch.BenchOptions{}, syntheticResults([]string{"1", "2"}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
}

func TestBenchMetric(t *testing.T) {
	r := launch.BenchResult{Median: 2, GBps: 300, TFlops: 40}
	for _, c := range []struct {
		b     launch.BenchOptions
		label string
		value float64
	}{
		{launch.BenchOptions{}, "median time (ms)", 2},
		{launch.BenchOptions{Bytes: "4 * n"}, "GB/s", 300},
		{launch.BenchOptions{Flops: "2 * n"}, "TFLOP/s", 40},
		{launch.BenchOptions{Bytes: "4 * n", Flops: "2 * n"}, "TFLOP/s", 40},
	} {
		label, value := benchMetric(&c.b)
		assert.Equal(t, c.label, label)
		assert.Equal(t, c.value, value(r))
	}
}

func TestSweepAxis(t *testing.T) {
	labels := func(ax sweepAxis) []string {
		var ls []string
		for _, tk := range ax.ticks {
			ls = append(ls, tk.Label)
		}
		return ls
	}

	ax := newSweepAxis([]string{"1048576", "16777216", "134217728"})
	assert.True(t, ax.numeric)
	assert.True(t, ax.log)
	assert.Equal(t, 16777216.0, ax.pos["16777216"])
	assert.Equal(t, [2]float64{1048576, 134217728}, [2]float64{ax.lo, ax.hi})
	assert.Equal(t, []string{"1048576", "16777216", "134217728"}, labels(ax))

	ax = newSweepAxis([]string{"256", "512", "1024", "2048", "4096", "8192"})
	assert.True(t, ax.log, "a factor of 32")

	ax = newSweepAxis([]string{"256", "512", "1024", "2048", "4096"})
	assert.False(t, ax.log, "a factor of 16 stays linear")
	assert.Nil(t, ax.ticks)

	ax = newSweepAxis([]string{"0", "64", "4096"})
	assert.False(t, ax.log, "zero has no logarithm")

	ax = newSweepAxis([]string{"fp16", "bf16", "fp32"})
	assert.False(t, ax.numeric)
	assert.False(t, ax.log)
	assert.Equal(t, map[string]float64{"fp16": 0, "bf16": 1, "fp32": 2}, ax.pos)
	assert.Equal(t, [2]float64{-0.5, 2.5}, [2]float64{ax.lo, ax.hi})
	assert.Equal(t, []string{"fp16", "bf16", "fp32"}, labels(ax))

	ax = newSweepAxis([]string{"0x100", "1_024", "2.5e3"})
	assert.True(t, ax.numeric)
	assert.Equal(t, map[string]float64{"0x100": 256, "1_024": 1024, "2.5e3": 2500}, ax.pos)

	var many []string
	for i := range 24 {
		many = append(many, strconv.Itoa(1<<i))
	}
	ax = newSweepAxis(many)
	assert.Len(t, ax.ticks, 24)
	assert.Equal(t, "1", ax.ticks[0].Label)
	assert.Empty(t, ax.ticks[1].Label, "every other value labelled past 12")
}

func TestLogTicks(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(0.03, 3) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"0.05", "0.1", "0.2", "0.5", "1", "2"}, labels)
}

func TestLegendNames(t *testing.T) {
	short := "copy_k[(triton.cdiv(n, bs),)](x, z, n, bs=bs)"
	lambda := "rgb2grey_k[lambda meta: (cdiv(h, meta['bs0']), cdiv(w, meta['bs1']))](x, out, h, w, bs0=32, bs1=32)"
	other := "sub_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=1024)"
	assert.Equal(t, []string{short, "add_kernel[(triton.cdiv(n, 1024),)]", "sub_kernel[(triton.cdiv(n, 1024),)]", shorten(lambda, legendWidth)},
		legendNames([]string{short, addLine, other, lambda}))
	assert.Equal(t, []string{"add_kernel[(triton.cdiv(n, 1024),)](...)", "add_kernel[(triton.cdiv(n, 1024),)](..., num_warps=8)"},
		legendNames([]string{addLine, add2Line}))
	assert.Equal(t, []string{"add_kernel[(triton.cdiv(n, 1024),)](..., BLOCK_SIZE=1024)", "add_kernel[(triton.cdiv(n, 1024),)](..., BLOCK_SIZE=512)"},
		legendNames([]string{addLine, "add_kernel[(triton.cdiv(n, 1024),)](x, y, output, n, BLOCK_SIZE=512)"}))
	assert.Equal(t, []string{short + " #1", short + " #2"}, legendNames([]string{short, short}))
}

func TestSplitLaunch(t *testing.T) {
	head, args := splitLaunch(`act[(f(n, 2),)](x, out, n, ACTIVATION="a,b)", BLOCK=256)`)
	assert.Equal(t, "act[(f(n, 2),)]", head)
	assert.Equal(t, []string{"x", "out", "n", `ACTIVATION="a,b)"`, "BLOCK=256"}, args)
	head, _ = splitLaunch("not a launch")
	assert.Empty(t, head)
}
