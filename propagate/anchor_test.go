package propagate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAnchorGraphStationary: the anchors' soft labels A satisfy the
// normal equations of the full N-point objective written with the dense
// anchor graph (closed form, independent of the reduced M×M algebra):
// Z_lᵀ(Z_l A − Y_l) + γ·Zᵀ(I − Z Λ⁻¹ Zᵀ) Z A = 0.
func TestAnchorGraphStationary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, d, m := 80, 2, 12
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 3
		X.Set(i, 0, float64(c)*2+rng.NormFloat64()*0.5)
		X.Set(i, 1, rng.NormFloat64()*0.5)
		y[i] = -1
		if i < 9 {
			y[i] = c
		}
	}
	anchors := mat.NewDense(m, d, nil)
	for k := 0; k < m; k++ {
		anchors.SetRow(k, X.RawRowView(k*6+k%3)) // four anchors per blob
	}
	g := AnchorGraph{S: 3, Gamma: 0.5}
	am, err := g.Fit(context.Background(), X, anchors, y)
	if err != nil {
		t.Fatal(err)
	}
	// Dense Z from the model's own weights rule, recomputed by brute force.
	Z := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		type c struct {
			d2 float64
			k  int
		}
		var cs []c
		for k := 0; k < m; k++ {
			a, b := X.At(i, 0)-anchors.At(k, 0), X.At(i, 1)-anchors.At(k, 1)
			cs = append(cs, c{a*a + b*b, k})
		}
		for p := 0; p < 3; p++ { // selection of the 3 smallest
			for q := p + 1; q < m; q++ {
				if cs[q].d2 < cs[p].d2 || (cs[q].d2 == cs[p].d2 && cs[q].k < cs[p].k) {
					cs[p], cs[q] = cs[q], cs[p]
				}
			}
		}
		tot := 0.0
		for p := 0; p < 3; p++ {
			tot += math.Exp(-cs[p].d2 / am.sigma2)
		}
		for p := 0; p < 3; p++ {
			Z.Set(i, cs[p].k, math.Exp(-cs[p].d2/am.sigma2)/tot)
		}
	}
	lam := make([]float64, m)
	for i := 0; i < n; i++ {
		for k := 0; k < m; k++ {
			lam[k] += Z.At(i, k)
		}
	}
	Li := mat.NewDense(m, m, nil)
	for k := range lam {
		Li.Set(k, k, 1/lam[k])
	}
	var W, tmp mat.Dense
	tmp.Mul(Z, Li)
	W.Mul(&tmp, Z.T())
	for i := 0; i < n; i++ {
		if s := mat.Sum(W.RowView(i)); math.Abs(s-1) > 1e-12 {
			t.Fatalf("anchor graph degree of row %d = %v, want 1", i, s)
		}
	}
	L := mat.NewDense(n, n, nil)
	L.Sub(eye(n), &W)
	var ZA, LZA, grad, fit mat.Dense
	ZA.Mul(Z, am.a)
	LZA.Mul(L, &ZA)
	grad.Mul(Z.T(), &LZA)
	grad.Scale(g.Gamma, &grad)
	// Labelled part.
	R := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		if y[i] >= 0 {
			for j := 0; j < 3; j++ {
				v := ZA.At(i, j)
				if j == y[i] {
					v--
				}
				R.Set(i, j, v)
			}
		}
	}
	fit.Mul(Z.T(), R)
	grad.Add(&grad, &fit)
	if nrm := mat.Norm(&grad, math.Inf(1)); nrm > 1e-10 {
		t.Errorf("gradient of the anchor-graph objective at A: %g, want 0", nrm)
	}
	// Predict on the fitted rows gives the transduction of the unlabelled ones.
	pred, err := am.Predict(context.Background(), nil, X)
	if err != nil {
		t.Fatal(err)
	}
	tr := am.Transduction()
	correct := 0
	for i := range pred {
		if y[i] < 0 && pred[i] != tr[i] {
			t.Fatalf("row %d: Predict %d, Transduction %d", i, pred[i], tr[i])
		}
		if pred[i] == i%3 {
			correct++
		}
	}
	if correct < n*9/10 {
		t.Errorf("three separated blobs: %d of %d right", correct, n)
	}
}

func eye(n int) *mat.Dense {
	I := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		I.Set(i, i, 1)
	}
	return I
}

func BenchmarkAnchorGraph(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	n, d, m := 100000, 10, 300
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = -1
		if i < 50 {
			y[i] = i % 5
		}
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64()+float64(i%5))
		}
	}
	anchors := mat.NewDense(m, d, nil)
	for k := 0; k < m; k++ {
		anchors.SetRow(k, X.RawRowView(k*7))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (AnchorGraph{}).Fit(context.Background(), X, anchors, y); err != nil {
			b.Fatal(err)
		}
	}
}
