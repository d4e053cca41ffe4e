package sema

// This file implements the early returns of @jit helpers: Triton lets a
// function return from one branch of an if and go on after it. tri
// compiles a helper's runtime if only when both branches return or
// neither does (control.go), so the statements after such an if move
// into its other branch, which then ends with the function's implicit
// `return None` if it has no return of its own.

import "github.com/tri-lang/tri/frontend"

// alwaysReturns reports whether running list always reaches a return: its
// last statement is a return, or an if whose branches both always return.
func alwaysReturns(list []frontend.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *frontend.Return:
		return true
	case *frontend.If:
		return alwaysReturns(s.Then) && alwaysReturns(s.Else)
	}
	return false
}

// withEarlyReturns rewrites a helper's body so that no if is left with a
// return in one branch and statements after it: those statements move
// into the branch that does not return. The body's own slices and nodes
// are not modified (a helper is inlined at every call).
func withEarlyReturns(body []frontend.Stmt) []frontend.Stmt {
	for i, s := range body {
		iff, ok := s.(*frontend.If)
		if !ok {
			continue
		}
		thenRet, elseRet := alwaysReturns(iff.Then), alwaysReturns(iff.Else)
		if thenRet == elseRet {
			continue
		}
		rest := withEarlyReturns(body[i+1:])
		if !alwaysReturns(rest) {
			rest = append(rest, &frontend.Return{At: iff.At})
		}
		moved := &frontend.If{At: iff.At, Cond: iff.Cond, Then: iff.Then, Else: iff.Else}
		if thenRet {
			moved.Else = append(append([]frontend.Stmt{}, iff.Else...), rest...)
		} else {
			moved.Then = append(append([]frontend.Stmt{}, iff.Then...), rest...)
		}
		return append(append([]frontend.Stmt{}, body[:i]...), moved)
	}
	return body
}
