package autotune

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPercentFormat: str % values in host code gives CPython's text and
// errors (gpython's handed the values to Go's fmt: '%r' % 'x' was "x",
// '%s' % ([1],) was &{[1]}).
func TestPercentFormat(t *testing.T) {
	h, sf, _ := hostSession(t, "\n\ndef f():\n    pass\n", Host{})
	at := sf.File.Host["f"].Pos
	for expr, want := range map[string]string{
		`'%5.2f|%-4d|%x|%#o|%s|%r' % (3.14159, 7, 255, 8, 'hi', 'hi')`:  ` 3.14|7   |ff|0o10|hi|'hi'`,
		`'%(a)s and %(b)r' % {'a': [1, 2], 'b': 'x'}`:                   `[1, 2] and 'x'`,
		`'%s %d %.3e %g %c %%' % ((1, 2), -5.7, 12345.678, 0.0001, 65)`: `(1, 2) -5 1.235e+04 0.0001 A %`,
		`'%+05d|% d|%05.1f|%X|%#x' % (42, 3, -2.5, 255, 255)`:           `+0042| 3|-02.5|FF|0xff`,
		`'%*d|%-*d|' % (4, 1, 3, 2)`:                                    `   1|2  |`,
		`'%d%%|%.2s|%e|%g|%i|%s' % (50, 'abc', 0, 1e20, True, None)`:    `50%|ab|0.000000e+00|1e+20|1|None`,
		`'%s' % [1, (2,), {'k': 'v'}]`:                                  `[1, (2,), {'k': 'v'}]`,
		`'x' % ()`:                                                      `x`,
		`'%a' % 'é'`:                                                    `'\xe9'`,
	} {
		v, err := h.eval(expr, at, "test")
		require.NoError(t, err, expr)
		got, err := fromPy(v)
		require.NoError(t, err)
		assert.Equal(t, want, got.Str, expr)
	}
	for expr, want := range map[string]string{
		`'%d' % 'x'`:         "TypeError: %d format: a real number is required, not str",
		`'%x' % 1.5`:         "TypeError: %x format: an integer is required, not float",
		`'%s %s' % (1,)`:     "TypeError: not enough arguments for format string",
		`'%s' % (1, 2)`:      "TypeError: not all arguments converted during string formatting",
		`'%y' % 1`:           "ValueError: unsupported format character 'y' (0x79) at index 1",
		`'%(a)s' % (1,)`:     "TypeError: format requires a mapping",
		`'%(a)s' % {}`:       "KeyError: 'a'",
		`'%9999999999d' % 1`: "MemoryError: tri's host Python refuses a str of more than",
	} {
		_, err := h.eval(expr, at, "test")
		require.Error(t, err, expr)
		assert.Contains(t, err.Error(), want, expr)
	}
}
