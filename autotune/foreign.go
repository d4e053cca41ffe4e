package autotune

// This file implements the autotune decorators whose configs cannot be
// evaluated because they come from a module tri does not run
// (configs=make_configs() with make_configs from a library of the
// project's environment): as Python on a machine with that library would
// take them, the decorator is kept out, with a warning, and the launch
// gives the values the configs would have given.

import (
	"errors"
	"regexp"

	"github.com/tri-lang/tri/diag"
)

// nameError finds the name of a NameError in an error's text.
var nameError = regexp.MustCompile(`NameError: name '([A-Za-z_][A-Za-z_0-9]*)' is not defined`)

// foreignName reports the name and module path of the imported name that
// err, an evaluation's error, failed on for want of a module tri does not
// run.
func (h *hostPython) foreignName(err error) (name, path string, ok bool) {
	var d *diag.Diagnostic
	if !errors.As(err, &d) {
		return "", "", false
	}
	m := nameError.FindStringSubmatch(d.Message)
	if m == nil {
		return "", "", false
	}
	path, ok = h.foreign[m[1]]
	return m[1], path, ok
}
