package tensor

// This file implements reading and writing NumPy's .npy format: a magic
// string, a version, a little-endian header length, a header that is a
// Python dict literal ({'descr': '<f4', 'fortran_order': False, 'shape':
// (3, 4), }) padded with spaces and a newline so the data starts at a
// multiple of 64 bytes, then the raw elements in C order.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/internal/regfile"
	"github.com/tri-lang/tri/ir"
)

const npyMagic = "\x93NUMPY"

// maxNPYBytes bounds the data a header may announce, so a corrupt shape
// fails with an error instead of an enormous allocation.
const maxNPYBytes = 1 << 40

// npyKinds maps a descr without its byte-order character to a kind.
var npyKinds = map[string]ir.Kind{
	"b1": ir.Bool, "?": ir.Bool,
	"i1": ir.Int8, "u1": ir.Uint8,
	"i2": ir.Int16, "i4": ir.Int32, "i8": ir.Int64,
	"u2": ir.Uint16, "u4": ir.Uint32, "u8": ir.Uint64,
	"f2": ir.Float16, "f4": ir.Float32, "f8": ir.Float64,
}

// npyCodes is the descr (after "<") that WriteNPY uses for each
// multi-byte kind.
var npyCodes = map[ir.Kind]string{
	ir.Int16: "i2", ir.Int32: "i4", ir.Int64: "i8",
	ir.Uint16: "u2", ir.Uint32: "u4", ir.Uint64: "u8",
	ir.Float16: "f2", ir.Float32: "f4", ir.Float64: "f8",
}

// ReadNPY reads one array in .npy format (versions 1.0, 2.0 and 3.0) from r.
// Big-endian data is converted to little-endian; Fortran-order arrays are
// rejected. r is read exactly up to the end of the array's data.
func ReadNPY(r io.Reader) (*Tensor, error) {
	if r == nil {
		return nil, errors.New("tensor: ReadNPY of a nil reader")
	}
	return readNPY(r, -1)
}

// readNPY reads a .npy file of fileSize bytes (-1: not known), so that a shape
// that needs more data than the file has is reported before any is read.
func readNPY(r io.Reader, fileSize int64) (*Tensor, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, errors.New("not a .npy file: too short for the magic string and version")
	}
	if string(pre[:6]) != npyMagic {
		return nil, errors.New("not a .npy file: missing the \\x93NUMPY magic string")
	}
	major, minor := pre[6], pre[7]
	var hlen int
	switch major {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, errors.New("truncated .npy header length")
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, errors.New("truncated .npy header length")
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
		if hlen > 1<<24 {
			return nil, fmt.Errorf("implausible .npy header length %d", hlen)
		}
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d.%d (want 1.0, 2.0 or 3.0)", major, minor)
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, fmt.Errorf("truncated .npy header: want %d bytes", hlen)
	}
	h, err := parseNPYHeader(string(header))
	if err != nil {
		return nil, fmt.Errorf("bad .npy header %q: %v", strings.TrimSpace(string(header)), err)
	}
	t := &Tensor{Kind: h.kind}
	if len(h.shape) > 0 {
		t.Shape = h.shape
	}
	// The data's size as Python computes it: no overflow however large the
	// shape claims to be.
	need := big.NewInt(int64(h.kind.Bytes()))
	for _, d := range h.shape {
		need.Mul(need, big.NewInt(int64(d)))
	}
	headerLen := int64(8 + 2 + hlen)
	if major != 1 {
		headerLen += 2
	}
	if fileSize >= 0 && need.Cmp(big.NewInt(fileSize-headerLen)) > 0 {
		return nil, fmt.Errorf("shape %v of %s needs %v bytes of data, more than the file's %d", h.shape, h.descr, need, fileSize-headerLen)
	}
	if need.Cmp(big.NewInt(maxNPYBytes)) > 0 {
		return nil, fmt.Errorf("array of shape %v is too large (%v bytes)", h.shape, need)
	}
	size := h.kind.Bytes()
	total := int(need.Int64())
	data, err := io.ReadAll(io.LimitReader(r, int64(total)))
	if err != nil {
		return nil, fmt.Errorf("reading .npy data: %v", err)
	}
	if len(data) != total {
		return nil, fmt.Errorf("truncated .npy data: shape %v of %s needs %d bytes, found %d", h.shape, h.descr, total, len(data))
	}
	if h.bigEndian && size > 1 {
		for i := 0; i < len(data); i += size {
			e := data[i : i+size]
			for a, b := 0, size-1; a < b; a, b = a+1, b-1 {
				e[a], e[b] = e[b], e[a]
			}
		}
	}
	if h.kind == ir.Bool {
		for i, b := range data {
			if b != 0 {
				data[i] = 1
			}
		}
	}
	t.Data = data
	return t, nil
}

// WriteNPY writes t in .npy format version 1.0 (2.0 if the header does not
// fit in 1.0's 16-bit length). bfloat16, which NumPy lacks, is written as
// float32 values.
func WriteNPY(w io.Writer, t *Tensor) error {
	if w == nil {
		return errors.New("tensor: WriteNPY to a nil writer")
	}
	descr, data, err := npyDescr(t)
	if err != nil {
		return err
	}
	var dims []string
	for _, d := range t.Shape {
		dims = append(dims, fmt.Sprint(d))
	}
	shape := "(" + strings.Join(dims, ", ")
	if len(dims) == 1 {
		shape += ","
	}
	shape += ")"
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
	var buf bytes.Buffer
	buf.WriteString(npyMagic)
	lenBytes := 2
	if pad(10+len(dict)+1) > math.MaxUint16 {
		lenBytes = 4
	}
	hlen := pad(6+2+lenBytes+len(dict)+1) - (6 + 2 + lenBytes)
	if lenBytes == 2 {
		buf.Write([]byte{1, 0})
		buf.Write(binary.LittleEndian.AppendUint16(nil, uint16(hlen)))
	} else {
		buf.Write([]byte{2, 0})
		buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(hlen)))
	}
	buf.WriteString(dict)
	buf.WriteString(strings.Repeat(" ", hlen-len(dict)-1))
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// pad rounds n up to a multiple of 64, the alignment NumPy gives the data.
func pad(n int) int { return (n + 63) / 64 * 64 }

// npyDescr returns the descr of t's kind and the bytes to write.
func npyDescr(t *Tensor) (string, []byte, error) {
	if t == nil {
		return "", nil, errors.New("no tensor to write (nil)")
	}
	t.Materialize()
	if want := t.NumElements() * t.ElemSize(); len(t.Data) != want {
		return "", nil, fmt.Errorf("tensor %v holds %d bytes, want %d", t, len(t.Data), want)
	}
	switch t.Kind {
	case ir.Bool:
		return "|b1", t.Data, nil
	case ir.Int8:
		return "|i1", t.Data, nil
	case ir.Uint8:
		return "|u1", t.Data, nil
	case ir.Float8E4NV, ir.Float8E5, ir.Float8E4B8, ir.Float8E5B16:
		// NumPy has no fp8: the codes, for a reader to view as its fp8 type.
		return "|u1", t.Data, nil
	case ir.BFloat16:
		out := make([]byte, 4*t.NumElements())
		for i := range t.NumElements() {
			v := BF16Float(binary.LittleEndian.Uint16(t.Data[2*i:]))
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
		}
		return "<f4", out, nil
	}
	if code, ok := npyCodes[t.Kind]; ok {
		return "<" + code, t.Data, nil
	}
	return "", nil, fmt.Errorf("cannot write a %s tensor as .npy", t.Kind)
}

// LoadNPY reads a .npy file. Errors name the file.
func LoadNPY(path string) (*Tensor, error) {
	// A FIFO or a device would block (even at open) or never end: only
	// regular files are read, and their size bounds the shape.
	f, st, err := regfile.Open(path)
	if err != nil {
		return nil, diag.Errorf(diag.Pos{File: path}, diag.CodeIO, "%v", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	t, err := readNPY(br, st.Size())
	if err != nil {
		return nil, diag.Errorf(diag.Pos{File: path}, diag.CodeIO, "%v", err)
	}
	if _, err := br.ReadByte(); err == nil {
		return nil, diag.Errorf(diag.Pos{File: path}, diag.CodeIO, "trailing bytes after the array data of shape %v", t.Shape)
	}
	return t, nil
}

// SaveNPY writes t to a .npy file. Errors name the file.
func SaveNPY(path string, t *Tensor) error {
	var buf bytes.Buffer
	if err := WriteNPY(&buf, t); err != nil {
		return diag.Errorf(diag.Pos{File: path}, diag.CodeIO, "%v", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return diag.Errorf(diag.Pos{File: path}, diag.CodeIO, "%v", unwrapPathError(err))
	}
	return nil
}

// unwrapPathError drops the path that os errors repeat, since the
// diagnostic already names the file.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
