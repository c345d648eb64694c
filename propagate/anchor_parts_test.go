package propagate

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// TestAnchorPartsEqualFit: a fit in parts over blocks of
// parallel.BlockRows rows (each block's sums computed on its own rows,
// merged in block order, as the Beam module's fit job does) saves the same
// model, byte for byte, as AnchorGraph.Fit on all rows, for the paper's
// width (a sum over rows too) and a given one.
func TestAnchorPartsEqualFit(t *testing.T) {
	ctx := context.Background()
	X, anchors, y := partsData(rand.New(rand.NewPCG(7, 3)), 2*parallel.BlockRows+1000, 15, 997, 31)
	block := blocksOf(X, y)
	nb := parallel.Blocks(len(y))
	for _, g := range []AnchorGraph{{Gamma: 0.1}, {Gamma: 0.1, Sigma: 0.7}} {
		want, err := g.Fit(ctx, X, anchors, y)
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.Parts(anchors, 3)
		if err != nil {
			t.Fatal(err)
		}
		widthInParts(ctx, t, p, X)
		parts := make([]*AnchorSums, nb)
		for b := nb - 1; b >= 0; b-- {
			Xb, yb := block(b)
			if parts[b], err = p.Sums(ctx, Xb, yb); err != nil {
				t.Fatal(err)
			}
		}
		sums := p.NewSums()
		for _, part := range parts {
			if err := sums.Merge(part); err != nil {
				t.Fatal(err)
			}
		}
		got, err := p.Solve(sums)
		if err != nil {
			t.Fatal(err)
		}
		var labels []int
		var reached []bool
		for b := 0; b < nb; b++ {
			Xb, yb := block(b)
			l, r, err := got.BlockTransduction(ctx, Xb, yb)
			if err != nil {
				t.Fatal(err)
			}
			labels, reached = append(labels, l...), append(reached, r...)
		}
		if err := got.SetTransduction(labels, reached, y, ""); err != nil {
			t.Fatal(err)
		}
		if !sameSaved(t, want, got) {
			t.Errorf("sigma %v: the model fitted in parts differs from Fit's", g.Sigma)
		}
	}
}

// partsData is the data set of the tests that fit in parts: n rows of three
// Gaussian clusters (class i % 3 centred at (2c, 0), standard deviation 0.6)
// drawn from rng, rows i % every == 0 labelled, and m anchors, anchor k
// being row k*stride + k%3.
func partsData(rng *rand.Rand, n, m, every, stride int) (X, anchors *mat.Dense, y []int) {
	X = mat.NewDense(n, 2, nil)
	y = make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 3
		X.Set(i, 0, float64(c)*2+rng.NormFloat64()*0.6)
		X.Set(i, 1, rng.NormFloat64()*0.6)
		y[i] = -1
		if i%every == 0 {
			y[i] = c
		}
	}
	anchors = mat.NewDense(m, 2, nil)
	for k := 0; k < m; k++ {
		anchors.SetRow(k, X.RawRowView(k*stride+k%3))
	}
	return X, anchors, y
}

// blocksOf returns block b's rows of X and labels of y (blocks of
// parallel.BlockRows rows).
func blocksOf(X *mat.Dense, y []int) func(b int) (*mat.Dense, []int) {
	_, d := X.Dims()
	return func(b int) (*mat.Dense, []int) {
		lo, hi := parallel.Block(b, len(y))
		return X.Slice(lo, hi, 0, d).(*mat.Dense), y[lo:hi]
	}
}

// widthParts is what AnchorParts and SpreadParts share for the paper's
// width (a mean over all rows).
type widthParts interface {
	NeedsWidth() bool
	WidthSum(ctx context.Context, X *mat.Dense) (float64, error)
	SetWidth(sum float64, n int)
}

// widthInParts sets p's width, when it needs one, from each block's sum,
// computed in reverse block order (any order of work) and added in block
// order.
func widthInParts(ctx context.Context, t *testing.T, p widthParts, X *mat.Dense) {
	t.Helper()
	if !p.NeedsWidth() {
		return
	}
	n, _ := X.Dims()
	block := blocksOf(X, make([]int, n))
	parts := make([]float64, parallel.Blocks(n))
	for b := len(parts) - 1; b >= 0; b-- {
		Xb, _ := block(b)
		var err error
		if parts[b], err = p.WidthSum(ctx, Xb); err != nil {
			t.Fatal(err)
		}
	}
	sum := 0.0
	for _, v := range parts {
		sum += v
	}
	p.SetWidth(sum, n)
}

// sameSaved reports whether two models save to the same bytes.
func sameSaved(t *testing.T, want, got interface{ Save(io.Writer) error }) bool {
	t.Helper()
	var a, b bytes.Buffer
	if err := want.Save(&a); err != nil {
		t.Fatal(err)
	}
	if err := got.Save(&b); err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(a.Bytes(), b.Bytes())
}

// TestRadiusParts: KNNRadius from the rows in blocks (RadiusPart of each
// block, merged by RadiusOf) equals KNNRadius on all rows exactly, with
// exact ties (integer coordinates), blocks in any order, one smaller than k.
func TestRadiusParts(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 9))
	n, d := 3000, 3
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, float64(rng.IntN(6)))
		}
	}
	for _, k := range []int{1, 7, 10} {
		want, err := KNNRadius(ctx, X, k)
		if err != nil {
			t.Fatal(err)
		}
		rows := RadiusRows(n)
		Q := mat.NewDense(len(rows), d, nil)
		for a, i := range rows {
			Q.SetRow(a, X.RawRowView(i))
		}
		var parts [][]float64
		for _, cut := range [][2]int{{2995, 3000}, {0, 1000}, {1000, 2995}} {
			p, err := RadiusPart(ctx, Q, X.Slice(cut[0], cut[1], 0, d).(*mat.Dense), k)
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		got, err := RadiusOf(parts, len(rows), k)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("k = %d: in parts %v, KNNRadius %v", k, got, want)
		}
	}
}
