package svm

import (
	"context"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"gonum.org/v1/gonum/mat"
)

// TestPaper000Linear reproduces paper 000 Table 1 (linear kernel, C = 1,
// USPS official split 1): 72.82 % with 10 labels and 86.43 % with 100 —
// the numbers scikit-learn's LIBSVM gives (data/README.md). Trained with
// FitGramRows on the full N×N linear Gram matrix (upper triangle only, as
// SymOuterK fills it).
func TestPaper000Linear(t *testing.T) {
	ctx := context.Background()
	d, err := dataset.Embedded("usps")
	if err != nil {
		t.Fatal(err)
	}
	n := d.Len()
	K := mat.NewSymDense(n, nil)
	K.SymOuterK(1, d.X)
	for _, lab := range []int{10, 100} {
		splits, err := dataset.EmbeddedSplits("usps", lab)
		if err != nil {
			t.Fatal(err)
		}
		L := splits[0]
		isL := make([]bool, n)
		var yl []int
		for _, r := range L {
			isL[r] = true
			yl = append(yl, d.Y[r])
		}
		m, err := Classifier{C: 1, AllowSingleton: true}.FitGramRows(context.Background(), K, L, yl)
		if err != nil {
			t.Fatal(err)
		}
		var U []int
		for i := range n {
			if !isL[i] {
				U = append(U, i)
			}
		}
		Kt := mat.NewDense(len(U), len(L), nil)
		for a, u := range U {
			for b, l := range L {
				Kt.Set(a, b, K.At(u, l))
			}
		}
		pred, _ := m.Predict(ctx, nil, Kt)
		c := 0
		for a, u := range U {
			if pred[a] == d.Y[u] {
				c++
			}
		}
		acc := 100 * float64(c) / float64(len(U))
		want := map[int]float64{10: 72.82, 100: 86.43}[lab]
		if math.Abs(acc-want) > 0.005 {
			t.Errorf("USPS/%d linear SVM accuracy %.4f %%, paper %.2f %%", lab, acc, want)
		}
	}
}
