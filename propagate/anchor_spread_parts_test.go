package propagate

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// TestSpreadPartsEqualFit: label spreading on the anchor graph fitted in
// parts over blocks of parallel.BlockRows rows (each block's Λ, sums and
// transduction computed on its own rows, in any order, merged in block
// order, as the Beam module's fit job does) saves the same model, byte for
// byte, as AnchorSpreading.Fit on all rows: the paper's width and a given
// one, the default α and another, and with anchors no row uses and rows no
// label reaches (the unlabeled policy).
func TestSpreadPartsEqualFit(t *testing.T) {
	ctx := context.Background()
	n, m := 2*parallel.BlockRows+1500, 16
	X, anchors, y := partsData(rand.New(rand.NewPCG(11, 4)), n, m, 991, 37)
	block := blocksOf(X, y)
	nb := parallel.Blocks(n)
	// An anchor far away, with a few rows of its own and no label: they are
	// unreachable, and with a tiny σ the anchor is used by them alone.
	anchors.SetRow(m-1, []float64{100, 100})
	for _, i := range []int{5, 70000, 140000 % n} {
		X.SetRow(i, []float64{100 + float64(i%7)*0.01, 100})
		y[i] = -1
	}
	for _, g := range []AnchorSpreading{{Unreachable: UnreachableUnlabeled}, {Alpha: 0.6, Sigma: 0.5, Unreachable: UnreachableUnlabeled}} {
		want, err := g.Fit(ctx, X, anchors, y)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Unreachable) == 0 {
			t.Fatalf("sigma %v: no unreachable rows: the test misses that case", g.Sigma)
		}
		p, err := g.Parts(anchors, 3)
		if err != nil {
			t.Fatal(err)
		}
		widthInParts(ctx, t, p, X)
		lams := make([][]float64, nb)
		for b := nb - 1; b >= 0; b-- {
			Xb, _ := block(b)
			if lams[b], err = p.Lambda(ctx, Xb); err != nil {
				t.Fatal(err)
			}
		}
		lam, err := p.SumLambda(lams)
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]*SpreadSums, nb)
		for b := nb - 1; b >= 0; b-- {
			Xb, yb := block(b)
			if parts[b], err = p.Sums(ctx, Xb, yb, lam); err != nil {
				t.Fatal(err)
			}
		}
		sums := p.NewSums()
		for _, part := range parts {
			if err := sums.Merge(part); err != nil {
				t.Fatal(err)
			}
		}
		sol, err := p.Solve(lam, sums)
		if err != nil {
			t.Fatal(err)
		}
		blocks := make([]*SpreadBlock, nb)
		for b := nb - 1; b >= 0; b-- {
			Xb, yb := block(b)
			if blocks[b], err = p.Transduce(ctx, Xb, yb, sol); err != nil {
				t.Fatal(err)
			}
		}
		got, err := p.Model(sol, blocks, y)
		if err != nil {
			t.Fatal(err)
		}
		if !sameSaved(t, want, got) {
			t.Errorf("sigma %v, alpha %v: the model fitted in parts differs from Fit's", g.Sigma, g.Alpha)
		}
		if len(got.Unreachable) != len(want.Unreachable) {
			t.Errorf("sigma %v: %d unreachable rows in parts, %d by Fit", g.Sigma, len(got.Unreachable), len(want.Unreachable))
		}
		// A block missing is refused.
		if _, err := p.Model(sol, blocks[1:], y); !errors.Is(err, ErrShape) {
			t.Errorf("a block missing: error %v, want ErrShape", err)
		}
	}
}
