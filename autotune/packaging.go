package autotune

// This file implements the stand-in packaging module, whose version.parse
// host code uses to compare Triton's version with the one a feature needs
// (version.parse(triton.__version__) >= version.parse("3.4.0")); the
// triton stand-in's __version__ is the Triton tri follows. gpython calls
// only comparison methods written in Go, so a Version is a Go object.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-python/gpython/py"
)

// packagingStandIn is the Python part of the stand-in: the version
// namespace around _version (parseVersion).
const packagingStandIn = `
class _Namespace:
    pass


def _parse(text):
    return _version(text)


version = _Namespace()
version.parse = _parse
version.Version = _parse
version.InvalidVersion = ValueError
`

// pyVersion is a parsed version. It compares by its release numbers,
// trailing zeros dropped; one with a pre-release or development suffix
// (3.4.0rc1, 3.4.0.dev0) comes before its release, as PEP 440 orders
// them; a local label (+cu124) is ignored.
type pyVersion struct {
	public  string
	release []int
	pre     bool
}

var versionType = py.NewType("Version", "packaging.version.Version in tri's host Python")

// Type returns the Version type.
func (v *pyVersion) Type() *py.Type { return versionType }

// parseVersion is _version(text) of the stand-in.
func parseVersion(self py.Object, arg py.Object) (py.Object, error) {
	s, ok := arg.(py.String)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "expected string or bytes-like object, got '%s'", arg.Type().Name)
	}
	v, err := newVersion(string(s))
	if err != nil {
		return nil, py.ExceptionNewf(py.ValueError, "%v", err)
	}
	return v, nil
}

func newVersion(text string) (*pyVersion, error) {
	v := &pyVersion{public: strings.TrimSpace(text)}
	s, _, _ := strings.Cut(strings.ToLower(v.public), "+")
	s = strings.TrimPrefix(s, "v")
	for _, part := range strings.Split(s, ".") {
		n := 0
		for n < len(part) && part[n] >= '0' && part[n] <= '9' {
			n++
		}
		if n == 0 {
			v.pre = true
			break
		}
		x, err := strconv.Atoi(part[:n])
		if err != nil {
			return nil, fmt.Errorf("Invalid version: '%s'", v.public)
		}
		v.release = append(v.release, x)
		if n < len(part) {
			v.pre = true
			break
		}
	}
	if len(v.release) == 0 {
		return nil, fmt.Errorf("Invalid version: '%s'", v.public)
	}
	return v, nil
}

// compare orders v and other (a Version or a string); false if other is
// neither.
func (v *pyVersion) compare(other py.Object) (int, bool) {
	var w *pyVersion
	switch o := other.(type) {
	case *pyVersion:
		w = o
	case py.String:
		var err error
		if w, err = newVersion(string(o)); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	trim := func(r []int) []int {
		for len(r) > 1 && r[len(r)-1] == 0 {
			r = r[:len(r)-1]
		}
		return r
	}
	if c := slices.Compare(trim(v.release), trim(w.release)); c != 0 {
		return c, true
	}
	switch {
	case v.pre == w.pre:
		return 0, true
	case v.pre:
		return -1, true
	}
	return 1, true
}

func (v *pyVersion) cmp(other py.Object, ok func(int) bool) (py.Object, error) {
	c, known := v.compare(other)
	if !known {
		return py.NotImplemented, nil
	}
	return py.NewBool(ok(c)), nil
}

// M__eq__ and the other comparisons order versions.
func (v *pyVersion) M__eq__(other py.Object) (py.Object, error) {
	return v.cmp(other, func(c int) bool { return c == 0 })
}

// M__ne__ is !=.
func (v *pyVersion) M__ne__(other py.Object) (py.Object, error) {
	return v.cmp(other, func(c int) bool { return c != 0 })
}

// M__lt__ is <.
func (v *pyVersion) M__lt__(other py.Object) (py.Object, error) {
	return v.cmp(other, func(c int) bool { return c < 0 })
}

// M__le__ is <=.
func (v *pyVersion) M__le__(other py.Object) (py.Object, error) {
	return v.cmp(other, func(c int) bool { return c <= 0 })
}

// M__gt__ is >.
func (v *pyVersion) M__gt__(other py.Object) (py.Object, error) {
	return v.cmp(other, func(c int) bool { return c > 0 })
}

// M__ge__ is >=.
func (v *pyVersion) M__ge__(other py.Object) (py.Object, error) {
	return v.cmp(other, func(c int) bool { return c >= 0 })
}

// M__str__ is the version as written.
func (v *pyVersion) M__str__() (py.Object, error) { return py.String(v.public), nil }

// M__repr__ is <Version('3.6.0')>.
func (v *pyVersion) M__repr__() (py.Object, error) {
	return py.String("<Version('" + v.public + "')>"), nil
}

// M__getattr__ reads major, minor, micro, release, public, base_version
// and is_prerelease.
func (v *pyVersion) M__getattr__(name string) (py.Object, error) {
	at := func(i int) py.Object {
		if i < len(v.release) {
			return py.Int(v.release[i])
		}
		return py.Int(0)
	}
	switch name {
	case "major":
		return at(0), nil
	case "minor":
		return at(1), nil
	case "micro":
		return at(2), nil
	case "release":
		t := make(py.Tuple, len(v.release))
		for i, x := range v.release {
			t[i] = py.Int(x)
		}
		return t, nil
	case "public":
		return py.String(v.public), nil
	case "base_version":
		parts := make([]string, len(v.release))
		for i, x := range v.release {
			parts[i] = strconv.Itoa(x)
		}
		return py.String(strings.Join(parts, ".")), nil
	case "is_prerelease":
		return py.NewBool(v.pre), nil
	}
	return nil, py.ExceptionNewf(py.AttributeError, "'Version' object has no attribute '%s'", name)
}
