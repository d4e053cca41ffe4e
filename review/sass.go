package review

// This file counts the SASS instructions of each source line from the
// line table of a cubin compiled with -lineinfo: its .debug_line section
// is a DWARF line-number program whose rows give, for each address of the
// kernel's code, the file and line it comes from. Go's debug/dwarf reads
// line tables only through a compilation unit of .debug_info, which a
// cubin built with -lineinfo alone does not have, so the program is run
// here (DWARF versions 2 to 4, as ptxas writes them).

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tri-lang/tri/cudagen"
)

// sassBytes is the size of one SASS instruction on every target tri
// compiles for (sm_70 and later encode 128-bit instructions).
const sassBytes = 16

// sassPerLine returns the SASS instructions of each line of the kernel's
// file (by line number), from the line table of cubin, whose lines are
// those of the CUDA (res), mapped to the source through res's line map.
func sassPerLine(cubin []byte, file string, res *cudagen.Result) (map[int]int, error) {
	perCUDA, err := sassPerCUDALine(cubin)
	if err != nil {
		return nil, err
	}
	out := map[int]int{}
	for n, c := range perCUDA {
		if pos, ok := res.SourceLine(n); ok && pos.File == file {
			out[pos.Line] += c
		}
	}
	return out, nil
}

// sassPerCUDALine returns the instructions of each line of the .cu file
// in the cubin's line table.
func sassPerCUDALine(cubin []byte) (map[int]int, error) {
	f, err := elf.NewFile(bytes.NewReader(cubin))
	if err != nil {
		return nil, fmt.Errorf("the cubin is not ELF: %v", err)
	}
	sec := f.Section(".debug_line")
	if sec == nil {
		return nil, errors.New("the cubin has no .debug_line section")
	}
	data, err := sec.Data()
	if err != nil {
		return nil, err
	}
	rows, files, err := lineRows(data)
	if err != nil {
		return nil, err
	}
	return countPerLine(rows, files), nil
}

// countPerLine counts the instructions of each line of the .cu file among
// rows: a row's code runs to the next row's address.
func countPerLine(rows []lineRow, files []string) map[int]int {
	out := map[int]int{}
	for i := 0; i+1 < len(rows); i++ {
		r, next := rows[i], rows[i+1]
		if r.end || next.addr < r.addr || r.file < 1 || r.file > len(files) || filepath.Ext(files[r.file-1]) != ".cu" {
			continue
		}
		out[r.line] += int(next.addr-r.addr) / sassBytes
	}
	return out
}

// lineRow is one row of a line table: the code from addr on comes from
// line of file (1-based into the file table); end closes a sequence.
type lineRow struct {
	addr uint64
	file int
	line int
	end  bool
}

// lineReader reads the little-endian fields of a line program.
type lineReader struct {
	b   []byte
	err error
}

func (r *lineReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errors.New("the line table ends early")
		r.b = nil
		return make([]byte, max(n, 0))
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *lineReader) u8() uint8   { return r.take(1)[0] }
func (r *lineReader) u16() uint16 { return binary.LittleEndian.Uint16(r.take(2)) }
func (r *lineReader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *lineReader) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }

func (r *lineReader) uleb() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c := r.u8()
		if shift < 64 {
			v |= uint64(c&0x7f) << shift
		}
		if c&0x80 == 0 || r.err != nil {
			return v
		}
	}
}

func (r *lineReader) sleb() int64 {
	var v int64
	shift := uint(0)
	for {
		c := r.u8()
		if shift < 64 {
			v |= int64(c&0x7f) << shift
		}
		shift += 7
		if c&0x80 == 0 || r.err != nil {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

func (r *lineReader) str() string {
	i := bytes.IndexByte(r.b, 0)
	if i < 0 {
		r.err = errors.New("the line table ends inside a string")
		return ""
	}
	s := string(r.b[:i])
	r.b = r.b[i+1:]
	return s
}

// The standard and extended opcodes of DWARF's line programs.
const (
	lnsCopy             = 1
	lnsAdvancePC        = 2
	lnsAdvanceLine      = 3
	lnsSetFile          = 4
	lnsConstAddPC       = 8
	lnsFixedAdvancePC   = 9
	lneEndSequence      = 1
	lneSetAddress       = 2
	lneDefineFile       = 3
	maxLinePrograms     = 1 << 16
	maxRowsInLineTables = 1 << 24
)

// lineRows runs every line program of a .debug_line section and returns
// their rows, and the file table of the last (file names as written).
func lineRows(data []byte) (rows []lineRow, files []string, err error) {
	for units := 0; len(data) > 0; units++ {
		if units == maxLinePrograms {
			return nil, nil, errors.New("too many line programs")
		}
		r := &lineReader{b: data}
		length, wide := uint64(r.u32()), false
		if length == 0xffffffff {
			length, wide = r.u64(), true
		}
		if r.err != nil || length > uint64(len(r.b)) {
			return nil, nil, errors.New("a line program is longer than its section")
		}
		unit := &lineReader{b: r.b[:length]}
		data = r.b[length:]
		version := unit.u16()
		if version < 2 || version > 4 {
			return nil, nil, fmt.Errorf("line table version %d: tri reads versions 2 to 4", version)
		}
		var headerLen uint64
		if wide {
			headerLen = unit.u64()
		} else {
			headerLen = uint64(unit.u32())
		}
		if unit.err != nil || headerLen > uint64(len(unit.b)) {
			return nil, nil, errors.New("a line program's header is longer than the program")
		}
		header := &lineReader{b: unit.b[:headerLen]}
		prog := &lineReader{b: unit.b[headerLen:]}
		minInst := uint64(header.u8())
		if version >= 4 {
			header.u8() // maximum operations per instruction: 1 on GPUs
		}
		header.u8() // default is_stmt
		lineBase := int(int8(header.u8()))
		lineRange := int(header.u8())
		opcodeBase := int(header.u8())
		if lineRange == 0 || opcodeBase == 0 {
			return nil, nil, errors.New("a line program's header has a zero line range or opcode base")
		}
		opLens := header.take(opcodeBase - 1)
		for header.err == nil && header.str() != "" {
		}
		files = files[:0]
		for header.err == nil {
			name := header.str()
			if name == "" {
				break
			}
			header.uleb()
			header.uleb()
			header.uleb()
			files = append(files, name)
		}
		if header.err != nil {
			return nil, nil, header.err
		}
		st := lineRow{file: 1, line: 1}
		emit := func() error {
			if len(rows) == maxRowsInLineTables {
				return errors.New("too many rows in the line table")
			}
			rows = append(rows, st)
			return nil
		}
		for len(prog.b) > 0 && prog.err == nil {
			op := int(prog.u8())
			switch {
			case op >= opcodeBase:
				adj := op - opcodeBase
				st.addr += uint64(adj/lineRange) * minInst
				st.line += lineBase + adj%lineRange
				err = emit()
			case op == 0:
				n := prog.uleb()
				if n == 0 || n > uint64(len(prog.b)) {
					return nil, nil, errors.New("an extended opcode is longer than its program")
				}
				ext := &lineReader{b: prog.take(int(n))}
				switch ext.u8() {
				case lneEndSequence:
					st.end = true
					err = emit()
					st = lineRow{file: 1, line: 1}
				case lneSetAddress:
					a := ext.b
					var buf [8]byte
					copy(buf[:], a)
					st.addr = binary.LittleEndian.Uint64(buf[:])
				case lneDefineFile:
					files = append(files, ext.str())
				}
			case op == lnsCopy:
				err = emit()
			case op == lnsAdvancePC:
				st.addr += prog.uleb() * minInst
			case op == lnsAdvanceLine:
				st.line += int(prog.sleb())
			case op == lnsSetFile:
				st.file = int(prog.uleb())
			case op == lnsConstAddPC:
				st.addr += uint64((255-opcodeBase)/lineRange) * minInst
			case op == lnsFixedAdvancePC:
				st.addr += uint64(prog.u16())
			default: // other standard opcodes: skip their operands
				for range opLens[op-1] {
					prog.uleb()
				}
			}
			if err != nil {
				return nil, nil, err
			}
		}
		if prog.err != nil {
			return nil, nil, prog.err
		}
	}
	return rows, files, nil
}
