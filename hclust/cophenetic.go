package hclust

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/parallel"
)

// CopheneticCorrelation returns the cophenetic correlation coefficient of
// the tree against the distances D it was built from: the Pearson
// correlation over all pairs i < j of D_ij and the cophenetic distance
// (the height at which i and j merge), as the first value of
// scipy.cluster.hierarchy.cophenet(Z, Y).
//
// Unlike pearson(D, Cophenetic()) it never forms the N(N−1)/2 cophenetic
// distances: each row is made in a buffer of N values and folded into
// per-row sums, two passes over D (means, then centred products), so the
// extra memory is O(N) per worker — single linkage keeps its O(N) memory.
// Time O(N²), parallel over rows, reduced in row order: the result does not
// depend on GOMAXPROCS. Errors: ErrTree when D has another number of
// points; ctx's error when cancelled. A constant D or tree gives NaN.
func (t *Tree) CopheneticCorrelation(ctx context.Context, D distance.Condensed) (float64, error) {
	n := t.N
	if D.N != n {
		return 0, fmt.Errorf("hclust: cophenetic correlation of a %d-leaf tree against %d points: %w", n, D.N, ErrTree)
	}
	if n < 2 {
		return math.NaN(), nil
	}
	pairs := float64(n) * float64(n-1) / 2
	// means: of D over its entries; of the cophenetic distances from the
	// merges (merge k joins |A|·|B| pairs at its height)
	var sd float64
	for _, v := range D.Data {
		sd += v
	}
	md := sd / pairs
	size := func(c int) float64 {
		if c < n {
			return 1
		}
		return float64(t.Merges[c-n].Size)
	}
	var sc float64
	for _, m := range t.Merges {
		sc += m.Height * size(m.A) * size(m.B)
	}
	mc := sc / pairs
	var scc float64
	for _, m := range t.Merges {
		scc += (m.Height - mc) * (m.Height - mc) * size(m.A) * size(m.B)
	}
	l := t.layout()
	sdc, sdd := make([]float64, n), make([]float64, n)
	const rowsPerTask = 16
	err := parallel.For(ctx, (n+rowsPerTask-1)/rowsPerTask, func(task int) {
		buf := make([]float64, n)
		for i := task * rowsPerTask; i < min(n-1, task*rowsPerTask+rowsPerTask); i++ {
			t.fillRow(l, i, buf)
			off := condRow(n, i)
			var a, b float64
			for k, d := range D.Data[off : off+n-i-1] {
				dd := d - md
				a += dd * (buf[i+1+k] - mc)
				b += dd * dd
			}
			sdc[i], sdd[i] = a, b
		}
	})
	if err != nil {
		return 0, err
	}
	var a, b float64
	for i := range sdc {
		a += sdc[i]
		b += sdd[i]
	}
	return a / math.Sqrt(b*scc), nil
}
