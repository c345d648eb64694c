package eigen

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// lcgMatrix fills an n×n matrix row-major with u − 0.5, u = (s >> 11)/2^53
// of the LCG s ← s·6364136223846793005 + 1442695040888963407 (as
// testdata/gen_fixtures.py and testdata/peer_time.py).
func lcgMatrix(n int, seed uint64) []float64 {
	s := seed
	out := make([]float64, n*n)
	for i := range out {
		s = s*6364136223846793005 + 1442695040888963407
		out[i] = float64(s>>11)/(1<<53) - 0.5
	}
	return out
}

func lcgSym(n int, seed uint64) *mat.SymDense {
	b := lcgMatrix(n, seed)
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, (b[i*n+j]+b[j*n+i])/2)
		}
	}
	return a
}

type fixture struct {
	N       int       `json:"n"`
	Seed    uint64    `json:"seed"`
	Values  []float64 `json:"values"`
	Vectors []float64 `json:"vectors"`
}

// TestNumpyFixtures compares with numpy.linalg.eigh (LAPACK dsyevd) results
// saved by testdata/gen_fixtures.py: eigenvalues to 1e-10·‖A‖_F (both
// solvers are backward stable, errors are O(n·ε·‖A‖) ≈ 1e-14 here), and
// for sym40v the eigenvectors up to sign to 1e-9 (gaps ≥ 1e-3, so the
// angle error O(ε‖A‖/gap) stays far below that).
func TestNumpyFixtures(t *testing.T) {
	raw, err := os.ReadFile("testdata/eigh.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	build := map[string]func(n int, seed uint64) *mat.SymDense{
		"sym120": lcgSym,
		"sym40v": lcgSym,
		"graded80": func(n int, seed uint64) *mat.SymDense {
			a := lcgSym(n, seed)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					a.SetSym(i, j, math.Ldexp(a.At(i, j), -((i+j)/4)))
				}
			}
			return a
		},
		"lowrank90": func(n int, seed uint64) *mat.SymDense {
			b := lcgMatrix(n, seed)
			a := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					s := 0.0
					for k := 0; k < 4; k++ {
						s += b[i*n+k] * b[j*n+k]
					}
					a.SetSym(i, j, s)
				}
			}
			return a
		},
	}
	for name, mk := range build {
		var f fixture
		if err := json.Unmarshal(fx[name], &f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a := mk(f.N, f.Seed)
		vals, v, err := Sym(context.Background(), a, true)
		if err != nil {
			t.Fatal(err)
		}
		an := normSym(a)
		compareValues(t, name+" vs numpy", vals, f.Values, an)
		check(t, name, a, vals, v)
		if f.Vectors != nil {
			n := f.N
			for j := 0; j < n; j++ {
				dot := 0.0
				for i := 0; i < n; i++ {
					dot += v.At(i, j) * f.Vectors[i*n+j]
				}
				if math.Abs(math.Abs(dot)-1) > 1e-9 {
					t.Errorf("%s: |v_%d · v_numpy| = %.15g, want 1", name, j, math.Abs(dot))
				}
			}
		}
	}
}
