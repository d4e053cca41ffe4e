// Package apizero holds only a test: it calls every exported function and
// method of tri's Go API packages with nil and zero arguments (and with
// negative numbers, NaN and odd texts) and checks
// that each returns (an error, usually) rather than panics. A new exported
// name that the test's tables do not list fails the test, so the check
// grows with the API.
package apizero
