package kernel

import (
	"errors"
	"testing"
)

// TestPointText: the saved text of every built-in point kernel reads back
// to the same kernel and agrees with the registered grammar (ParseSpec);
// other kernels and bad text are refused.
func TestPointText(t *testing.T) {
	for _, k := range []Kernel{Linear{}, Poly{A: 0.5, B: 1, Degree: 3}, RBF{Gamma: 0.1 + 0.2}, Laplacian{Gamma: 2}, Exponential{Gamma: 1e-300}} {
		s, ok := PointText(k)
		if !ok {
			t.Fatalf("%T: no text", k)
		}
		back, err := ParsePoint(s)
		if err != nil || back != k {
			t.Errorf("%q: read back %v (%v)", s, back, err)
		}
		sp, err := ParseSpec(s)
		if err != nil || sp.Point != k || sp.String() != s {
			t.Errorf("%q: ParseSpec gives %v (%v)", s, sp, err)
		}
	}
	if _, ok := PointText(nil); ok {
		t.Error("nil kernel has a text")
	}
	for _, s := range []string{"", "rbf", "rbf:x", "rbf:-1", "poly:1:1", "hck:average", "linear:1"} {
		if _, err := ParsePoint(s); !errors.Is(err, ErrUnknownKernel) && !errors.Is(err, ErrBadParam) {
			t.Errorf("ParsePoint(%q): %v", s, err)
		}
	}
}
