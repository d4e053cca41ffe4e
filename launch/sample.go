package launch

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/tensor"
	"github.com/x448/float16"
)

// Sample is a kernel file whose launch is recorded in comment lines at its
// top, as tri's samples and test kernels do:
//
//	# launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
//	# let: n=98432
//	# let: x=rand(n)
//	# check: out
//	# tolerance: exact
//
// The Triton comparison script reads the same lines.
type Sample struct {
	Path      string
	Launch    string
	Lets      []string
	Checks    []string
	Tolerance string // "" (by dtype), "exact" or "ulp=N"
	// LaunchPos and LetPos are where the texts of Launch and of each of
	// Lets start in the file, so that their errors point there.
	LaunchPos diag.Pos
	LetPos    []diag.Pos
}

// HeaderHelp describes the header convention for the help of every command
// that reads a kernel file, so that they all say the same.
const HeaderHelp = `A kernel file may record a launch in its header: the comment lines before
its first statement (a module docstring does not end the header). run,
bench and build use it when no launch line is given:

  # launch: add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
  # let: n=98432
  # let: x=rand(n)
  # check: out
  # tolerance: exact

"# launch:" is a launch line as the command line takes it; each "# let:"
binds a name as --let does, in order (a --let of the same name replaces
that binding, and the later ones see the new value); "# check:" names the
outputs that run prints a line on after the launch (dtype, shape, first
values, min, max, NaNs) and that tests compare with Triton and between the
GPU and the interpreter; "# tolerance:" is how close those comparisons
want them: exact, ulp=N, or ulp=N atol=A (default: by dtype).`

// ReadSample reads the header of a sample file. A file without a "# launch:"
// line is an error.
func ReadSample(path string) (*Sample, error) {
	src, err := hosteval.ReadSource(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSampleHeader(path, src)
	if err != nil {
		return nil, hosteval.Usage(err)
	}
	return s, nil
}

// ParseSampleHeader reads the recorded launch of a source text. Header lines
// may appear anywhere among the leading comment lines, which go on after a
// module docstring (Python files often open with one): the header ends at
// the first statement other than that docstring. A file without a launch
// line is an error that says where a "# launch:" line found later in the
// file stands, and so why it was not taken.
func ParseSampleHeader(path string, src []byte) (*Sample, error) {
	s := &Sample{Path: path}
	// Python skips a UTF-8 BOM and reads CR and CRLF line ends as LF.
	norm := hosteval.NormalizeNewlines(src)
	text := strings.TrimPrefix(string(norm), "\uFEFF")
	bom := len(norm) - len(text)
	lines := strings.Split(text, "\n")
	docFrom, docTo := -1, -1 // the module docstring's lines, 0-based
	stmt := -1               // the first statement's line, where the header ends
	for n := 0; n < len(lines); n++ {
		raw := lines[n]
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "#") {
			if end, ok := docstringEnd(lines, n); ok && docFrom < 0 {
				docFrom, docTo, n = n, end, end
				continue
			}
			stmt = n
			break
		}
		key, val, ok := headerLine(line)
		if !ok {
			continue
		}
		// The value's column: its offset in the raw line, plus the BOM's
		// bytes on the first line (columns count bytes).
		col := strings.LastIndex(raw, val) + 1
		if n == 0 {
			col += bom
		}
		pos := diag.Pos{File: path, Line: n + 1, Col: col}
		switch key {
		case "launch":
			s.Launch, s.LaunchPos = val, pos
		case "let":
			s.Lets = append(s.Lets, val)
			s.LetPos = append(s.LetPos, pos)
		case "check":
			s.Checks = append(s.Checks, strings.Fields(val)...)
		case "tolerance":
			s.Tolerance = val
		}
	}
	if s.Launch == "" {
		msg := fmt.Sprintf("%s: no '# launch:' line in the file's leading comments", path)
		for n, raw := range lines {
			key, _, ok := headerLine(strings.TrimSpace(raw))
			if !ok || key != "launch" {
				continue
			}
			switch {
			case n >= docFrom && n <= docTo:
				msg += fmt.Sprintf(" (the one on line %d is inside the module docstring, which is text, not comments: put it on a comment line before or after the docstring)", n+1)
			case stmt >= 0 && n > stmt:
				msg += fmt.Sprintf(" (the one on line %d comes after the first statement, on line %d, where the header ends: move it above)", n+1, stmt+1)
			}
			break
		}
		return nil, errors.New(msg)
	}
	return s, nil
}

// headerLine splits a comment line "# key: value" into its key and value.
func headerLine(line string) (key, val string, ok bool) {
	body, ok := strings.CutPrefix(line, "#")
	if !ok {
		return "", "", false
	}
	key, val, ok = strings.Cut(strings.TrimSpace(body), ":")
	return strings.TrimSpace(key), strings.TrimSpace(val), ok
}

// docstringEnd reports whether lines[n] starts a string literal, which as
// the module's first statement is its docstring, and the line it ends on;
// a literal followed by anything but a comment (an expression, a second
// string) is not taken for one.
func docstringEnd(lines []string, n int) (int, bool) {
	s := strings.TrimLeft(lines[n], " \t")
	if len(s) > 0 && strings.ContainsRune("rRuU", rune(s[0])) {
		s = s[1:] // r"..." and u"..." are docstrings too; b"" and f"" are not
	}
	var quote string
	switch {
	case strings.HasPrefix(s, `"""`), strings.HasPrefix(s, "'''"):
		quote = s[:3]
	case strings.HasPrefix(s, `"`), strings.HasPrefix(s, "'"):
		quote = s[:1]
	default:
		return 0, false
	}
	s = s[len(quote):]
	for {
		// A backslash escapes the next character, in raw strings too (r"\""
		// does not end at its second quote); at a line's end it continues
		// the literal on the next line.
		continued := false
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] == '\\':
				continued = i == len(s)-1
				i++
			case strings.HasPrefix(s[i:], quote):
				rest := strings.TrimSpace(s[i+len(quote):])
				return n, rest == "" || strings.HasPrefix(rest, "#")
			}
		}
		if len(quote) == 1 && !continued || n+1 >= len(lines) {
			return 0, false
		}
		n++
		s = lines[n]
	}
}

// mover returns the function that moves positions in the header's launch
// line (when line is it) and in its let bindings (those of lets that are
// the header's, not overridden) to their places in the file; nil for a nil
// s.
func (s *Sample) mover(line string, lets []string) func(diag.Pos) diag.Pos {
	if s == nil {
		return nil
	}
	at := map[string]diag.Pos{}
	if line == s.Launch {
		at[hosteval.LaunchSource] = s.LaunchPos
	}
	for i, spec := range s.Lets {
		if slices.Contains(lets, spec) {
			name, _, _ := strings.Cut(spec, "=")
			at[hosteval.LetSource(strings.TrimSpace(name))] = s.LetPos[i]
		}
	}
	return func(p diag.Pos) diag.Pos {
		to, ok := at[p.File]
		if !ok || p.Line != 1 {
			return p
		}
		return diag.Pos{File: to.File, Line: to.Line, Col: to.Col + p.Col - 1}
	}
}

// moveErr moves the positions of err's diagnostics with move (if not nil).
func moveErr(err error, move func(diag.Pos) diag.Pos) {
	if err != nil && move != nil {
		diag.MovePositions(err, move)
	}
}

// CompareTensors checks got against want. tolerance is "exact" (bit for
// bit; NaN equals NaN), "ulp=N" (floats within N units in the last place of
// the dtype), "ulp=N atol=A" (within N ulp, or at most A apart: the form for
// sums, whose results near zero lose their ulps to cancellation; for an
// integer output, "atol=1" allows a float result truncated on the other side
// of an integer, as FMA contraction may put it), or "" for
// the default: exact for integers and bools, 4 ulp for floats.
func CompareTensors(name string, got, want *tensor.Tensor, tolerance string) error {
	if got == nil || want == nil {
		return fmt.Errorf("%s: no tensor to compare (got %v, want %v)", name, got, want)
	}
	if got.Kind != want.Kind || !ir.Shape(got.Shape).Equal(want.Shape) {
		return fmt.Errorf("%s: got %v, want %v", name, got, want)
	}
	// Tensors built in Go may hold fewer bytes than their shape needs;
	// reading elements past the end would panic.
	for _, t := range []*tensor.Tensor{got, want} {
		if n := t.NumElements() * t.ElemSize(); len(t.Data) != n {
			return fmt.Errorf("%s: tensor %v holds %d bytes, want %d", name, t, len(t.Data), n)
		}
	}
	ulps, atol, err := parseTolerance(tolerance, got.Kind.IsFloat())
	if err != nil {
		return err
	}
	bad, first := 0, -1
	var worst int64
	for i := 0; i < got.NumElements(); i++ {
		d := elementDistance(got, want, i)
		if d > ulps && !(atol > 0 && math.Abs(got.Float(i)-want.Float(i)) <= atol) {
			bad++
			if first < 0 {
				first = i
			}
			if d > worst {
				worst = d
			}
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("%s: %d of %d elements differ (first at %d: got %v, want %v; worst %s)",
		name, bad, got.NumElements(), first, formatElem(got, first), formatElem(want, first), formatDistance(worst))
}

// parseTolerance reads a "# tolerance:" value (see CompareTensors).
func parseTolerance(tolerance string, float bool) (ulps int64, atol float64, err error) {
	if tolerance == "" {
		if float {
			ulps = 4
		}
		return ulps, 0, nil
	}
	bad := fmt.Errorf("bad tolerance %q (want exact, ulp=N or ulp=N atol=A)", tolerance)
	for _, f := range strings.Fields(tolerance) {
		key, val, _ := strings.Cut(f, "=")
		switch key {
		case "exact":
			if f != "exact" {
				return 0, 0, bad
			}
		case "ulp":
			if ulps, err = strconv.ParseInt(val, 10, 64); err != nil || ulps < 0 {
				return 0, 0, bad
			}
		case "atol":
			if atol, err = strconv.ParseFloat(val, 64); err != nil || !(atol >= 0) {
				return 0, 0, bad
			}
		default:
			return 0, 0, bad
		}
	}
	return ulps, atol, nil
}

func formatDistance(d int64) string {
	if d == math.MaxInt64 {
		return "bits differ"
	}
	return fmt.Sprintf("%d ulp", d)
}

func formatElem(t *tensor.Tensor, i int) string {
	if t.Kind.IsFloat() {
		return strconv.FormatFloat(t.Float(i), 'g', -1, 64)
	}
	return strconv.FormatInt(t.Int(i), 10)
}

// elementDistance is 0 for identical elements, the distance in ulps for
// floats, and MaxInt64 for differing integers.
func elementDistance(a, b *tensor.Tensor, i int) int64 {
	sz := a.ElemSize()
	if bytes.Equal(a.Data[i*sz:(i+1)*sz], b.Data[i*sz:(i+1)*sz]) {
		return 0
	}
	if !a.Kind.IsFloat() {
		return math.MaxInt64
	}
	x, y := a.Float(i), b.Float(i)
	if math.IsNaN(x) || math.IsNaN(y) {
		if math.IsNaN(x) && math.IsNaN(y) {
			return 0
		}
		return math.MaxInt64
	}
	return ulpDistance(a.Kind, x, y)
}

// ulpDistance counts the representable values of kind k between x and y.
func ulpDistance(k ir.Kind, x, y float64) int64 {
	ord := func(v float64) int64 {
		var bits int64
		var sign int64
		switch k {
		case ir.Float64:
			u := math.Float64bits(v)
			bits, sign = int64(u&^(1<<63)), int64(u>>63)
		case ir.Float32:
			u := math.Float32bits(float32(v))
			bits, sign = int64(u&^(1<<31)), int64(u>>31)
		case ir.Float16:
			u := float16.Fromfloat32(float32(v)).Bits()
			bits, sign = int64(u&0x7fff), int64(u>>15)
		case ir.BFloat16:
			u := tensor.BF16Bits(float32(v))
			bits, sign = int64(u&0x7fff), int64(u>>15)
		default:
			if f, ok := k.FP8(); ok {
				u := f.Encode(v)
				bits, sign = int64(u&0x7f), int64(u>>7)
			}
		}
		if sign != 0 {
			return -bits
		}
		return bits
	}
	d := ord(x) - ord(y)
	if d < 0 {
		d = -d
	}
	return d
}

// Outcome is what a sample's launch did to its bindings.
type Outcome struct {
	Before  map[string]*tensor.Tensor // every tensor binding before the launch (copies)
	After   map[string]*tensor.Tensor // every tensor binding after the launch
	Numbers map[string]float64        // Numeric bindings
}

// Interpret runs the sample's recorded launch in the interpreter.
func (s *Sample) Interpret(seed int64) (*Outcome, error) {
	return s.run(seed, func(p *Prepared) error { return p.Interpret(0) })
}

// RunGPU runs the sample's recorded launch on the GPU. Without a driver the
// error wraps gpu.ErrNoGPU.
func (s *Sample) RunGPU(seed int64) (*Outcome, error) {
	return s.RunGPUFor("", seed)
}

// RunGPUFor is RunGPU with the kernel compiled for target architecture
// arch ("": the GPU's own), as `tri run --arch`: sm_80 code on a newer GPU
// runs through the driver's PTX JIT (gpu.CompileFor).
func (s *Sample) RunGPUFor(arch string, seed int64) (*Outcome, error) {
	return s.runWith(&Options{Lets: s.Lets, Seed: seed, Arch: arch}, func(p *Prepared) error { _, err := p.RunGPU(false); return err })
}

func (s *Sample) run(seed int64, do func(*Prepared) error) (*Outcome, error) {
	return s.runWith(&Options{Lets: s.Lets, Seed: seed}, do)
}

// runWith prepares the sample's launch under o and runs do on it.
func (s *Sample) runWith(o *Options, do func(*Prepared) error) (*Outcome, error) {
	p, err := Prepare(s.Path, s.Launch, o)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Before: map[string]*tensor.Tensor{}, After: map[string]*tensor.Tensor{}, Numbers: map[string]float64{}}
	for _, n := range p.Env.Names() {
		v, _ := p.Env.Lookup(n)
		switch v.Kind {
		case hosteval.VTensor:
			out.Before[n], out.After[n] = v.Tensor.Clone(), v.Tensor
		case hosteval.VInt:
			out.Numbers[n] = float64(v.Int)
		case hosteval.VFloat:
			out.Numbers[n] = v.Float
		case hosteval.VBool:
			out.Numbers[n] = float64(b2f(v.Bool))
		}
	}
	if err := do(p); err != nil {
		return nil, err
	}
	return out, nil
}

func b2f(b bool) int {
	if b {
		return 1
	}
	return 0
}
