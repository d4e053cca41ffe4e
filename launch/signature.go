package launch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/frontend"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/ir"
	"github.com/tri-lang/tri/sema"
)

// ParseSignature reads a signature in the format of Triton's ahead-of-time
// compiler: one comma-separated entry per parameter of fn, each a pointer
// type (*fp32, optionally :16 for 16-byte alignment), a scalar type (i32,
// i64, fp32, ...; :16 divisible by 16, :1 equal to one), a host tensor
// descriptor (tensordesc<fp16[64, 64]>, optionally :nan) or a literal, which
// makes the parameter a constexpr. Parameters annotated tl.constexpr take a
// literal (a number, True/False, a quoted string, None or a dtype name).
// Errors are placed in the text, named "--signature", and so are the
// errors that a literal's value causes in the kernel (sema.Arg.At).
func ParseSignature(fn *frontend.Func, sig string) (_ sema.Signature, err error) {
	if fn == nil {
		return sema.Signature{}, errors.New("launch.ParseSignature: no kernel (nil)")
	}
	const src = signatureSource
	defer hosteval.AttachSource(&err, src, sig)
	entries := splitTopLevel(sig)
	if len(entries) == 1 && strings.TrimSpace(entries[0].text) == "" {
		entries = nil
	}
	if len(entries) != len(fn.Params) {
		return sema.Signature{}, hosteval.Usage(hosteval.ErrAt(src, 1, fmt.Sprintf("%s has %d parameters (%s) but the signature has %d entries",
			fn.Name, len(fn.Params), paramList(fn), len(entries))))
	}
	out := sema.Signature{Args: make([]sema.Arg, len(entries))}
	for i, e := range entries {
		p := fn.Params[i]
		text := strings.TrimSpace(e.text)
		col := e.col + (len(e.text) - len(strings.TrimLeft(e.text, " \t")))
		arg, err := parseEntry(text, p.Constexpr)
		if err != nil {
			return sema.Signature{}, hosteval.Usage(hosteval.ErrAt(src, col, fmt.Sprintf("parameter %s: %v", p.Name, err)))
		}
		if arg.Kind == sema.ArgConstexpr {
			arg.At = diag.Pos{File: src, Line: 1, Col: col}
		}
		out.Args[i] = arg
	}
	return out, nil
}

func paramList(fn *frontend.Func) string {
	names := make([]string, len(fn.Params))
	for i, p := range fn.Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

type sigEntry struct {
	text string
	col  int // 1-based column of the entry's first byte
}

// splitTopLevel splits at commas outside quotes and brackets (the block
// shape of tensordesc<fp16[64, 64]>:shape(16,16)).
func splitTopLevel(s string) []sigEntry {
	var out []sigEntry
	start := 0
	var quote byte
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '<' || c == '(':
			depth++
		case (c == ']' || c == '>' || c == ')') && depth > 0:
			depth--
		case c == ',' && depth == 0:
			out = append(out, sigEntry{s[start:i], start + 1})
			start = i + 1
		}
	}
	return append(out, sigEntry{s[start:], start + 1})
}

func parseEntry(text string, constexpr bool) (sema.Arg, error) {
	if text == "" {
		return sema.Arg{}, fmt.Errorf("empty entry")
	}
	if constexpr {
		v, err := parseLiteral(text)
		if err != nil {
			return sema.Arg{}, fmt.Errorf("is a tl.constexpr and needs a literal value: %v", err)
		}
		return sema.Arg{Kind: sema.ArgConstexpr, Value: v}, nil
	}
	if rest, ok := strings.CutPrefix(text, "tensordesc<"); ok {
		return parseDescEntry(rest)
	}
	typ, hint, hasHint := strings.Cut(text, ":")
	if d, ok := ir.ParseDType(typ); ok && !strings.HasPrefix(typ, "tl.") {
		arg := sema.Arg{Kind: sema.ArgRuntime, DType: d}
		if hasHint {
			switch strings.TrimSpace(hint) {
			case "16":
				arg.DivisibleBy16 = true
			case "1":
				if d.IsPtr() || !d.Kind.IsInt() {
					return sema.Arg{}, fmt.Errorf(":1 applies to integers only")
				}
				arg = sema.Arg{Kind: sema.ArgOne, DType: d}
			default:
				return sema.Arg{}, fmt.Errorf("unknown hint :%s (want :16 or :1)", hint)
			}
		}
		return arg, nil
	}
	v, err := parseLiteral(text)
	if err != nil {
		return sema.Arg{}, fmt.Errorf("%q is neither a type (*fp32, i32, fp16, ...) nor a literal", text)
	}
	if v.Kind == sema.CNone {
		return sema.Arg{Kind: sema.ArgNone}, nil
	}
	return sema.Arg{Kind: sema.ArgConstexpr, Value: v}, nil
}

// parseLiteral reads a constexpr literal of a signature.
func parseLiteral(s string) (sema.Constexpr, error) {
	switch s {
	case "True", "true":
		return sema.Constexpr{Kind: sema.CBool, Bool: true}, nil
	case "False", "false":
		return sema.Constexpr{Kind: sema.CBool}, nil
	case "None":
		return sema.Constexpr{Kind: sema.CNone}, nil
	}
	if n := len(s); n >= 2 && (s[0] == '\'' || s[0] == '"') && s[n-1] == s[0] {
		return sema.Constexpr{Kind: sema.CStr, Str: s[1 : n-1]}, nil
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		return sema.Constexpr{Kind: sema.CInt, Int: i}, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return sema.Constexpr{Kind: sema.CFloat, Float: f}, nil
	}
	if d, ok := ir.ParseDType(s); ok {
		return sema.Constexpr{Kind: sema.CDType, DType: d}, nil
	}
	return sema.Constexpr{}, fmt.Errorf("cannot read %q", s)
}

// signatureSource names the text of --signature in positions.
const signatureSource = "--signature"
