package main

// This file implements --json: errors and warnings as JSON lines on
// stderr, for editors and CI.

import (
	"errors"
	"io"
	"slices"

	"github.com/spf13/cobra"
	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/gpu"
	"github.com/tri-lang/tri/hosteval"
	"github.com/tri-lang/tri/launch"
	"github.com/tri-lang/tri/nvrtc"
)

// jsonHelp is --json's usage line.
const jsonHelp = "print errors and warnings on stderr as JSON, one object a line: file, line, column, severity, code, message, notes (each with file, line, column), suggestion (other stderr lines do not start with '{'; the exit code is unchanged)"

// jsonFlag registers --json.
func jsonFlag(c *cobra.Command, o *launch.Options) {
	c.Flags().BoolVar(&o.JSON, "json", false, jsonHelp)
}

// report writes the error a command returned, as JSON lines when it was
// asked for with --json (also when the command line failed before --json
// was read: args holds it), else for a person, and returns the exit code.
func report(w io.Writer, c *cobra.Command, args []string, err error) int {
	if err == nil {
		return 0
	}
	if wantsJSON(c, args) {
		writeJSON(w, err)
	} else {
		hosteval.PrintError(w, err)
	}
	return hosteval.ExitCode(err)
}

func wantsJSON(c *cobra.Command, args []string) bool {
	if c != nil {
		if f := c.Flags().Lookup("json"); f != nil && f.Changed {
			return f.Value.String() == "true"
		}
	}
	return slices.Contains(args, "--json") || slices.Contains(args, "--json=true")
}

// writeJSON writes err as JSON lines: its diagnostics, or one object with
// the code of its kind, the hint of a hinted error as the suggestion.
func writeJSON(w io.Writer, err error) {
	var d *diag.Diagnostic
	var l *diag.List
	var h *hintedError
	switch {
	case errors.As(err, &d) || errors.As(err, &l):
		_ = diag.WriteJSON(w, err, "")
	case errors.As(err, &h):
		_ = diag.WriteJSON(w, &diag.Diagnostic{Severity: diag.Error, Code: errorCode(err), Message: h.err.Error(), Suggestion: h.hint}, "")
	default:
		_ = diag.WriteJSON(w, err, errorCode(err))
	}
}

// errorCode is the code of an error placed in no text.
func errorCode(err error) diag.Code {
	switch {
	case errors.Is(err, gpu.ErrNoGPU), errors.Is(err, nvrtc.ErrNotFound):
		return diag.CodeNoGPU
	case hosteval.ExitCode(err) == 2:
		return diag.CodeUsage
	}
	return diag.CodeError
}
