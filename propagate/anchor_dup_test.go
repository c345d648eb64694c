package propagate

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// uniqueRows returns the rows of A with each repeated row kept once, at its
// first occurrence, by comparing every pair (the reference for
// mergeAnchors).
func uniqueRows(A *mat.Dense) *mat.Dense {
	m, d := A.Dims()
	var keep []float64
	n := 0
next:
	for k := 0; k < m; k++ {
		for j := 0; j < k; j++ {
			if mat.Equal(A.RowView(j), A.RowView(k)) {
				continue next
			}
		}
		keep = append(keep, A.RawRowView(k)...)
		n++
	}
	return mat.NewDense(n, d, keep)
}

// TestAnchorDuplicateAnchors: data with repeated rows, every row an anchor
// (arbor classify --landmarks N; iris has one repeated row). Two equal
// anchors gave equal columns of Z and a singular M×M system (a
// "matrix singular or near-singular" error for propagation). Equal anchors
// are one anchor: both learners fit without error, and the model (anchors,
// soft labels, transduction — the saved bytes) and its predictions equal
// those of the same rows as anchors with the repeats merged, however often
// and wherever a row repeats, −0 counting as +0.
func TestAnchorDuplicateAnchors(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 3))
	const n, d = 90, 3
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 3
		for j := 0; j < d; j++ {
			// Blobs on a grid of 0.5: many repeated rows.
			X.Set(i, j, math.Round(2*(1.5*float64(c)*float64(j%2*2-1)+0.6*rng.NormFloat64()))/2)
		}
		y[i] = -1
		if i < 9 {
			y[i] = c
		}
	}
	X.SetRow(40, X.RawRowView(3)) // a labelled row repeated unlabelled
	X.Set(41, 0, 0)
	X.SetRow(42, X.RawRowView(41))
	X.Set(42, 0, math.Copysign(0, -1)) // −0: the same point as row 41
	U := uniqueRows(X)
	if mu, _ := U.Dims(); mu >= n-5 {
		t.Fatalf("only %d of %d rows repeated", n-mu, n)
	}
	// The unique rows repeated in place, and again at the end.
	mu, _ := U.Dims()
	var rep []float64
	for k := 0; k < mu; k++ {
		for r := 0; r <= k%3; r++ {
			rep = append(rep, U.RawRowView(k)...)
		}
	}
	for k := mu - 1; k >= 0; k -= 2 {
		rep = append(rep, U.RawRowView(k)...)
	}
	R := mat.NewDense(len(rep)/d, d, rep)

	Xt := mat.NewDense(200, d, nil)
	for i := 0; i < 200; i++ {
		for j := 0; j < d; j++ {
			Xt.Set(i, j, 3*rng.NormFloat64())
		}
	}
	fits := map[string]func(anchors *mat.Dense) (*AnchorModel, error){
		"propagation": func(a *mat.Dense) (*AnchorModel, error) { return AnchorGraph{}.Fit(ctx, X, a, y) },
		"spreading":   func(a *mat.Dense) (*AnchorModel, error) { return AnchorSpreading{}.Fit(ctx, X, a, y) },
		"propagation S=5": func(a *mat.Dense) (*AnchorModel, error) {
			return AnchorGraph{S: 5, Sigma: 0.7}.Fit(ctx, X, a, y)
		},
	}
	for name, fit := range fits {
		want, err := fit(U)
		if err != nil {
			t.Fatalf("%s, merged anchors: %v", name, err)
		}
		var wb bytes.Buffer
		if err := want.Save(&wb); err != nil {
			t.Fatal(err)
		}
		wp, err := want.Predict(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		for aname, anchors := range map[string]*mat.Dense{"the rows": X, "repeats": R} {
			got, err := fit(anchors)
			if err != nil {
				t.Errorf("%s, anchors %s: %v", name, aname, err)
				continue
			}
			var gb bytes.Buffer
			if err := got.Save(&gb); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gb.Bytes(), wb.Bytes()) {
				t.Errorf("%s, anchors %s: model differs from the merged anchors'", name, aname)
			}
			if fmt.Sprint(got.Transduction()) != fmt.Sprint(want.Transduction()) {
				t.Errorf("%s, anchors %s: transduction %v, want %v", name, aname, got.Transduction(), want.Transduction())
			}
			gp, err := got.Predict(ctx, nil, Xt)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(gp) != fmt.Sprint(wp) {
				t.Errorf("%s, anchors %s: predictions differ", name, aname)
			}
		}
	}
	// Without repeats the anchors are used as given (the same matrix).
	if got, m := mergeAnchors(U); got != U || m != mu {
		t.Errorf("mergeAnchors of distinct rows: %p (%d), want the input %p (%d)", got, m, U, mu)
	}
}
