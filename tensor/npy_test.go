package tensor

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tri-lang/tri/ir"
)

// numpyFile builds a .npy file as NumPy 1.x/2.x writes it: the header dict
// padded with spaces and a newline so the data starts at a multiple of 64.
func numpyFile(major byte, dict string, data []byte) []byte {
	lenBytes := 2
	if major > 1 {
		lenBytes = 4
	}
	pre := 6 + 2 + lenBytes
	hlen := (pre+len(dict)+1+63)/64*64 - pre
	b := []byte("\x93NUMPY")
	b = append(b, major, 0)
	if lenBytes == 2 {
		b = binary.LittleEndian.AppendUint16(b, uint16(hlen))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(hlen))
	}
	b = append(b, dict...)
	b = append(b, strings.Repeat(" ", hlen-len(dict)-1)...)
	b = append(b, '\n')
	return append(b, data...)
}

func TestNumpyHeaderLayout(t *testing.T) {
	// np.save of np.arange(3, dtype=np.float32) starts with exactly these
	// 128 bytes of header (header length 118 = 'v').
	f := numpyFile(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", nil)
	require.Len(t, f, 128)
	assert.Equal(t, "\x93NUMPY\x01\x00v\x00{'descr'", string(f[:18]))

	var buf bytes.Buffer
	x := New(ir.Float32, 3)
	require.NoError(t, WriteNPY(&buf, x))
	assert.Equal(t, f, buf.Bytes()[:128])
	assert.Len(t, buf.Bytes(), 128+12)
}

func TestReadNumpyFiles(t *testing.T) {
	le32 := func(vs ...uint32) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		file  []byte
		kind  ir.Kind
		shape []int
		ints  []int64
	}{
		{"v1 int32 2x2", numpyFile(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", le32(1, 2, 3, 0xffffffff)), ir.Int32, []int{2, 2}, []int64{1, 2, 3, -1}},
		{"v2", numpyFile(2, "{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", le32(7)), ir.Int32, []int{1}, []int64{7}},
		{"v3", numpyFile(3, "{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }", le32(7)), ir.Uint32, []int{1}, []int64{7}},
		{"rank 0", numpyFile(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }", le32(5)), ir.Int32, nil, []int64{5}},
		{"big endian", numpyFile(1, "{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", []byte{0, 1, 0xff, 0xfe}), ir.Int16, []int{2}, []int64{1, -2}},
		{"keys reordered", numpyFile(1, "{'shape': (2,), 'fortran_order': False, 'descr': '|u1'}", []byte{9, 200}), ir.Uint8, []int{2}, []int64{9, 200}},
		{"bool", numpyFile(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", []byte{0, 1, 2}), ir.Bool, []int{3}, []int64{0, 1, 1}},
		{"empty", numpyFile(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4), }", nil), ir.Float64, []int{0, 4}, nil},
		{"long dims", numpyFile(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (1L,), }", []byte{0x80}), ir.Int8, []int{1}, []int64{-128}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := ReadNPY(bytes.NewReader(tc.file))
			require.NoError(t, err)
			assert.Equal(t, tc.kind, x.Kind)
			assert.Equal(t, tc.shape, x.Shape)
			var got []int64
			for i := range x.NumElements() {
				got = append(got, x.Int(i))
			}
			assert.Equal(t, tc.ints, got)
		})
	}
}

func TestReadBigEndianFloats(t *testing.T) {
	var data []byte
	data = binary.BigEndian.AppendUint64(data, math.Float64bits(1.5))
	data = binary.BigEndian.AppendUint32(data, 0) // padding the test ignores
	x, err := ReadNPY(bytes.NewReader(numpyFile(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", data)))
	require.NoError(t, err)
	assert.Equal(t, 1.5, x.Float(0))
	y, err := ReadNPY(bytes.NewReader(numpyFile(1, "{'descr': '>f2', 'fortran_order': False, 'shape': (1,), }", []byte{0x3c, 0})))
	require.NoError(t, err)
	assert.Equal(t, 1.0, y.Float(0))
}

func TestNPYRoundTrip(t *testing.T) {
	for _, k := range []ir.Kind{ir.Bool, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64, ir.Float16, ir.Float32, ir.Float64} {
		for _, shape := range [][]int{nil, {5}, {2, 3}, {2, 1, 3}, {0}} {
			x := New(k, shape...)
			for i := range x.NumElements() {
				x.SetFloat(i, float64(i*7%5)-1)
			}
			var buf bytes.Buffer
			require.NoError(t, WriteNPY(&buf, x))
			assert.Zero(t, (buf.Len()-len(x.Data))%64, "data starts at a multiple of 64")
			y, err := ReadNPY(&buf)
			require.NoError(t, err, "%v %v", k, shape)
			assert.Equal(t, x, y, "%v %v", k, shape)
		}
	}
}

func TestBF16WrittenAsFloat32(t *testing.T) {
	x := New(ir.BFloat16, 2)
	x.SetFloat(0, 1.5)
	x.SetFloat(1, -3.140625)
	var buf bytes.Buffer
	require.NoError(t, WriteNPY(&buf, x))
	y, err := ReadNPY(&buf)
	require.NoError(t, err)
	assert.Equal(t, ir.Float32, y.Kind)
	assert.Equal(t, []float64{1.5, -3.140625}, []float64{y.Float(0), y.Float(1)})
}

func TestLongHeaderUsesVersion2(t *testing.T) {
	shape := make([]int, 25000)
	for i := range shape {
		shape[i] = 1
	}
	x := New(ir.Int8, shape...)
	var buf bytes.Buffer
	require.NoError(t, WriteNPY(&buf, x))
	assert.Equal(t, byte(2), buf.Bytes()[6])
	y, err := ReadNPY(&buf)
	require.NoError(t, err)
	assert.Equal(t, x, y)
}

func TestReadNPYErrors(t *testing.T) {
	good := numpyFile(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 8))
	hdr := func(dict string) []byte { return numpyFile(1, dict, make([]byte, 8)) }
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"garbage", []byte("hello, world, not numpy"), "missing the \\x93NUMPY magic"},
		{"version", append([]byte("\x93NUMPY\x04\x00"), good[8:]...), "unsupported .npy format version 4.0"},
		{"truncated header", good[:40], "truncated .npy header"},
		{"truncated data", good[:len(good)-1], "truncated .npy data: shape [2] of <i4 needs 8 bytes, found 7"},
		{"fortran", hdr("{'descr': '<i4', 'fortran_order': True, 'shape': (2,), }"), "only C-order"},
		{"dtype", hdr("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }"), "unsupported dtype '<c8'"},
		{"structured", hdr("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,), }"), "descr: want a quoted string"},
		{"missing key", hdr("{'descr': '<i4', 'shape': (2,), }"), "missing key 'fortran_order'"},
		{"negative dim", hdr("{'descr': '<i4', 'fortran_order': False, 'shape': (-2,), }"), "non-negative dimension"},
		{"huge", hdr("{'descr': '<i4', 'fortran_order': False, 'shape': (2000000000, 2000000000), }"), "too large"},
		{"huge dim", hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }"), "array of shape [1000000000000] is too large (4000000000000 bytes)"},
		{"beyond int64", hdr("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"), "dimension 99999999999999999999 is too large"},
		{"not a dict", hdr("['descr']"), "want a dict literal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadNPY(bytes.NewReader(tc.file))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadSaveNPY(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.npy")
	x := New(ir.Float16, 2, 2)
	x.SetFloat(3, 0.5)
	require.NoError(t, SaveNPY(p, x))
	y, err := LoadNPY(p)
	require.NoError(t, err)
	assert.Equal(t, x, y)

	_, err = LoadNPY(filepath.Join(dir, "missing.npy"))
	assert.EqualError(t, err, filepath.Join(dir, "missing.npy")+": no such file or directory")

	bad := filepath.Join(dir, "bad.npy")
	require.NoError(t, os.WriteFile(bad, []byte("garbage"), 0o644))
	_, err = LoadNPY(bad)
	assert.EqualError(t, err, bad+": not a .npy file: too short for the magic string and version")

	long := filepath.Join(dir, "long.npy")
	data, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(long, append(data, 0), 0o644))
	_, err = LoadNPY(long)
	assert.ErrorContains(t, err, "trailing bytes")

	// A shape whose data the file cannot hold says so, however large.
	for dict, want := range map[string]string{
		"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,), }":         "shape [1000000000000] of <f4 needs 4000000000000 bytes of data, more than the file's 8",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (3000000000, 3000000000), }": "shape [3000000000 3000000000] of <f4 needs 36000000000000000000 bytes of data, more than the file's 8",
		"{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }":                     "shape [3] of <i4 needs 12 bytes of data, more than the file's 8",
	} {
		claims := filepath.Join(dir, "claims.npy")
		require.NoError(t, os.WriteFile(claims, numpyFile(1, dict, make([]byte, 8)), 0o644))
		_, err = LoadNPY(claims)
		assert.EqualError(t, err, claims+": "+want)
	}

	// Only regular files: a directory, a FIFO (which would block) and a
	// device are refused before they are read.
	_, err = LoadNPY(dir)
	assert.EqualError(t, err, dir+": not a regular file (a directory)")
	fifo := filepath.Join(dir, "fifo.npy")
	if syscall.Mkfifo(fifo, 0o644) == nil {
		_, err = LoadNPY(fifo)
		assert.EqualError(t, err, fifo+": not a regular file (a named pipe)")
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err = LoadNPY("/dev/zero")
		assert.EqualError(t, err, "/dev/zero: not a regular file (a device)")
	}

	assert.ErrorContains(t, SaveNPY(filepath.Join(dir, "no", "such", "dir.npy"), x), "no such file or directory")
	assert.ErrorContains(t, WriteNPY(&bytes.Buffer{}, &Tensor{Kind: ir.Float32, Shape: []int{3}}), "holds 0 bytes, want 12")
}

func FuzzReadNPY(f *testing.F) {
	f.Add(numpyFile(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 8)))
	f.Add(numpyFile(2, "{'descr': '>f2', 'fortran_order': False, 'shape': (), }", make([]byte, 2)))
	f.Add(numpyFile(3, "{'descr': '|b1', 'fortran_order': False, 'shape': (1, 2), }", []byte{1, 0}))
	f.Add([]byte("\x93NUMPY\x01\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ReadNPY(bytes.NewReader(data))
		if err != nil {
			return
		}
		require.Len(t, x.Data, x.NumElements()*x.ElemSize())
		var buf bytes.Buffer
		require.NoError(t, WriteNPY(&buf, x))
		y, err := ReadNPY(&buf)
		require.NoError(t, err)
		assert.Equal(t, x, y)
	})
}

// TestFP8WrittenAsCodes checks that fp8 tensors, which NumPy lacks, are
// written as their uint8 codes.
func TestFP8WrittenAsCodes(t *testing.T) {
	x := New(ir.Float8E4NV, 3)
	x.SetFloat(0, 1.0)
	x.SetFloat(1, -1000) // saturates to -448
	x.SetFloat(2, math.NaN())
	var buf bytes.Buffer
	require.NoError(t, WriteNPY(&buf, x))
	y, err := ReadNPY(&buf)
	require.NoError(t, err)
	assert.Equal(t, ir.Uint8, y.Kind)
	assert.Equal(t, []byte{0x38, 0xfe, 0x7f}, y.Data)
	assert.Equal(t, -448.0, x.Float(1))
}
