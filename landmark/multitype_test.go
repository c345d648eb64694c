package landmark

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestMultiTypeExact: with every row a landmark the landmark
// multi-type kernel f̂·f̂ᵀ equals MultiType.Gram (the exact N×N kernel) for
// every transfer, to 1e-10 (measured ≤ 1e-14, and 3e-12 for poly T = 0.5,
// whose φ(λ)^{1/2} = λ^{1/4} magnifies the rounding of the small
// eigenvalues; newNystrom clips K_LL below M·ε·λ_max); training rows given as new points get their own
// features; save → load gives new points the same features.
func TestMultiTypeExact(t *testing.T) {
	ctx := context.Background()
	n := 60
	X := randPoints(n, 2, 11)
	for i := 0; i < n/2; i++ {
		X.Set(i, 0, X.At(i, 0)+4) // two groups
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	Xt := randPoints(15, 2, 12)
	for _, m := range []kernel.MultiType{
		{Gamma: 0.5, Transfer: kernel.TransferStep, Cut: 0.45},
		{Gamma: 0.5, Transfer: kernel.TransferLinStep, Cut: 0.2},
		{Gamma: 0.5, Transfer: kernel.TransferPoly, T: 2},
		{Gamma: 0.5, Transfer: kernel.TransferPoly, T: 0.5},
		{Gamma: 0.3, Transfer: kernel.TransferRandomWalk, T: 3},
	} {
		t.Run(kernel.Spec{Kind: kernel.KindMultiType, Multi: &m}.String(), func(t *testing.T) {
			nm, F, err := newMultiType(ctx, X, m, all, 0)
			if err != nil {
				t.Fatal(err)
			}
			K, _, err := m.Gram(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			var FF mat.Dense
			FF.Mul(F, F.T())
			if d := maxAbsDiff(&FF, K); d > 1e-10 {
				t.Errorf("landmark multitype with every row a landmark: |F·Fᵀ − K| = %g", d)
			}
			again, err := nm.Features(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxAbsDiff(again, F); d > 1e-12 {
				t.Errorf("training rows as new points: features differ by %g", d)
			}
			want, err := nm.Features(ctx, Xt)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := nm.Save(&buf); err != nil {
				t.Fatal(err)
			}
			full := bytes.Clone(buf.Bytes())
			q, err := LoadMultiType(&buf)
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.Features(ctx, Xt)
			if err != nil || !mat.Equal(got, want) {
				t.Fatalf("after save → load: %v (%v)", maxAbsDiff(got, want), err)
			}
			if _, err := LoadMultiType(bytes.NewReader(full[:len(full)/2])); !errors.Is(err, ErrFormat) {
				t.Errorf("cut file: %v, want ErrFormat", err)
			}
		})
	}
	if _, _, err := newMultiType(ctx, X, kernel.MultiType{Gamma: 0.5, Transfer: kernel.TransferPoly, T: 2, ZeroDiag: true}, all, 0); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("ZeroDiag: %v, want ErrBadParam", err)
	}
}

// BenchmarkMultiType fits the landmark multi-type kernel on 20,000
// points in 10-D with 300 landmarks (the fit returns the features).
func BenchmarkMultiType(b *testing.B) {
	X := randPoints(20000, 10, 3)
	ctx := context.Background()
	lm, err := Choose(ctx, X, 300, KMeans, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := newMultiType(ctx, X, kernel.MultiType{Gamma: 0.05, Transfer: kernel.TransferPoly, T: 2}, lm, 0); err != nil {
			b.Fatal(err)
		}
	}
}
