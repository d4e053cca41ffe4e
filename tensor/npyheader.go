package tensor

// This file implements parsing of the .npy header: a Python dict literal
// with the keys 'descr', 'fortran_order' and 'shape'.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/ir"
)

// npyHeader is what the header of a .npy file says about its array.
type npyHeader struct {
	descr     string
	kind      ir.Kind
	bigEndian bool
	shape     []int
}

// parseNPYHeader reads the header dict. Keys may come in any order; all
// three are required.
func parseNPYHeader(s string) (*npyHeader, error) {
	p := &headerParser{s: s}
	p.skipSpace()
	if !p.eat('{') {
		return nil, errors.New("want a dict literal")
	}
	h := &npyHeader{}
	seen := map[string]bool{}
	for {
		p.skipSpace()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return nil, fmt.Errorf("dict key: %v", err)
		}
		p.skipSpace()
		if !p.eat(':') {
			return nil, fmt.Errorf("want ':' after '%s'", key)
		}
		p.skipSpace()
		switch key {
		case "descr":
			d, err := p.str()
			if err != nil {
				return nil, fmt.Errorf("descr: %v", err)
			}
			h.descr = d
		case "fortran_order":
			b, err := p.boolean()
			if err != nil {
				return nil, fmt.Errorf("fortran_order: %v", err)
			}
			if b {
				return nil, errors.New("fortran_order is True; only C-order arrays are supported (save with np.ascontiguousarray)")
			}
		case "shape":
			sh, err := p.tuple()
			if err != nil {
				return nil, fmt.Errorf("shape: %v", err)
			}
			h.shape = sh
		default:
			return nil, fmt.Errorf("unknown key '%s'", key)
		}
		seen[key] = true
		p.skipSpace()
		if p.eat(',') {
			continue
		}
		p.skipSpace()
		if !p.eat('}') {
			return nil, errors.New("want ',' or '}' in the dict")
		}
		break
	}
	if rest := strings.TrimSpace(p.s[p.i:]); rest != "" {
		return nil, fmt.Errorf("unexpected %q after the dict", rest)
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return nil, fmt.Errorf("missing key '%s'", k)
		}
	}
	code := h.descr
	if code != "" && strings.ContainsRune("<>|=", rune(code[0])) {
		h.bigEndian = code[0] == '>'
		code = code[1:]
	}
	k, ok := npyKinds[code]
	if !ok {
		return nil, fmt.Errorf("unsupported dtype '%s' (want bool, int8..int64, uint8..uint64, float16, float32 or float64)", h.descr)
	}
	h.kind = k
	return h, nil
}

// headerParser scans the header text.
type headerParser struct {
	s string
	i int
}

func (p *headerParser) skipSpace() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *headerParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a quoted string without escapes.
func (p *headerParser) str() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", errors.New("want a quoted string")
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", errors.New("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *headerParser) boolean() (bool, error) {
	for _, w := range []string{"True", "False"} {
		if strings.HasPrefix(p.s[p.i:], w) {
			p.i += len(w)
			return w == "True", nil
		}
	}
	return false, errors.New("want True or False")
}

// tuple reads (d0, d1, ...) of non-negative integers; (n,) and () included.
func (p *headerParser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, errors.New("want a tuple")
	}
	dims := []int{}
	for {
		p.skipSpace()
		if p.eat(')') {
			return dims, nil
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		// Python 2 era files may write long integers as 3L.
		digits := p.s[start:p.i]
		if p.i < len(p.s) && p.s[p.i] == 'L' {
			p.i++
		}
		n, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			if digits != "" { // all digits: out of range
				return nil, fmt.Errorf("dimension %s is too large", digits)
			}
			return nil, fmt.Errorf("want a non-negative dimension at %q", p.s[start:])
		}
		dims = append(dims, int(n))
		p.skipSpace()
		if p.eat(',') {
			continue
		}
		if p.eat(')') {
			return dims, nil
		}
		return nil, errors.New("want ',' or ')' in the tuple")
	}
}
