package dataset

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// TestScalerSumsBlocks: over several blocks of parallel.BlockRows rows,
// FitScaler's "std" statistics are the closed forms of a column of the
// integers 0..n−1 (mean (n−1)/2, variance (n²−1)/12, exact in float64 at
// this size), a column with NaN cells counts only its values, and sums of
// the blocks merged in block order (as a fit in parts does) give
// FitScaler's scaler exactly.
func TestScalerSumsBlocks(t *testing.T) {
	n := 2*parallel.BlockRows + 123
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, float64(i))
		v := 3.0
		if i%2 == 1 {
			v = math.NaN()
		}
		if i%4 == 2 {
			v = 5
		}
		X.Set(i, 1, v)
	}
	s, err := FitScaler(X, "std")
	if err != nil {
		t.Fatal(err)
	}
	fn := float64(n)
	if s.Shift[0] != (fn-1)/2 || math.Abs(s.Factor[0]-math.Sqrt((fn*fn-1)/12)) > 1e-9*s.Factor[0] {
		t.Errorf("column 0: shift %v factor %v, want %v and %v", s.Shift[0], s.Factor[0], (fn-1)/2, math.Sqrt((fn*fn-1)/12))
	}
	if math.Abs(s.Shift[1]-4) > 1e-9 || math.Abs(s.Factor[1]-1) > 1e-9 {
		t.Errorf("column 1 (3 and 5 alternating, NaN between): shift %v factor %v, want 4 and 1", s.Shift[1], s.Factor[1])
	}
	sums := NewScalerSums(2)
	var parts []ScalerSums
	for b := 0; b < parallel.Blocks(n); b++ {
		lo, hi := parallel.Block(b, n)
		p := NewScalerSums(2)
		p.Add(X.Slice(lo, hi, 0, 2).(*mat.Dense))
		parts = append(parts, p)
	}
	for _, p := range parts {
		sums.Merge(p)
	}
	ss := make([]float64, 2)
	for b := 0; b < parallel.Blocks(n); b++ {
		lo, hi := parallel.Block(b, n)
		for j, v := range SquaredDeviations(X.Slice(lo, hi, 0, 2).(*mat.Dense), sums.Means()) {
			ss[j] += v
		}
	}
	got, err := FitScalerSums("std", sums, ss)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 2; j++ {
		if got.Shift[j] != s.Shift[j] || got.Factor[j] != s.Factor[j] {
			t.Errorf("column %d: in parts %v/%v, FitScaler %v/%v", j, got.Shift[j], got.Factor[j], s.Shift[j], s.Factor[j])
		}
	}
}
