package frontend

// This file implements the limits on how deeply and how long expressions
// may nest, checked on the text before anything parses it: the parsers and
// every later pass recurse over expressions, so a hostile input (a million
// unary minuses, a three-megabyte sum on one line, a hundred thousand
// parentheses) would otherwise exhaust the stack or the memory instead of
// getting an error.

import "github.com/tri-lang/tri/diag"

const (
	// maxNesting bounds the depth of brackets, as CPython's parser does
	// ("too many nested parentheses").
	maxNesting = 200
	// maxOperators bounds the operators of one logical line (the bytes of
	// operators, '.', and the keywords not, and, or, if, lambda): each can
	// add a level to an expression's tree. Real kernels use a few dozen.
	maxOperators = 10000
)

// checkLimits reports the first place in src (named name) where brackets
// nest deeper than maxNesting or a logical line holds more than
// maxOperators operators.
func checkLimits(name, src string) *diag.Diagnostic {
	line, lineStart := 1, 0
	depth, ops := 0, 0
	at := func(i int) diag.Pos { return diag.Pos{File: name, Line: line, Col: i - lineStart + 1} }
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line, lineStart = line+1, i+1
			if depth == 0 {
				ops = 0
			}
			i++
			continue
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2
			line, lineStart = line+1, i
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '\'' || c == '"':
			j, l := skipString(src, i, line)
			if l != line {
				line = l
				for k := j - 1; k >= i; k-- {
					if src[k] == '\n' {
						lineStart = k + 1
						break
					}
				}
			}
			i = j
			continue
		case c == '(' || c == '[' || c == '{':
			if depth++; depth > maxNesting {
				return diag.Errorf(at(i), diag.CodeSyntax, "too many nested parentheses: the most is %d, as in Python", maxNesting)
			}
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		case isOperatorByte(c) || c == '.' && i+1 < len(src) && isIdentStart(src[i+1]):
			// Each byte counts: "--x" is two unary minuses.
			if ops++; ops > maxOperators {
				return diag.Errorf(at(i), diag.CodeSyntax, "expression too long: more than %d operators in one statement", maxOperators)
			}
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			switch src[i:j] {
			case "not", "and", "or", "if", "lambda":
				if ops++; ops > maxOperators {
					return diag.Errorf(at(i), diag.CodeSyntax, "expression too long: more than %d operators in one statement", maxOperators)
				}
			}
			i = j
			continue
		}
		i++
	}
	return nil
}

func isOperatorByte(c byte) bool {
	switch c {
	case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', '=', '!':
		return true
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
