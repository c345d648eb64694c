package eigen

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkSym times all eigenpairs of a random symmetric matrix (fixed seed).
func BenchmarkSym(b *testing.B) {
	for _, n := range []int{500, 1500, 3000} {
		a := randSym(n, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Sym(context.Background(), a, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSymValues times the eigenvalues only.
func BenchmarkSymValues(b *testing.B) {
	for _, n := range []int{500, 1500, 3000} {
		a := randSym(n, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Sym(context.Background(), a, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSymFunc times the PSD projection V·max(Λ,0)·Vᵀ.
func BenchmarkSymFunc(b *testing.B) {
	for _, n := range []int{500, 1500} {
		a := randSym(n, 1)
		dst := mat.NewSymDense(n, nil)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := SymFunc(context.Background(), dst, a, func(x float64) float64 { return max(x, 0) }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGonumEigenSym is the baseline: gonum's mat.EigenSym (Dsyev).
func BenchmarkGonumEigenSym(b *testing.B) {
	for _, n := range []int{500, 1500} {
		a := randSym(n, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var es mat.EigenSym
				if !es.Factorize(a, true) {
					b.Fatal("no convergence")
				}
			}
		})
	}
}
