package vec

import "testing"

func TestDotSmallIntegers(t *testing.T) {
	// Integer-valued products are exact in any order: closed form Σ i·(i+1).
	for n := 0; n <= 11; n++ {
		x := make([]float64, n)
		y := make([]float64, n+3) // y may be longer than x
		want := 0.0
		for i := range x {
			x[i], y[i] = float64(i), float64(i+1)
			want += float64(i * (i + 1))
		}
		if got := Dot(x, y); got != want {
			t.Errorf("n=%d: Dot = %v, want %v", n, got, want)
		}
	}
}

// TestDotOrder pins the documented summation order: with four accumulators
// 1e16 and −1e16 absorb the ones differently from a left-to-right sum
// (which gives 2).
func TestDotOrder(t *testing.T) {
	x := []float64{1e16, 1, -1e16, 1, 1}
	y := []float64{1, 1, 1, 1, 1}
	// s0 = 1e16+1 = 1e16, s1 = 1, s2 = −1e16, s3 = 1;
	// (1e16+1) + (−1e16+1) = 1e16 − 1e16 = 0 in float64.
	if got := Dot(x, y); got != 0 {
		t.Fatalf("Dot = %v, want 0 (four-accumulator order)", got)
	}
}

func BenchmarkDot(b *testing.B) {
	x := make([]float64, 256)
	for i := range x {
		x[i] = float64(i%7) - 3
	}
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += Dot(x, x)
	}
	_ = s
}
