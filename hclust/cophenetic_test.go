package hclust

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// CopheneticCorrelation equals the Pearson correlation of D with the
// materialised cophenetic distances (Cophenetic, checked against SciPy
// elsewhere), for every method, without forming them.
func TestCopheneticCorrelation(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	X := mat.NewDense(97, 3, nil)
	for i := 0; i < 97; i++ {
		for j := 0; j < 3; j++ {
			X.Set(i, j, r.NormFloat64()+float64(4*(i%3)))
		}
	}
	D, err := distance.Euclidean(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Method{Single, Complete, Average, Weighted, Ward, Centroid, Median} {
		tree, err := Linkage(context.Background(), D, m)
		if err != nil {
			t.Fatal(err)
		}
		c := tree.Cophenetic()
		want := pearsonRef(D.Data, c.Data)
		got, err := tree.CopheneticCorrelation(context.Background(), D)
		if err != nil {
			t.Fatal(err)
		}
		// two summation orders of ~4,700 terms: agreement to 1e-12
		if math.Abs(got-want) > 1e-12 || !(got > 0.3) {
			t.Errorf("%v: %.15f, reference %.15f", m, got, want)
		}
	}
	if _, err := (&Tree{N: 3, Merges: []Merge{{0, 1, 1, 2}, {2, 3, 2, 3}}}).CopheneticCorrelation(context.Background(), distance.NewCondensed(4)); err == nil {
		t.Error("size mismatch accepted")
	}
}

// pearsonRef is the two-pass Pearson correlation.
func pearsonRef(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}
