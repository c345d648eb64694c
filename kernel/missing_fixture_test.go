package kernel

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRBFMissingMice: the missing-data RBF equals a NumPy computation of
// the formula of the missing-data kernel (testdata/rbf_missing_mice.py: columns z-scored over
// their observed cells with nanmean/nanstd, exp(−γ · mean over the shared
// columns of the squared difference)) on 48 rows × 77 proteins of the mice
// file, 232 of them empty, for γ = 32 and 0.5. Tolerance 1e-12 relative:
// NumPy sums in another order.
func TestRBFMissingMice(t *testing.T) {
	f, err := os.Open("testdata/rbf_missing_mice.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		X     [][]*float64
		Cases []struct {
			Gamma float64
			K     [][]float64
		}
	}
	if err := json.NewDecoder(z).Decode(&fx); err != nil {
		t.Fatal(err)
	}
	n, d := len(fx.X), len(fx.X[0])
	X := mat.NewDense(n, d, nil)
	missing := 0
	for i, r := range fx.X {
		for j, v := range r {
			if v == nil {
				X.Set(i, j, math.NaN())
				missing++
			} else {
				X.Set(i, j, *v)
			}
		}
	}
	if missing != 232 {
		t.Fatalf("fixture has %d missing cells, want 232", missing)
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	for _, c := range fx.Cases {
		g, err := RBFMissing{Gamma: c.Gamma}.Prepare(X)
		if err != nil {
			t.Fatal(err)
		}
		K, err := g.Sym(context.Background(), nil, rows)
		if err != nil {
			t.Fatal(err)
		}
		C, err := g.Cross(context.Background(), nil, rows[:7], rows)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want := c.K[i][j]
				if got := K.At(i, j); math.Abs(got-want) > 1e-12*math.Max(want, 1e-300) {
					t.Fatalf("γ=%v: K[%d,%d] = %.17g, NumPy %.17g", c.Gamma, i, j, got, want)
				}
				if i < 7 {
					if got := C.At(i, j); math.Abs(got-want) > 1e-12*math.Max(want, 1e-300) {
						t.Fatalf("γ=%v: Cross[%d,%d] = %.17g, NumPy %.17g", c.Gamma, i, j, got, want)
					}
				}
			}
		}
	}
}
