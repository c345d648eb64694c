package propagate_test

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

// TestFloat32Affinity: a float32 kernel (kernel.Sym32) as the precomputed
// affinity is stored in float32 (half the memory) and every weight is
// widened before use, in the same order of operations: propagation and
// spreading, closed and iterative, give the float64 fit on the same values
// bit for bit (label distributions, iterations).
func TestFloat32Affinity(t *testing.T) {
	ctx := context.Background()
	ds := dataset.Moons(150, 0.1, 7)
	K32, err := kernel.Gram32(ctx, nil, kernel.RBF{Gamma: 2}, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	n := K32.SymmetricDim()
	K64 := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			K64.SetSym(i, j, K32.At(i, j))
		}
	}
	y := make([]int, n)
	seen := map[int]int{}
	for i := range y {
		y[i] = learner.Unlabeled
		if seen[ds.Y[i]] < 3 {
			seen[ds.Y[i]]++
			y[i] = ds.Y[i]
		}
	}
	same := func(name string, a, b *propagate.Model) {
		t.Helper()
		if a.Iter != b.Iter || !mat.Equal(a.Distributions, b.Distributions) {
			t.Errorf("%s: float32 affinity fit differs from float64 (iter %d vs %d)", name, b.Iter, a.Iter)
		}
	}
	for _, m := range []string{propagate.Closed, propagate.Iterative} {
		p := propagate.Propagation{Affinity: propagate.Affinity{Kind: propagate.Precomputed}, Method: m}
		a, err := p.FitGram(ctx, K64, y)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.FitGram(ctx, K32, y)
		if err != nil {
			t.Fatal(err)
		}
		same("propagation "+m, a, b)
		s := propagate.Spreading{Affinity: propagate.Affinity{Kind: propagate.Precomputed}, Method: m, Alpha: 0.2}
		a, err = s.FitGram(ctx, K64, y)
		if err != nil {
			t.Fatal(err)
		}
		b, err = s.FitGram(ctx, K32, y)
		if err != nil {
			t.Fatal(err)
		}
		same("spreading "+m, a, b)
	}
	// the caller's matrix is not modified (the graph drops self-loops in
	// its own copy)
	if K32.At(0, 0) != 1 {
		t.Errorf("K32[0,0] = %v after the fits, want 1", K32.At(0, 0))
	}
}
