package hclust

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// FromPointsCophenetic is FromPoints followed by the cophenetic
// correlation of the tree against the Euclidean distances of the rows of
// X (the first value of scipy.cluster.hierarchy.cophenet(Z, pdist(X))),
// without an N(N−1)/2 distance matrix and without a second pass over the
// pairs for average linkage:
//
//   - Average: the merge of clusters A and B at height h gives every pair
//     across them the cophenetic distance h, and h is the mean of their
//     |A|·|B| distances, so the cophenetic distance of a pair is the mean
//     of the distances of its block. The cross term then equals the
//     cophenetic variance, Σ(c−c̄)(d−d̄) = Σ(c−c̄)², and the correlation is
//     σ_c/σ_d: Σ(c−c̄)² comes from the merges in O(N), Σ(d−d̄)² is summed
//     while the working matrix is filled. The heights are the
//     Lance–Williams means, equal to the block means up to rounding: the
//     result agrees with SciPy's to about 1e-13.
//   - Other methods: CopheneticCorrelationPoints after the linkage.
//
// Errors: as FromPoints.
func FromPointsCophenetic(ctx context.Context, X mat.Matrix, m Method) (*Tree, float64, error) {
	if m != Average {
		t, err := FromPoints(ctx, X, m)
		if err != nil {
			return nil, 0, err
		}
		r, err := t.CopheneticCorrelationPoints(ctx, X)
		if err != nil {
			return nil, 0, err
		}
		return t, r, nil
	}
	pts, n, dim, err := points(ctx, X, m)
	if err != nil {
		return nil, 0, err
	}
	sq := newSquare[float64](n)
	sums := pairSums{shift: shiftEstimate(pts, n, dim)}
	if !sq.fillPoints(pts, dim, &sums) {
		return nil, 0, fmt.Errorf("hclust: Euclidean distance overflows float64: %w", ErrNonFinite)
	}
	t, err := linkageSquare(ctx, sq, m)
	if err != nil {
		return nil, 0, err
	}
	return t, t.averageCophenetic(sums), nil
}

// averageCophenetic is the cophenetic correlation σ_c/σ_d of an average
// linkage tree, from the sums of its distances about a shift.
func (t *Tree) averageCophenetic(s pairSums) float64 {
	mo := t.copheneticMoments()
	vd := s.b - s.a*s.a/mo.pairs
	return math.Sqrt(mo.scc / vd)
}

// shiftEstimate is the mean distance from the first point to up to 256
// others: near the mean of all distances, a shift for pairSums.
func shiftEstimate(pts []float64, n, dim int) float64 {
	k := min(n-1, 256)
	var s float64
	for j := 1; j <= k; j++ {
		s += distance.Dist(pts[:dim], pts[j*dim:j*dim+dim])
	}
	return s / float64(k)
}

// copheneticMoments are the moments of the cophenetic distances of a tree
// over its pairs, from the merges (merge k gives |A|·|B| pairs its height).
type copheneticMoments struct {
	pairs float64 // N(N−1)/2
	mc    float64 // mean cophenetic distance
	scc   float64 // Σ(C − mc)²
	s1    float64 // Σ(C − mc), 0 up to rounding
}

func (t *Tree) copheneticMoments() copheneticMoments {
	n := t.N
	mo := copheneticMoments{pairs: float64(n) * float64(n-1) / 2}
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
	mo.mc = sc / mo.pairs
	for _, m := range t.Merges {
		w := size(m.A) * size(m.B)
		mo.scc += (m.Height - mo.mc) * (m.Height - mo.mc) * w
		mo.s1 += (m.Height - mo.mc) * w
	}
	return mo
}

// CopheneticCorrelationPoints is CopheneticCorrelation against the
// Euclidean distances of the rows of X (pdist(X), each distance summed in
// pdist's order), made on the fly: no N(N−1)/2 matrix, O(N·d) extra
// memory. The points are copied into the tree's leaf order, where the
// pairs that merge k fixes at its height are the rectangle of its two
// children's runs; each leaf's row of pairs to its right is a few
// contiguous runs of points (one per ancestor whose left subtree holds
// the leaf), each at one cophenetic distance, read sequentially. One pass
// sums d − s, (d − s)² and (d − s)(c − m_c), with s an estimate of the
// mean distance (shiftEstimate) and m_c the mean cophenetic distance
// (from the merges), so that neither the variance of d nor the covariance
// is a small difference of large sums. The sums are per row, reduced in
// row order: the result does not depend on GOMAXPROCS. Time O(N²·d),
// parallel over rows.
//
// Errors: ErrTree when X has another number of rows than the tree has
// leaves; ErrNonFinite for a NaN or ±Inf coordinate; ctx's error.
func (t *Tree) CopheneticCorrelationPoints(ctx context.Context, X mat.Matrix) (float64, error) {
	pts, n, dim, err := distance.Points(X)
	if err != nil {
		return 0, fmt.Errorf("hclust: cophenetic correlation: %w", err)
	}
	if n != t.N {
		return 0, fmt.Errorf("hclust: cophenetic correlation of a %d-leaf tree against %d points: %w", t.N, n, ErrTree)
	}
	if n < 2 {
		return math.NaN(), nil
	}
	l := t.layout()
	Y := make([]float64, n*dim) // the points in leaf order
	for p, i := range l.order {
		copy(Y[p*dim:p*dim+dim], pts[int(i)*dim:int(i)*dim+dim])
	}
	mo := t.copheneticMoments()
	shift := shiftEstimate(pts, n, dim)
	size := func(c int32) int32 {
		if int(c) < n {
			return 1
		}
		return int32(t.Merges[int(c)-n].Size)
	}
	sa, sb, sx := make([]float64, n), make([]float64, n), make([]float64, n)
	const rowsPerTask = 16
	err = parallel.For(ctx, (n+rowsPerTask-1)/rowsPerTask, func(task int) {
		for p := task * rowsPerTask; p < min(n-1, task*rowsPerTask+rowsPerTask); p++ {
			x := Y[p*dim : p*dim+dim]
			var a, b, c float64
			for v := l.order[p]; l.parent[v] >= 0; v = l.parent[v] {
				par := l.parent[v]
				m := &t.Merges[int(par)-n]
				if int32(m.A) != v {
					continue // v is the right subtree: its pairs with the left one are in the rows to the left
				}
				q0 := l.lo[m.B]
				q1 := q0 + size(int32(m.B))
				ra, rb := spanSums(x, Y[int(q0)*dim:int(q1)*dim], dim, shift)
				a += ra
				b += rb
				c += (m.Height - mo.mc) * ra
			}
			sa[p], sb[p], sx[p] = a, b, c
		}
	})
	if err != nil {
		return 0, err
	}
	var a, b, x float64
	for p := range sa {
		a += sa[p]
		b += sb[p]
		x += sx[p]
	}
	cov := x - a/mo.pairs*mo.s1
	vd := b - a*a/mo.pairs
	return cov / math.Sqrt(vd*mo.scc), nil
}

// spanSums returns Σ(d − shift) and Σ(d − shift)² over the Euclidean
// distances d from x to the rows of the row-major Y (dim columns), each
// distance summed over the coordinates in order as distance.Dist. Four
// rows are measured at once; the sums are added in row order.
func spanSums(x, Y []float64, dim int, shift float64) (a, b float64) {
	x = x[:dim]
	rows := len(Y) / dim
	j := 0
	for ; j+4 <= rows; j += 4 {
		y := Y[j*dim : j*dim+4*dim]
		y0, y1, y2, y3 := y[:dim], y[dim:2*dim], y[2*dim:3*dim], y[3*dim:4*dim]
		var s0, s1, s2, s3 float64
		for k, v := range x {
			t0, t1, t2, t3 := v-y0[k], v-y1[k], v-y2[k], v-y3[k]
			s0 += float64(t0 * t0)
			s1 += float64(t1 * t1)
			s2 += float64(t2 * t2)
			s3 += float64(t3 * t3)
		}
		u0, u1, u2, u3 := math.Sqrt(s0)-shift, math.Sqrt(s1)-shift, math.Sqrt(s2)-shift, math.Sqrt(s3)-shift
		a += u0
		a += u1
		a += u2
		a += u3
		b += float64(u0 * u0)
		b += float64(u1 * u1)
		b += float64(u2 * u2)
		b += float64(u3 * u3)
	}
	for ; j < rows; j++ {
		u := distance.Dist(x, Y[j*dim:j*dim+dim]) - shift
		a += u
		b += float64(u * u)
	}
	return a, b
}
