package hclust

import (
	"context"
	"math"
	"runtime"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// CopheneticCorrelationRows is CopheneticCorrelation with the distances
// supplied a row at a time: dist(i, row) must set row[j] = D_ij for every
// j > i (it may be called concurrently for different i, and row[:i+1] is
// scratch). No N(N−1)/2 distance matrix is needed: distances made on the
// fly from the points, or read from the rows of a square matrix, keep the
// memory at O(N) per worker (what arbor cluster --float32 needs).
//
// One pass over the pairs: with s the mean of row 0's first distances (an
// estimate of D's mean) and m_c the mean cophenetic distance (known from
// the merges before the pass), the sums Σ(D−s), Σ(D−s)² and
// Σ(D−s)(C−m_c) give the Pearson correlation; shifting D by s keeps the
// cancellation in Σ(D−m_d)² = Σ(D−s)² − (Σ(D−s))²/P small, also when the
// heights are far larger than the distances (ward). Agrees with
// CopheneticCorrelation to about 1e-12 (TestCopheneticCorrelationRows).
// Time O(N²) plus N(N−1)/2 calls' worth of dist work; parallel over rows,
// reduced in row order (independent of GOMAXPROCS). Errors: ctx's error.
func (t *Tree) CopheneticCorrelationRows(ctx context.Context, dist func(i int, row []float64)) (float64, error) {
	n := t.N
	if n < 2 {
		return math.NaN(), nil
	}
	mo := t.copheneticMoments()
	pairs, mc, scc, s1 := mo.pairs, mo.mc, mo.scc, mo.s1
	var shift float64
	{
		row := make([]float64, n)
		dist(0, row)
		k := min(n-1, 256)
		for _, v := range row[1 : 1+k] {
			shift += v
		}
		shift /= float64(k)
	}
	l := t.layout()
	sa, sb, sx := make([]float64, n), make([]float64, n), make([]float64, n)
	const rowsPerTask = 16
	workers := runtime.GOMAXPROCS(0)
	bufs := make([][]float64, workers) // per worker: O(N) garbage, not per task
	err := parallel.ForWorkers(ctx, (n+rowsPerTask-1)/rowsPerTask, workers, func(w, task int) {
		if bufs[w] == nil {
			bufs[w] = make([]float64, 2*n)
		}
		coph, d := bufs[w][:n], bufs[w][n:]
		for i := task * rowsPerTask; i < min(n-1, task*rowsPerTask+rowsPerTask); i++ {
			t.fillRow(l, i, coph)
			dist(i, d)
			var a, b, x float64
			for j := i + 1; j < n; j++ {
				u := d[j] - shift
				a += u
				b += u * u
				x += u * (coph[j] - mc)
			}
			sa[i], sb[i], sx[i] = a, b, x
		}
	})
	if err != nil {
		return 0, err
	}
	var a, b, x float64
	for i := range sa {
		a += sa[i]
		b += sb[i]
		x += sx[i]
	}
	cov := x - a/pairs*s1
	vd := b - a*a/pairs
	return cov / math.Sqrt(vd*scc), nil
}
