package kernel

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBuiltCheckFinite: the first non-finite entry of the upper triangle in
// row order is named with the kernel, and the error is ErrNonFinite; a
// finite matrix passes. poly:1:1:200 on values near 40 overflows.
func TestBuiltCheckFinite(t *testing.T) {
	X := mat.NewDense(3, 1, []float64{0.5, 40, 41})
	sp, err := ParseSpec("poly:1:1:200")
	if err != nil {
		t.Fatal(err)
	}
	built, err := BuildAll(t.Context(), X, []Spec{sp}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = built[0].CheckFinite()
	want := "kernel poly:1:1:200: entry (1, 1) is +Inf: its values overflow float64 (or are undefined) for these data; scale the features (--scale std or minmax) or choose smaller parameters (degree, a, b, gamma)"
	if err == nil || err.Error() != want || !errors.Is(err, ErrNonFinite) {
		t.Errorf("got %v, want %q (ErrNonFinite)", err, want)
	}
	built[0].K.SetSym(1, 1, 1)
	built[0].K.SetSym(1, 2, math.NaN())
	built[0].K.SetSym(2, 2, 1)
	if err := built[0].CheckFinite(); err == nil || err.Error()[:38] != "kernel poly:1:1:200: entry (1, 2) is N" {
		t.Errorf("got %v, want entry (1, 2) NaN", err)
	}
	sp, _ = ParseSpec("poly:1:1:2")
	if built, err = BuildAll(t.Context(), X, []Spec{sp}, BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := built[0].CheckFinite(); err != nil {
		t.Errorf("finite matrix: %v", err)
	}
}
