package cudagen

import (
	"testing"
	"time"
)

// TestNamerSuffixes checks the names a base bound many times gets: the
// first free suffix in program order, skipping ones taken by other means.
func TestNamerSuffixes(t *testing.T) {
	n := newNamer()
	var got []string
	got = append(got, n.name("x"), n.name("x"), n.name("x_2"), n.name("x"), n.name("x"), n.name("int"), n.name("int"))
	want := []string{"x", "x_1", "x_2", "x_3", "x_4", "int_", "int__1"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("names = %v, want %v", got, want)
		}
	}
}

// TestNamerLinear names one base as often as a tl.static_range(16384)
// body binds it. Probing from suffix 1 at every call took O(N^2) probes
// (about 20 s here, minutes for the whole build); resuming takes
// milliseconds, so the bound is loose enough for the race detector.
func TestNamerLinear(t *testing.T) {
	const n = 50000
	nm := newNamer()
	start := time.Now()
	var last string
	for i := range n {
		last = nm.name("acc")
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%d names of one base took %v: the namer is quadratic", i+1, d)
		}
	}
	if last != "acc_49999" {
		t.Fatalf("last name = %s, want acc_49999", last)
	}
}
