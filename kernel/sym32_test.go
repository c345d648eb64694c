package kernel

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestGram32: every entry of the float32 Gram matrix is the float64 Gram
// entry rounded to float32 (for kernels with and without a Column32 fast
// path), the matrix is exactly symmetric, and Sym32Of rounds the same way.
func TestGram32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, d = 300, 6
	X := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			X.Set(i, j, r.NormFloat64())
		}
	}
	ctx := context.Background()
	for _, k := range []Kernel{RBF{Gamma: 0.4}, Laplacian{Gamma: 0.3}, Exponential{Gamma: 0.5}, Linear{}, Poly{A: 0.5, B: 1, Degree: 3}} {
		K64, err := Gram(ctx, nil, k, X)
		if err != nil {
			t.Fatal(err)
		}
		K32, err := Gram32(ctx, nil, k, X)
		if err != nil {
			t.Fatal(err)
		}
		viaOf := Sym32Of(K64)
		for i := range n {
			for j := range n {
				want := float64(float32(K64.At(i, j)))
				if got := K32.At(i, j); got != want || K32.At(j, i) != got {
					t.Fatalf("%T: K32[%d][%d] = %v, K32[%d][%d] = %v, float32(K64) = %v", k, i, j, got, j, i, K32.At(j, i), want)
				}
				if viaOf.At(i, j) != want {
					t.Fatalf("%T: Sym32Of[%d][%d] = %v, want %v", k, i, j, viaOf.At(i, j), want)
				}
			}
		}
	}
	if got := Sym32Bytes(1000); got != 4e6 {
		t.Errorf("Sym32Bytes(1000) = %v, want 4e6", got)
	}
	if _, err := Gram32(ctx, NewSym32(3), RBF{Gamma: 1}, X); err == nil {
		t.Error("Gram32 into a 3×3 dst: no error")
	}
}
