package hosteval

// This file implements float() and int() of a string as Python reads
// them: surrounding whitespace, underscores between digits, and for floats
// inf, infinity and nan in any case with an optional sign.

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

var (
	pyFloatSyntax = regexp.MustCompile(`^[+-]?(?:(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|\.\d(?:_?\d)*|\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?)$`)
	pyIntSyntax   = regexp.MustCompile(`^[+-]?\d(?:_?\d)*$`)
)

// pyFloat is float(s) of Python; ok is false where Python raises
// ValueError. A finite literal too large for a float is infinite, as in
// Python.
func pyFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	body := strings.TrimLeft(s, "+-")
	neg := strings.HasPrefix(s, "-")
	if len(s)-len(body) <= 1 {
		switch strings.ToLower(body) {
		case "nan":
			return math.NaN(), true
		case "inf", "infinity":
			if neg {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		}
	}
	if !pyFloatSyntax.MatchString(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range: inf or 0, as Python
		return 0, false
	}
	return f, true
}

// pyInt is int(s) of Python, base 10.
func pyInt(s string) (*big.Int, bool) {
	s = strings.TrimSpace(s)
	if !pyIntSyntax.MatchString(s) {
		return nil, false
	}
	return new(big.Int).SetString(strings.ReplaceAll(strings.TrimPrefix(s, "+"), "_", ""), 10)
}

// pyQuote writes s as Python's repr of a str does, in single quotes.
func pyQuote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}
