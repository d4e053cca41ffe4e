package autotune

import "testing"

// TestVersionOrder: the stand-in's versions order as packaging's do for
// the forms version checks use (PEP 440 release numbers, a pre-release or
// development suffix before its release, local labels ignored).
func TestVersionOrder(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"3.6.0", "3.4.0", 1},
		{"3.4", "3.4.0", 0},
		{"3.10.0", "3.9.1", 1},
		{"3.4.0rc1", "3.4.0", -1},
		{"3.4.0.dev0", "3.4.0", -1},
		{"3.3.9", "3.4.0rc1", -1},
		{"3.6.0+cu124", "3.6.0", 0},
		{"v2.1", "2.1.0", 0},
	} {
		a, err := newVersion(c.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := newVersion(c.b)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := a.compare(b); !ok || got != c.want {
			t.Errorf("%s vs %s: %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if _, err := newVersion("abc"); err == nil {
		t.Error("abc parsed as a version")
	}
}
