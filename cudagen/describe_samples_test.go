package cudagen_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tri-lang/tri/cudagen"
	"github.com/tri-lang/tri/launch"
)

// describe plans file's recorded launch (with lets) for arch.
func describe(t *testing.T, file, line string, lets []string, arch string) *cudagen.Description {
	t.Helper()
	p, err := launch.Prepare(file, line, &launch.Options{Arch: arch, Lets: lets})
	require.NoError(t, err)
	d, err := cudagen.Describe(p.Kernel, cudagen.Options{Arch: arch})
	require.NoError(t, err)
	return d
}

// TestDescribeHolders checks every layout of every sample: each element
// is held by at least one thread, by exactly one where the layout is not
// replicated, and the holders add up to every register of every thread.
func TestDescribeHolders(t *testing.T) {
	files, err := filepath.Glob("../samples/*.tri")
	require.NoError(t, err)
	for _, f := range files {
		d := describe(t, f, "", nil, fileArch(t, f))
		for _, l := range d.Layouts {
			total := 0
			for i, h := range l.Holders() {
				require.NotEmpty(t, h, "%s: #%s element %d has no thread", f, l.Tag, i)
				if !l.Replicated {
					require.Len(t, h, 1, "%s: #%s element %d", f, l.Tag, i)
				}
				total += len(h)
			}
			assert.Equal(t, l.Threads*l.ElemsPerThread, total, "%s: #%s", f, l.Tag)
		}
	}
}

// TestDescribeLoops checks the loop records: the grouped matmul's K loop
// pipelined on mma.sync for sm_80 and on wgmma for sm_90a, both operands
// streamed; attention's two-dot loop pipelined on mma.sync for sm_80 and
// on wgmma for sm_90a, p in registers; the decode sample's unpipelined on
// sm_80, with the reason.
func TestDescribeLoops(t *testing.T) {
	d := describe(t, "../samples/matmul_grouped.tri", groupedLaunch, groupedLets, "sm_80")
	require.Len(t, d.Loops, 1)
	l := d.Loops[0]
	assert.True(t, l.Pipelined)
	assert.Equal(t, "mma.sync", l.Engine)
	assert.Equal(t, 3, l.Stages)
	assert.Equal(t, 3, l.Buffers)
	assert.Equal(t, 49152, l.SharedBytes)
	require.Len(t, l.Operands, 2)
	for _, o := range l.Operands {
		assert.Equal(t, "streamed", o.Form)
		assert.Equal(t, "cp.async", o.Copy)
	}
	assert.Empty(t, l.InFlight)

	d = describe(t, "../samples/matmul_grouped.tri", groupedLaunch, groupedLets, "sm_90a")
	require.Len(t, d.Loops, 1)
	assert.Equal(t, "wgmma", d.Loops[0].Engine)
	assert.Contains(t, d.Loops[0].Dots[0].Words, "wgmma")

	// The decode sample's two-dot loop has 16 query rows for 4 warps: the
	// warps split N, and p, whose columns they split, is staged.
	for _, arch := range []string{"sm_80", "sm_90a"} {
		d = describe(t, "../samples/attention_decode.tri", "", nil, arch)
		var piped []cudagen.Loop
		for _, l := range d.Loops {
			if l.Pipelined {
				piped = append(piped, l)
			}
		}
		require.Len(t, piped, 1, arch)
		assert.Equal(t, "mma.sync", piped[0].Engine, arch)
		forms := map[string]string{}
		for _, o := range piped[0].Operands {
			forms[o.Name] = o.Form
		}
		assert.Equal(t, map[string]string{"k": "streamed", "v": "streamed", "q": "stored once", "p_fp16": "staged"}, forms, arch)
	}
	// With 8 warps, 4 columns of the 32 scores a warp are no n8 tile: not
	// pipelined, and the record says why.
	line, lets := recordedLaunch(t, "../samples/attention_decode.tri")
	d = describe(t, "../samples/attention_decode.tri", strings.Replace(line, "num_warps=4", "num_warps=8", 1), lets, "sm_80")
	require.NotEmpty(t, d.Loops)
	for _, l := range d.Loops {
		assert.False(t, l.Pipelined)
		assert.Contains(t, l.Why, "(16x32x64) has no mma.sync shape for 8 warps: M whole m16 tiles, N whole n8 tiles for each of 8 warps along it")
	}
	for _, arch := range []string{"sm_80", "sm_90a"} {
		engine := map[string]string{"sm_80": "mma.sync", "sm_90a": "wgmma"}[arch]
		d = describe(t, "../samples/attention_fwd.tri", "", nil, arch)
		require.NotEmpty(t, d.Loops)
		for _, l := range d.Loops {
			require.True(t, l.Pipelined, l.Why)
			assert.Equal(t, engine, l.Engine)
			assert.Contains(t, l.Dots[0].Words, engine)
			forms := map[string]bool{}
			for _, o := range l.Operands {
				forms[o.Form] = true
			}
			assert.True(t, forms["in registers"], "%+v", l.Operands)
			assert.True(t, forms["streamed"], "%+v", l.Operands)
		}
	}
}

// TestDescribeTiles checks that every tile names a layout the description
// lists, and that the notes say what a reduction is.
func TestDescribeTiles(t *testing.T) {
	d := describe(t, "../samples/softmax.tri", "", nil, "sm_80")
	tags := map[string]bool{}
	for _, l := range d.Layouts {
		tags[l.Tag] = true
	}
	require.NotEmpty(t, d.Tiles)
	reduced := false
	for _, tl := range d.Tiles {
		if tl.Layout != "" {
			assert.True(t, tags[tl.Layout], "%s: #%s", tl.Name, tl.Layout)
		}
		assert.True(t, tl.Pos.IsValid(), tl.Name)
		if strings.Contains(tl.Notes, "reduced along axis") {
			reduced = true
		}
	}
	assert.True(t, reduced, "softmax's row max and sum are reductions")
}
