package conformance

// The tests evaluate autotuned samples, whose decorators are host Python.
import _ "github.com/tri-lang/tri/hostpy"
