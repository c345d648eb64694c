package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// blobs returns n points in d dimensions around four centres.
func blobs(n, d int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 9))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		c := float64(i % 4)
		for j := 0; j < d; j++ {
			X.Set(i, j, 2*c*float64(j%2)+rng.NormFloat64())
		}
	}
	return X
}

// TestTrainingBlocksEqualFit: for every kind of map, the training rows'
// features taken a block at a time (Block at multiples of BlockRows, a
// short last block) and as chosen rows (Rows, in any order) are bit for bit
// the rows of Settings.Fit's Z. N spans two blocks, so the point kernel's
// kernel rows are computed in two blocks both ways.
func TestTrainingBlocksEqualFit(t *testing.T) {
	ctx := context.Background()
	n := BlockRows + 700
	X := blobs(n, 2, 1)
	lm, err := Choose(ctx, X, 30, Random, 2)
	if err != nil {
		t.Fatal(err)
	}
	knn5 := graph.Spec{Kind: graph.KindKNN, K: 5}
	hck := func(m hclust.Method, g *graph.Spec) kernel.Spec {
		return kernel.Spec{Kind: kernel.KindHCK, Method: m, Graph: g}
	}
	cases := []struct {
		name string
		s    Settings
		kind string // "features", "graft" or "dense"
	}{
		{"rbf", Settings{Kernel: kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{Gamma: 0.5}}}, "features"},
		{"hck:average, landmarks' tree", Settings{Kernel: hck(hclust.Average, nil), Tree: TreeLandmarks}, "features"},
		{"hck:single, landmarks' tree", Settings{Kernel: hck(hclust.Single, nil), Tree: TreeLandmarks}, "features"},
		{"hck:average, all rows", Settings{Kernel: hck(hclust.Average, nil), Tree: TreeAllRows}, "graft"},
		{"hck:ward, all rows", Settings{Kernel: hck(hclust.Ward, nil), Tree: TreeAllRows}, "graft"},
		{"hck:single, all rows", Settings{Kernel: hck(hclust.Single, nil), Tree: TreeAllRows}, "graft"},
		{"hckg:single, all rows", Settings{Kernel: hck(hclust.Single, &knn5)}, "graft"},
		{"hckg:average, landmarks' tree", Settings{Kernel: hck(hclust.Average, &knn5), Tree: TreeLandmarks}, "features"},
		{"isomap", Settings{Kernel: kernel.Spec{Kind: kernel.KindISOMAP, Graph: &knn5}}, "dense"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, tr, err := c.s.FitTraining(ctx, X, lm)
			if err != nil {
				t.Fatal(err)
			}
			kind := "features"
			if tr.Dense() {
				kind = "dense"
			} else if tr.graft != nil {
				kind = "graft"
			}
			if kind != c.kind {
				t.Fatalf("training kind %s, want %s", kind, c.kind)
			}
			_, Z, err := c.s.Fit(ctx, X, lm)
			if err != nil {
				t.Fatal(err)
			}
			if zn, zr := Z.Dims(); zn != n || zr != tr.Rank() || tr.Len() != n {
				t.Fatalf("Z is %d×%d, training %d×%d", zn, zr, tr.Len(), tr.Rank())
			}
			same := func(what string, i int, got []float64) {
				t.Helper()
				for k, v := range Z.RawRowView(i) {
					if math.Float64bits(v) != math.Float64bits(got[k]) {
						t.Fatalf("%s: row %d feature %d = %v, Fit's Z has %v", what, i, k, got[k], v)
					}
				}
			}
			for lo := 0; lo < n; lo += BlockRows {
				hi := min(lo+BlockRows, n)
				Zb, err := tr.Block(ctx, nil, lo, hi)
				if err != nil {
					t.Fatal(err)
				}
				for i := lo; i < hi; i++ {
					same("Block", i, Zb.RawRowView(i-lo))
				}
			}
			idx := []int{n - 1, 3, BlockRows, 3, BlockRows - 1, 0}
			Zr, err := tr.Rows(ctx, idx)
			if err != nil {
				t.Fatal(err)
			}
			for a, i := range idx {
				same("Rows", i, Zr.RawRowView(a))
			}
			if _, err := tr.Block(ctx, nil, 1, 10); err == nil {
				t.Error("Block at row 1: no error")
			}
		})
	}
}

// TestTrainingGraphGraft: hckg with a tree of all rows (one search per
// row, kept small here) gives its rows by the graft too, bit for bit Fit's.
func TestTrainingGraphGraft(t *testing.T) {
	ctx := context.Background()
	X := blobs(500, 2, 3)
	lm, err := Choose(ctx, X, 25, KMeans, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{Kernel: kernel.Spec{Kind: kernel.KindHCK, Method: hclust.Average, Graph: &graph.Spec{Kind: graph.KindKNN, K: 5}}}
	_, tr, err := s.FitTraining(ctx, X, lm)
	if err != nil {
		t.Fatal(err)
	}
	if tr.graft == nil {
		t.Fatal("no graft: not the tree of all rows")
	}
	_, Z, err := s.Fit(ctx, X, lm)
	if err != nil {
		t.Fatal(err)
	}
	Zr, err := tr.Rows(ctx, []int{499, 0, 250})
	if err != nil {
		t.Fatal(err)
	}
	for a, i := range []int{499, 0, 250} {
		if !mat.Equal(Zr.RowView(a), Z.RowView(i)) {
			t.Fatalf("row %d differs from Fit's", i)
		}
	}
}

// TestTrainingGraftExactRows: on the tree of all rows the graft of a
// training row (its lowest ancestor over a landmark, at that ancestor's
// height) gives its exact centred ultrametric row against the landmarks,
// −½·(M(x, l) − ū_x − m̄_l + m̿) from the full tree's ultrametric M, times
// W: the features to rounding (the sums are grouped differently; 1e-12 of
// the largest feature).
func TestTrainingGraftExactRows(t *testing.T) {
	ctx := context.Background()
	X := blobs(400, 3, 5)
	lm, err := Choose(ctx, X, 35, KMeans, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, meth := range []hclust.Method{hclust.Single, hclust.Average, hclust.Complete, hclust.Ward} {
		s := Settings{Kernel: kernel.Spec{Kind: kernel.KindHCK, Method: meth}, Tree: TreeAllRows}
		fm, tr, err := s.FitTraining(ctx, X, lm)
		if err != nil {
			t.Fatal(err)
		}
		ny := fm.(*Nystrom)
		var full *hclust.Tree
		switch meth {
		case hclust.Single:
			full, err = hclust.FromPoints(ctx, X, meth)
		case hclust.Ward:
			full, err = hclust.FromPointsLowMemory(ctx, X, meth, nil)
		default:
			cells, k, err2 := hclust.ExactCells(ctx, X, meth, exactCellsK)
			if err2 != nil {
				t.Fatal(err2)
			}
			full, err = hclust.FromPointsCells(ctx, X, cells, k, meth)
		}
		if err != nil {
			t.Fatal(err)
		}
		U := full.Ultrametric(nil)
		m := len(lm)
		mbar := make([]float64, m)
		grand := 0.0
		for a, l := range lm {
			for _, l2 := range lm {
				mbar[a] += U.At(l, l2) / float64(m)
			}
			grand += mbar[a] / float64(m)
		}
		Z, err := tr.All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n, r := Z.Dims()
		row := make([]float64, m)
		want := make([]float64, r)
		var worst, scale float64
		for x := 0; x < n; x++ {
			ubar := 0.0
			for _, l := range lm {
				ubar += U.At(x, l) / float64(m)
			}
			for a, l := range lm {
				row[a] = -0.5 * (U.At(x, l) - ubar - mbar[a] + grand)
			}
			for k := range want {
				want[k] = 0
				for a := range row {
					want[k] += row[a] * ny.w.At(a, k)
				}
			}
			for k, v := range Z.RawRowView(x) {
				worst = max(worst, math.Abs(v-want[k]))
				scale = max(scale, math.Abs(want[k]))
			}
		}
		if worst > 1e-12*scale {
			t.Errorf("%v: features differ from the full tree's rows by %.3g (scale %.3g)", meth, worst, scale)
		}
	}
}
