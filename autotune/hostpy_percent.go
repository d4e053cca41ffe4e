package autotune

// This file implements str % values, Python's printf-style formatting,
// which instrumented host code calls instead of gpython's: gpython hands
// the values to Go's fmt (a list prints as &{[0xc000...]}, '%r' % 'x' as
// "x", and a dict that holds itself overflows Go's stack). Conversions
// s, r, a, c, d, i, u, o, x, X, e, E, f, F, g, G and %, with a mapping key,
// the flags - + space # 0, a width and a precision (or *), as CPython 3
// formats them; repr and str go through hostpy_nest.go.

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/go-python/gpython/py"
)

// percentFormat is tmpl % values.
func percentFormat(g *guard, tmpl string, values py.Object) (py.Object, error) {
	w := &walker{g: g}
	args := py.Tuple{values}
	mapping, isMap := values.(py.StringDict)
	if t, ok := values.(py.Tuple); ok {
		args = t
	}
	next := 0
	arg := func() (py.Object, error) {
		if next >= len(args) {
			return nil, py.ExceptionNewf(py.TypeError, "not enough arguments for format string")
		}
		next++
		return args[next-1], nil
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '%' {
			b.WriteByte(tmpl[i])
			continue
		}
		start := i
		i++
		var v py.Object
		if i < len(tmpl) && tmpl[i] == '(' {
			if !isMap {
				return nil, py.ExceptionNewf(py.TypeError, "format requires a mapping")
			}
			depth, j := 1, i+1
			for ; j < len(tmpl) && depth > 0; j++ {
				switch tmpl[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			if depth > 0 {
				return nil, py.ExceptionNewf(py.ValueError, "incomplete format key")
			}
			key := tmpl[i+1 : j-1]
			var ok bool
			if v, ok = mapping[key]; !ok {
				e, err := py.ExceptionNew(py.KeyError, py.Tuple{py.String(key)}, nil)
				if err != nil {
					return nil, err
				}
				return nil, e.(*py.Exception)
			}
			i = j
		}
		var f pctSpec
		for ; i < len(tmpl) && strings.IndexByte("-+ #0", tmpl[i]) >= 0; i++ {
			f.flags += tmpl[i : i+1]
		}
		num := func() (int, error) {
			if i < len(tmpl) && tmpl[i] == '*' {
				i++
				o, err := arg()
				if err != nil {
					return 0, err
				}
				n, ok := o.(py.Int)
				if !ok {
					return 0, py.ExceptionNewf(py.TypeError, "* wants int")
				}
				if n < 0 {
					f.flags += "-"
					n = -n
				}
				return int(min(n, maxHostItems+1)), nil
			}
			n := 0
			for ; i < len(tmpl) && tmpl[i] >= '0' && tmpl[i] <= '9'; i++ {
				n = min(n*10+int(tmpl[i]-'0'), maxHostItems+1)
			}
			return n, nil
		}
		var err error
		if f.width, err = num(); err != nil {
			return nil, err
		}
		f.prec = -1
		if i < len(tmpl) && tmpl[i] == '.' {
			i++
			if f.prec, err = num(); err != nil {
				return nil, err
			}
		}
		for i < len(tmpl) && strings.IndexByte("hlL", tmpl[i]) >= 0 {
			i++
		}
		if i >= len(tmpl) {
			return nil, py.ExceptionNewf(py.ValueError, "incomplete format")
		}
		if f.width > maxHostItems || f.prec > maxHostItems {
			return nil, py.ExceptionNewf(py.MemoryError, "tri's host Python refuses a str of more than %d bytes (a width or precision of %%-formatting)", maxHostItems)
		}
		f.conv = tmpl[i]
		if f.conv == '%' && v == nil {
			b.WriteByte('%')
			continue
		}
		if v == nil {
			if v, err = arg(); err != nil {
				return nil, err
			}
		}
		s, err := f.format(w, v, start)
		if err != nil {
			return nil, err
		}
		if err := w.grow(len(s)); err != nil {
			return nil, err
		}
		b.WriteString(s)
	}
	if next < len(args) && !isMap {
		return nil, py.ExceptionNewf(py.TypeError, "not all arguments converted during string formatting")
	}
	return py.String(b.String()), nil
}

// pctSpec is one conversion of %-formatting.
type pctSpec struct {
	flags       string
	width, prec int // prec -1: none
	conv        byte
}

func (f *pctSpec) has(flag byte) bool { return strings.IndexByte(f.flags, flag) >= 0 }

// format converts v; at is the conversion's index in the template.
func (f *pctSpec) format(w *walker, v py.Object, at int) (string, error) {
	var sign, prefix, body string
	numeric := true
	switch f.conv {
	case 's', 'r', 'a':
		var err error
		if f.conv == 's' {
			body, err = w.str(v, 0)
		} else {
			body, err = w.repr(v, 0)
		}
		if err != nil {
			return "", err
		}
		if f.conv == 'a' {
			body = asciiEscape(body)
		}
		if f.prec >= 0 && f.prec < len([]rune(body)) {
			body = string([]rune(body)[:f.prec])
		}
		numeric = false
	case 'c':
		switch x := v.(type) {
		case py.Int:
			if x < 0 || x > 0x10ffff {
				return "", py.ExceptionNewf(py.OverflowError, "%%c arg not in range(0x110000)")
			}
			body = string(rune(x))
		case py.String:
			if len([]rune(string(x))) != 1 {
				return "", py.ExceptionNewf(py.TypeError, "%%c requires int or char")
			}
			body = string(x)
		default:
			return "", py.ExceptionNewf(py.TypeError, "%%c requires int or char")
		}
		numeric = false
	case 'd', 'i', 'u', 'o', 'x', 'X':
		n, ok := bigOf(v)
		if x, isFloat := v.(py.Float); isFloat && strings.IndexByte("diu", f.conv) >= 0 {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return "", py.ExceptionNewf(py.ValueError, "cannot convert float %s to integer", floatText(float64(x), 'g', -1, false))
			}
			n, _ = new(big.Float).SetFloat64(math.Trunc(float64(x))).Int(nil)
			ok = true
		}
		if !ok {
			what := "a real number"
			if strings.IndexByte("oxX", f.conv) >= 0 {
				what = "an integer"
			}
			return "", py.ExceptionNewf(py.TypeError, "%%%c format: %s is required, not %s", f.conv, what, v.Type().Name)
		}
		if n.Sign() < 0 {
			sign = "-"
		}
		base := map[byte]int{'o': 8, 'x': 16, 'X': 16}[f.conv]
		if base == 0 {
			base = 10
		}
		body = new(big.Int).Abs(n).Text(base)
		if f.conv == 'X' {
			body = strings.ToUpper(body)
		}
		if f.has('#') && base != 10 {
			prefix = "0" + string(f.conv)
		}
		if f.prec > len(body) {
			body = strings.Repeat("0", f.prec-len(body)) + body
		}
	case 'e', 'E', 'f', 'F', 'g', 'G':
		x, err := floatOf(v)
		if err != nil {
			return "", err
		}
		if math.Signbit(x) && !math.IsNaN(x) {
			sign, x = "-", -x
		}
		prec := f.prec
		if prec < 0 {
			prec = 6
		}
		body = floatText(x, f.conv|0x20, prec, f.conv < 'a')
	default:
		return "", py.ExceptionNewf(py.ValueError, "unsupported format character '%c' (0x%x) at index %d", f.conv, f.conv, at+1)
	}
	if numeric && sign == "" {
		if f.has('+') {
			sign = "+"
		} else if f.has(' ') {
			sign = " "
		}
	}
	pad := f.width - len([]rune(sign+prefix+body))
	switch {
	case pad <= 0:
		return sign + prefix + body, nil
	case f.has('-'):
		return sign + prefix + body + strings.Repeat(" ", pad), nil
	case f.has('0') && numeric:
		return sign + prefix + strings.Repeat("0", pad) + body, nil
	}
	return strings.Repeat(" ", pad) + sign + prefix + body, nil
}

// floatOf is the value of a number for a float conversion.
func floatOf(v py.Object) (float64, error) {
	switch x := v.(type) {
	case py.Float:
		return float64(x), nil
	case py.Int:
		return float64(x), nil
	case py.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case *py.BigInt:
		f, _ := new(big.Float).SetInt((*big.Int)(x)).Float64()
		if math.IsInf(f, 0) {
			return 0, py.ExceptionNewf(py.OverflowError, "int too large to convert to float")
		}
		return f, nil
	}
	return 0, py.ExceptionNewf(py.TypeError, "must be real number, not %s", v.Type().Name)
}

// floatText writes a non-negative x as Python's e, f or g conversions do
// (upper: E, F, G).
func floatText(x float64, conv byte, prec int, upper bool) string {
	var s string
	switch {
	case math.IsNaN(x):
		s = "nan"
	case math.IsInf(x, 0):
		s = "inf"
	case conv == 'e':
		s = pyExponent(strconv.FormatFloat(x, 'e', prec, 64))
	case conv == 'f':
		s = strconv.FormatFloat(x, 'f', prec, 64)
	default:
		s = pyExponent(strconv.FormatFloat(x, 'g', max(prec, 1), 64))
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// asciiEscape escapes the characters of a repr that are not ASCII, as
// Python's ascii() does.
func asciiEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r < 0x100:
			b.WriteString(`\x` + strconv.FormatInt(int64(r)|0x100, 16)[1:])
		case r < 0x10000:
			b.WriteString(`\u` + strconv.FormatInt(int64(r)|0x10000, 16)[1:])
		default:
			b.WriteString(`\U` + strconv.FormatInt(int64(r)|0x100000000, 16)[1:])
		}
	}
	return b.String()
}
