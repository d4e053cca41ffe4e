package sema

// This file implements Python's getattr and hasattr in kernels, as Triton's
// code generator runs them on the objects it holds: getattr(libdevice, fn)
// with a constexpr string picks a function by name, and hasattr(x, "dtype")
// tells a tensor from a constexpr or None.

import (
	"github.com/tri-lang/tri/diag"
)

func addPyAttrBuiltins() {
	builtins["getattr"] = &builtin{[]string{"obj", "name", "default"}, 2, bGetattr}
	builtins["hasattr"] = &builtin{[]string{"obj", "name"}, 2, bHasattr}
}

// attrName is the compile-time string that names an attribute, or "" after
// reporting why it is not one.
func (c *compiler) attrName(a *args, v *val) string {
	if v.k == kInvalid {
		return ""
	}
	if v.k != kStr {
		c.errorf(a.pos, diag.CodeType, "%s(): attribute name must be a compile-time string, not %s", a.name, v.describe())
		return ""
	}
	return v.s
}

func bGetattr(c *compiler, a *args) *val {
	obj := a.vals[0]
	name := c.attrName(a, a.vals[1])
	if obj.k == kInvalid || name == "" {
		return invalid
	}
	if def := a.vals[2]; def != nil {
		if v, ok := c.probeAttr(obj, name, a.pos); ok {
			return v
		}
		return def
	}
	return c.attrOf(obj, name, a.pos)
}

func bHasattr(c *compiler, a *args) *val {
	obj := a.vals[0]
	name := c.attrName(a, a.vals[1])
	if obj.k == kInvalid || name == "" {
		return invalid
	}
	_, ok := c.probeAttr(obj, name, a.pos)
	return boolVal(ok)
}

// probeAttr evaluates obj.name without reporting an error: the value and
// true if obj has the attribute, false if taking it fails (Python's
// AttributeError, which hasattr and getattr with a default catch).
func (c *compiler) probeAttr(obj *val, name string, pos diag.Pos) (*val, bool) {
	diags, seen := c.diags, c.seen
	c.diags, c.seen = &diag.List{}, map[string]bool{}
	v := c.attrOf(obj, name, pos)
	failed := c.diags.HasErrors()
	c.diags, c.seen = diags, seen
	if failed || v.k == kInvalid {
		return nil, false
	}
	return v, true
}
