// Package pyrules defines Python's arithmetic on numbers once, for the two
// places where tri evaluates Python: constexpr folding in kernels (sema, on
// unbounded integers) and the host evaluator of launch lines and --let
// (launch, on int64).
//
// The rules: // floors and % takes the sign of the divisor (for ints and
// floats alike); / always gives a float; an int combined with a float gives
// a float; ** with a negative integer exponent gives a float; bools take
// part in arithmetic as 0 and 1. Host integers are int64: a result out of
// that range is ErrOverflow, never a wrapped number.
package pyrules
