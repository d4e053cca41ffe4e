package autotune

// This file implements the string formatting that host code of real
// projects uses and that gpython's str lacks: format specifications
// ({x:>8.3f}) for f-strings (fstring.go), and the str methods format and
// join. The methods are added to gpython's str type once, when the program
// starts, as gpython adds its own.

import (
	"strconv"
	"strings"

	"github.com/go-python/gpython/py"
)

func init() {
	for name, m := range map[string]any{
		"format": func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			return strFormat(string(self.(py.String)), args, kwargs)
		},
		"join": func(self py.Object, arg py.Object) (py.Object, error) {
			var parts []string
			var bad py.Object
			err := py.Iterate(arg, func(o py.Object) bool {
				s, ok := o.(py.String)
				if !ok {
					bad = o
					return true
				}
				parts = append(parts, string(s))
				return false
			})
			if err != nil {
				return nil, err
			}
			if bad != nil {
				return nil, py.ExceptionNewf(py.TypeError, "sequence item: expected str instance, %s found", bad.Type().Name)
			}
			if err := joinSize(string(self.(py.String)), parts); err != nil {
				return nil, err
			}
			return py.String(strings.Join(parts, string(self.(py.String)))), nil
		},
		"upper": func(self py.Object) (py.Object, error) {
			return py.String(strings.ToUpper(string(self.(py.String)))), nil
		},
		"lower": func(self py.Object) (py.Object, error) {
			return py.String(strings.ToLower(string(self.(py.String)))), nil
		},
	} {
		if _, ok := py.StringType.Dict[name]; !ok {
			py.StringType.Dict[name] = py.MustNewMethod(name, m, 0, "")
		}
	}
}

// fmtField is __tri_fmt__(value, conversion, spec) of the session whose
// guard is g: one replacement field of an f-string.
func (g *guard) fmtField(_ py.Object, args py.Tuple) (py.Object, error) {
	if len(args) != 3 {
		return nil, py.ExceptionNewf(py.TypeError, "%s takes 3 arguments", fmtName)
	}
	conv, _ := args[1].(py.String)
	spec, _ := args[2].(py.String)
	return formatField(g, args[0], string(conv), string(spec))
}

// formatField applies a conversion (r, s, a or none) and a format
// specification to v; repr and str are tri's (hostpy_nest.go), bounded
// for values that hold themselves or nest deeply. g is the guard of the
// session running it, or nil.
func formatField(g *guard, v py.Object, conv, spec string) (py.Object, error) {
	var s string
	var err error
	switch conv {
	case "":
		return formatValue(g, v, spec)
	case "r", "a":
		s, err = reprString(g, v)
		if conv == "a" {
			s = asciiEscape(s)
		}
	case "s":
		s, err = strString(g, v)
	default:
		return nil, py.ExceptionNewf(py.ValueError, "Unknown conversion specifier %s", conv)
	}
	if err != nil {
		return nil, err
	}
	return formatValue(g, py.String(s), spec)
}

// formatValue is Python's format(v, spec) for strings, ints, bools and
// floats ([[fill]align][sign][0][width][,|_][.precision][type]); other
// values take str(v) under an empty specification. A width or precision
// past maxHostItems is refused before anything is allocated.
func formatValue(g *guard, v py.Object, spec string) (py.Object, error) {
	if spec == "" {
		s, err := strString(g, v)
		if err != nil {
			return nil, err
		}
		return py.String(s), nil
	}
	fill, align, sign, rest := " ", byte(0), byte('-'), spec
	if len(rest) >= 2 && strings.IndexByte("<>^=", rest[1]) >= 0 {
		fill, align, rest = rest[:1], rest[1], rest[2:]
	} else if len(rest) >= 1 && strings.IndexByte("<>^=", rest[0]) >= 0 {
		align, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 && strings.IndexByte("+- ", rest[0]) >= 0 {
		sign, rest = rest[0], rest[1:]
	}
	if strings.HasPrefix(rest, "0") {
		if align == 0 {
			fill, align = "0", '='
		}
		rest = rest[1:]
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	width := bigNum(rest[:n])
	rest = rest[n:]
	group := ""
	if len(rest) > 0 && (rest[0] == ',' || rest[0] == '_') {
		group, rest = rest[:1], rest[1:]
	}
	prec := -1
	if strings.HasPrefix(rest, ".") {
		n = 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		prec = bigNum(rest[1:n])
		rest = rest[n:]
	}
	if len(rest) > 1 {
		return nil, py.ExceptionNewf(py.ValueError, "Invalid format specifier '%s'", spec)
	}
	if width > maxHostItems || prec > maxHostItems {
		return nil, py.ExceptionNewf(py.MemoryError, "tri's host Python refuses a str of more than %d bytes (a width or precision of %s)", maxHostItems, spec)
	}
	typ := byte(0)
	if rest != "" {
		typ = rest[0]
	}
	var body, signText string
	number := true
	switch x := v.(type) {
	case py.String:
		if typ != 0 && typ != 's' {
			return nil, py.ExceptionNewf(py.ValueError, "Unknown format code '%c' for object of type 'str'", typ)
		}
		number, body = false, string(x)
		if prec >= 0 && prec < len(body) {
			body = body[:prec]
		}
	case py.Bool, py.Int:
		i := int64(0)
		if b, ok := x.(py.Bool); ok && bool(b) {
			i = 1
		} else if k, ok := x.(py.Int); ok {
			i = int64(k)
		}
		if i < 0 {
			signText, i = "-", -i
		}
		switch typ {
		case 0, 'd', 'n':
			body = strconv.FormatInt(i, 10)
		case 'x', 'X', 'o', 'b':
			body = strconv.FormatInt(i, map[byte]int{'x': 16, 'X': 16, 'o': 8, 'b': 2}[typ])
			if typ == 'X' {
				body = strings.ToUpper(body)
			}
		case 'c':
			number, body = false, string(rune(i))
		default:
			if signText == "-" {
				i = -i
			}
			return formatValue(g, py.Float(float64(i)), spec)
		}
	case py.Float:
		f := float64(x)
		if f < 0 || f == 0 && strconv.FormatFloat(f, 'g', -1, 64)[0] == '-' {
			signText, f = "-", -f
		}
		if prec < 0 {
			prec = 6
		}
		switch typ {
		case 'f', 'F', 'e', 'E':
			body = strconv.FormatFloat(f, typ|0x20, prec, 64)
			if typ == 'e' || typ == 'E' {
				body = pyExponent(body)
			}
			if typ == 'E' {
				body = strings.ToUpper(body)
			}
		case '%':
			body = strconv.FormatFloat(f*100, 'f', prec, 64) + "%"
		case 'g', 'G', 0:
			if typ == 0 && !strings.Contains(spec, ".") {
				s, err := py.Repr(py.Float(f))
				if err != nil {
					return nil, err
				}
				body = string(s.(py.String))
				break
			}
			body = pyExponent(strconv.FormatFloat(f, 'g', max(prec, 1), 64))
			if typ == 'G' {
				body = strings.ToUpper(body)
			}
		default:
			return nil, py.ExceptionNewf(py.ValueError, "Unknown format code '%c' for object of type 'float'", typ)
		}
	default:
		return nil, py.ExceptionNewf(py.TypeError, "unsupported format string passed to %s.__format__", v.Type().Name)
	}
	if number {
		if group != "" {
			body = groupDigits(body, group)
		}
		if signText == "" && sign != '-' {
			signText = string(sign)
		}
	} else if align == 0 {
		align = '<'
	}
	if align == 0 {
		align = '>'
	}
	pad := width - len([]rune(signText+body))
	if pad <= 0 {
		return py.String(signText + body), nil
	}
	switch align {
	case '<':
		return py.String(signText + body + strings.Repeat(fill, pad)), nil
	case '^':
		return py.String(strings.Repeat(fill, pad/2) + signText + body + strings.Repeat(fill, pad-pad/2)), nil
	case '=':
		return py.String(signText + strings.Repeat(fill, pad) + body), nil
	}
	return py.String(strings.Repeat(fill, pad) + signText + body), nil
}

// bigNum reads the digits of a width or precision, as maxHostItems + 1
// past that (strconv.Atoi gives 0 past int64).
func bigNum(digits string) int {
	n := 0
	for _, c := range digits {
		n = min(n*10+int(c-'0'), maxHostItems+1)
	}
	return n
}

// pyExponent writes Go's exponent (1e+06, 1e-07) as Python does: at least
// two digits (1e+06, 1e-07 already are; Go gives 1e+100 alike).
func pyExponent(s string) string {
	i := strings.IndexAny(s, "eE")
	if i < 0 || len(s)-i >= 4 {
		return s
	}
	return s[:i+2] + "0" + s[i+2:]
}

// groupDigits puts sep between the thousands of the integer part of a
// number's text.
func groupDigits(s, sep string) string {
	end := strings.IndexAny(s, ".e%")
	if end < 0 {
		end = len(s)
	}
	var b strings.Builder
	for i, c := range s[:end] {
		if i > 0 && (end-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String() + s[end:]
}

// strFormat is str.format: fields by position ({} and {0}) or by name, with
// attributes and indexes ({0.x}, {a[1]}), conversions and specifications.
func strFormat(tmpl string, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	var b strings.Builder
	auto := 0
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if (c == '{' || c == '}') && i+1 < len(tmpl) && tmpl[i+1] == c {
			b.WriteByte(c)
			i++
			continue
		}
		if c == '}' {
			return nil, py.ExceptionNewf(py.ValueError, "Single '}' encountered in format string")
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		end := closingBrace(tmpl, i+1)
		if end < 0 {
			return nil, py.ExceptionNewf(py.ValueError, "Single '{' encountered in format string")
		}
		field := tmpl[i+1 : end]
		i = end
		name, spec, _ := strings.Cut(field, ":")
		name, conv, _ := strings.Cut(name, "!")
		if strings.Contains(spec, "{") {
			s, err := strFormat(spec, args, kwargs)
			if err != nil {
				return nil, err
			}
			spec = string(s.(py.String))
		}
		head := name
		if k := strings.IndexAny(name, ".["); k >= 0 {
			head = name[:k]
		}
		var v py.Object
		if n, err := strconv.Atoi(head); err == nil || head == "" {
			if head == "" {
				n, auto = auto, auto+1
			}
			if n >= len(args) {
				return nil, py.ExceptionNewf(py.IndexError, "Replacement index %d out of range for positional args tuple", n)
			}
			v = args[n]
		} else if v = kwargs[head]; v == nil {
			return nil, py.ExceptionNewf(py.KeyError, "'%s'", head)
		}
		for rest := name[len(head):]; rest != ""; {
			var err error
			if rest[0] == '.' {
				k := strings.IndexAny(rest[1:], ".[") + 1
				if k == 0 {
					k = len(rest)
				}
				v, err = py.GetAttrString(v, rest[1:k])
				rest = rest[k:]
			} else {
				k := strings.IndexByte(rest, ']')
				if k < 0 {
					return nil, py.ExceptionNewf(py.ValueError, "Missing ']' in format string")
				}
				var key py.Object = py.String(rest[1:k])
				if n, e := strconv.Atoi(rest[1:k]); e == nil {
					key = py.Int(n)
				}
				v, err = py.GetItem(v, key)
				rest = rest[k+1:]
			}
			if err != nil {
				return nil, err
			}
		}
		s, err := formatField(nil, v, conv, spec)
		if err != nil {
			return nil, err
		}
		b.WriteString(string(s.(py.String)))
	}
	return py.String(b.String()), nil
}
