package kernel_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

type extFixture struct {
	X, Xt, K, One, K1, K2, Two [][]float64
	OneDiag                    []float64 `json:"one_diag"`
	Cols                       []int
	RCond                      float64
}

// TestExtendNumpy compares both versions of §3.5 with numpy's
// K̃_tN·pinv(K̃_NN)·K_Nℓ (testdata/extension.json.gz; kernels by peers.py).
// Tolerance 1e-9 relative: pinv of the rank-deficient 45×45 matrices
// amplifies rounding by their condition numbers (~1e5).
func TestExtendNumpy(t *testing.T) {
	var fx extFixture
	loadFixture(t, "extension.json.gz", &fx)
	ctx := context.Background()
	X, Xt := dense(fx.X), dense(fx.Xt)
	e, err := kernel.Extend(ctx, X, sym(fx.K), kernel.ExtendOptions{Columns: fx.Cols})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Rows(ctx, Xt)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(t, got, fx.One); d > 1e-9 {
		t.Errorf("one-step: max rel diff %.3g vs numpy", d)
	}
	diag, err := e.Diag(ctx, Xt)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range fx.OneDiag {
		if math.Abs(diag[i]-w) > 1e-9*math.Abs(w) {
			t.Errorf("Diag[%d] = %v, numpy %v", i, diag[i], w)
		}
	}
	e2, err := kernel.Extend(ctx, X, sym(fx.K2), kernel.ExtendOptions{Columns: fx.Cols, Via: sym(fx.K1), RCond: fx.RCond})
	if err != nil {
		t.Fatal(err)
	}
	got2, err := e2.Rows(ctx, Xt)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxRelDiff(t, got2, fx.Two); d > 1e-9 {
		t.Errorf("two-step: max rel diff %.3g vs numpy", d)
	}
}

// TestExtendLinearClosedForm: extending the linear kernel itself gives
// x·x_j exactly for any x when X has full column rank (x lies in the row
// space), and k(x, x) = ‖x‖².
func TestExtendLinearClosedForm(t *testing.T) {
	ctx := context.Background()
	X := randDense(50, 4, 21)
	Xt := randDense(7, 4, 22)
	K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	e, err := kernel.Extend(ctx, X, K, kernel.ExtendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := e.Rows(ctx, Xt)
	want, _ := kernel.Cross(ctx, nil, kernel.Linear{}, Xt, X)
	if !mat.EqualApprox(got, want, 1e-12) {
		t.Error("linear kernel not reproduced")
	}
	diag, _ := e.Diag(ctx, Xt)
	for i, v := range diag {
		r := Xt.RawRowView(i)
		if w := mat.Dot(mat.NewVecDense(4, r), mat.NewVecDense(4, r)); math.Abs(v-w) > 1e-12 {
			t.Errorf("Diag[%d] = %v, want ‖x‖² = %v", i, v, w)
		}
	}
	if n, d, c := e.Dims(); n != 50 || d != 4 || c != 50 || e.Rank() != 4 {
		t.Errorf("Dims = %d,%d,%d rank %d", n, d, c, e.Rank())
	}
}

// TestExtendTrainingRows: when K̃_NN = XXᵀ has full rank (d ≥ N), training
// points reproduce their own rows of any K, in both versions.
func TestExtendTrainingRows(t *testing.T) {
	ctx := context.Background()
	X := randDense(20, 30, 31)
	K, _ := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 0.2}, X)
	K1, _ := kernel.Gram(ctx, nil, kernel.Poly{A: 0.1, B: 1, Degree: 2}, X)
	cols := []int{3, 0, 19}
	for _, via := range []mat.Symmetric{nil, K1} {
		e, err := kernel.Extend(ctx, X, K, kernel.ExtendOptions{Columns: cols, Via: via})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := e.Rows(ctx, X)
		for i := 0; i < 20; i++ {
			for c, j := range cols {
				if math.Abs(got.At(i, c)-K.At(i, j)) > 1e-10 {
					t.Fatalf("via=%v: row %d col %d: %v, want %v", via != nil, i, j, got.At(i, c), K.At(i, j))
				}
			}
		}
		diag, _ := e.Diag(ctx, X)
		for i, v := range diag {
			if math.Abs(v-1) > 1e-10 {
				t.Fatalf("Diag[%d] = %v, want K_ii = 1", i, v)
			}
		}
	}
}

func TestExtendErrors(t *testing.T) {
	ctx := context.Background()
	X := randDense(10, 3, 1)
	K, _ := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 1}, X)
	if _, err := kernel.Extend(ctx, X, mat.NewSymDense(9, nil), kernel.ExtendOptions{}); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("K size: %v", err)
	}
	if _, err := kernel.Extend(ctx, X, K, kernel.ExtendOptions{Columns: []int{10}}); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("column out of range: %v", err)
	}
	if _, err := kernel.Extend(ctx, X, K, kernel.ExtendOptions{RCond: -1}); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("RCond: %v", err)
	}
	if _, err := kernel.Extend(ctx, X, K, kernel.ExtendOptions{Via: mat.NewSymDense(3, nil)}); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("Via size: %v", err)
	}
	if _, err := kernel.Extend(ctx, mat.NewDense(10, 3, nil), K, kernel.ExtendOptions{}); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("zero X: %v", err)
	}
	e, err := kernel.Extend(ctx, X, K, kernel.ExtendOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Rows(ctx, randDense(2, 4, 1)); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("Rows feature mismatch: %v", err)
	}
	bad := randDense(2, 3, 1)
	bad.Set(1, 1, math.NaN())
	if _, err := e.Diag(ctx, bad); !errors.Is(err, kernel.ErrNonFinite) {
		t.Errorf("Diag NaN: %v", err)
	}
}
