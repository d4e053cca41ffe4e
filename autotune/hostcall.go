package autotune

// This file implements the calls that a launch line or --let makes to the
// kernel file's own host functions (NUM_SMS=num_sms(), a config function,
// USE_GDC=supports_pdl()): they run in gpython's interpreter over the whole
// module, as Python would after importing the file.

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"

	"github.com/go-python/gpython/py"

	"github.com/tri-lang/tri/diag"
	"github.com/tri-lang/tri/hosteval"
)

// HostCalls returns the caller of src's host functions for a launch line
// and --let; the interpreter starts on the first call.
func HostCalls(src *Source, arch func() string, host Host) hosteval.HostFuncs {
	return &hostCalls{src: src, arch: arch, host: host}
}

type hostCalls struct {
	src  *Source
	arch func() string
	host Host

	mu       sync.Mutex
	h        *hostPython
	startErr error
}

// Has reports whether the file binds name in its host code (a def that is
// not @jit, or an assignment tri does not read).
func (c *hostCalls) Has(name string) bool {
	return c.src.File != nil && len(c.src.File.HostBindings(name, 0)) > 0
}

// Call runs name's definition, and what it needs, then calls it.
func (c *hostCalls) Call(name string, args []hosteval.Value, kwargs map[string]hosteval.Value) (hosteval.Value, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.h == nil && c.startErr == nil {
		stderr := c.host.Stderr
		if stderr == nil {
			stderr = io.Discard
		}
		c.h, c.startErr = newHostPython(c.src, c.arch, c.host, stderr)
	}
	if c.startErr != nil {
		return hosteval.Value{}, c.startErr
	}
	h := c.h
	defs := c.src.File.HostBindings(name, 0)
	pos := defs[len(defs)-1].Pos
	what := "calling " + name + "()"
	if err := h.require([]string{name}, pos, what); err != nil {
		return hosteval.Value{}, err
	}
	fn, ok := h.globals[name]
	if !ok {
		return hosteval.Value{}, hosteval.Usage(diag.Errorf(pos, diag.CodeValue, "%s: %s is not bound", what, name))
	}
	pyArgs := make(py.Tuple, len(args))
	for i, a := range args {
		o, err := h.toPy(a)
		if err != nil {
			return hosteval.Value{}, fmt.Errorf("argument %d: %v", i+1, err)
		}
		pyArgs[i] = o
	}
	var pyKw py.StringDict
	if len(kwargs) > 0 {
		pyKw = py.StringDict{}
		for _, k := range slices.Sorted(maps.Keys(kwargs)) {
			o, err := h.toPy(kwargs[k])
			if err != nil {
				return hosteval.Value{}, fmt.Errorf("argument %s: %v", k, err)
			}
			pyKw[k] = o
		}
	}
	out, err := h.callRead(fn, pyArgs, pyKw, pos, what)
	if err != nil {
		return hosteval.Value{}, err
	}
	if out.err != nil {
		return hosteval.Value{}, fmt.Errorf("it returned %v", out.err)
	}
	return out.val, nil
}
