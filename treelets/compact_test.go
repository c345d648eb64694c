package treelets

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestCompactEqualsKeep: Fit works in a scratch copy and compacts the
// active submatrix as variables leave; FitInPlace keeps the whole rotated
// matrix. Both must give the same levels and variances bit for bit, for
// every rule and λ, on matrices large enough to compact several times
// (n ≥ compactMin), including a graph kernel with many exactly tied
// similarities (the tie rule must survive the renaming of positions).
func TestCompactEqualsKeep(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var edges [][2]int
	const gn = 420
	for u := 0; u < gn; u++ {
		for k := 0; k < 3; k++ {
			v := (u + 1 + rng.IntN(12)) % gn
			edges = append(edges, [2]int{u, v})
		}
	}
	// drop duplicate edges (either direction)
	seen := map[[2]int]bool{}
	uniq := edges[:0]
	for _, e := range edges {
		a, b := min(e[0], e[1]), max(e[0], e[1])
		if a != b && !seen[[2]int{a, b}] {
			seen[[2]int{a, b}] = true
			uniq = append(uniq, e)
		}
	}
	g, err := kernel.NewGraphKernel(gn, uniq)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, gn)
	for i := range rows {
		rows[i] = i
	}
	G, err := g.Sym(context.Background(), nil, rows)
	if err != nil {
		t.Fatal(err)
	}
	mats := map[string]*mat.SymDense{
		"rbf n=300":   randomRBF(rng, 300, 0.8),
		"rbf n=530":   randomRBF(rng, 530, 3),
		"graph n=420": G,
		"cov d=260":   randomCov(rng, 260, 400),
	}
	for name, A := range mats {
		for _, rule := range []Similarity{Abs, Signed, Raw} {
			for _, lambda := range []float64{0, 0.5} {
				s := Settings{Similarity: rule, Lambda: lambda}
				mc, err := s.Fit(context.Background(), A)
				if err != nil {
					t.Fatal(err)
				}
				W := mat.NewSymDense(A.SymmetricDim(), nil)
				W.CopySym(A)
				mk, err := s.FitInPlace(context.Background(), W)
				if err != nil {
					t.Fatal(err)
				}
				for k := range mk.Levels {
					if mc.Levels[k] != mk.Levels[k] {
						t.Fatalf("%s %v λ=%v level %d: compacted %+v, kept %+v", name, rule, lambda, k+1, mc.Levels[k], mk.Levels[k])
					}
				}
				for i := range mk.Variance {
					if mc.Variance[i] != mk.Variance[i] {
						t.Fatalf("%s %v λ=%v: variance %d: compacted %v, kept %v", name, rule, lambda, i, mc.Variance[i], mk.Variance[i])
					}
				}
			}
		}
	}
}
