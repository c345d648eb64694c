package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestEmbedLanczosMatchesFull: on N = 1000 (the Lanczos path of Embed) the
// Lanczos and full-decomposition embeddings agree column by column (same
// sign convention) to 1e-8·max|Z|, eigenvectors being accurate to
// residual/gap.
func TestEmbedLanczosMatchesFull(t *testing.T) {
	if testing.Short() {
		t.Skip("O(N³) reference decomposition")
	}
	n := 1000
	rng := rand.New(rand.NewPCG(5, 5))
	data := make([]float64, n*2)
	for i := range data {
		data[i] = rng.Float64()
	}
	// RBF Gram of 2-d points: a few separated top eigenvalues.
	K, err := Gram(context.Background(), nil, RBF{Gamma: 3}, mat.NewDense(n, 2, data))
	if err != nil {
		t.Fatal(err)
	}
	s := K.RawSymmetric()
	zl, ok := embedLanczos(context.Background(), s, 3)
	if !ok {
		t.Fatal("Lanczos did not converge")
	}
	zf, err := embedFull(context.Background(), s, 3)
	if err != nil {
		t.Fatal(err)
	}
	scale, diff := 0.0, 0.0
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			scale = math.Max(scale, math.Abs(zf.At(i, c)))
			diff = math.Max(diff, math.Abs(zf.At(i, c)-zl.At(i, c)))
		}
	}
	if diff > 1e-8*scale {
		t.Errorf("Lanczos vs full embedding: max diff %v (scale %v)", diff, scale)
	}
}
