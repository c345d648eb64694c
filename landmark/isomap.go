package landmark

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// ISOMAP is the landmark ISOMAP of de Silva & Tenenbaum ("Global
// versus local methods in nonlinear dimensionality reduction", NIPS 2002;
// "Sparse multidimensional scaling using landmark points", 2004): the
// neighbourhood graph of all N points, shortest paths from the M landmarks
// only (graph.DistancesFrom, M×N), then landmark MDS. With Δ the M×M
// squared geodesic distances among the landmarks, B = −½·H·Δ·H = V Λ Vᵀ
// (H the centring matrix) and its r eigenvalues above RCond·λ_max, a point
// a with squared geodesic distances δ_a to the landmarks gets
//
//	y_a = −½ · Λ_r^{-1/2} V_rᵀ · (δ_a − δ̄),  δ̄ the mean of Δ's columns,
//
// so y_a·y_b approximates the ISOMAP kernel −½·J·G⁽²⁾·J (exact, up to the
// clipped eigenvalues, when every point is a landmark). Features are the
// rows y_a: the linear kernel on them is the landmark ISOMAP kernel.
// A new point's geodesic distances run through its graph neighbours among
// the training points: δ_x,l = min over neighbours p of (‖x − p‖ + G(l, p))².
// A graph of several components is joined by paper 000 Eq. 4 exactly as
// ISOMAP.Gram joins it (graph.JoinedDistancesFrom: the same pairs and
// lengths, the joins added as edges, g_max found exactly without all
// pairs), so with every point a landmark this is ISOMAP.Gram's kernel.
// (A g_max taken from the landmarks' paths only underestimates it: on
// 4,000 letter rows with 1,000 landmarks that scores 6.5 % where exact
// ISOMAP scores 70 %; with the exact g_max landmark MDS scores as the
// exact kernel there: bench/lmacc, docs/landmarks.md.)
// Cost: the graph (internal/neighbors for knn), M shortest-path searches
// (twice, and a few more, when the graph is disconnected: O(N²·d) for the
// joins), O(M³); memory O(N·M).
type ISOMAP struct {
	// Landmarks are the landmark rows (ascending), Rank the feature count,
	// Clipped the eigenvalues of B dropped.
	Landmarks     []int
	Rank, Clipped int

	x     rows
	data  []float64
	spec  graph.Spec
	geo   *mat.Dense // M×N geodesic distances from the landmarks
	proj  *mat.Dense // r×M: −½ Λ_r^{-1/2} V_rᵀ
	mean  []float64  // δ̄ (M)
	train *mat.Dense // N×r
	ix    *neighbors.Index
}

// newISOMAP fits the landmark ISOMAP of the rows of X on the graph
// spec (empty Kind: DefaultGraph). rcond 0 means ε: B's eigenvalues at or
// below rcond·λ_max (its eigendecomposition's rounding floor) are dropped,
// every other positive one is kept, as the exact kernel's PSD clip keeps
// them. Errors: ErrEmpty,
// ErrNonFinite, ErrBadParam (landmarks), the graph's errors (a
// disconnected graph over more than graph.MaxJoinRows rows), ErrEigen,
// ctx.Err().
//
// Numerics. A graph joined by paper 000 Eq. 4 puts the structure inside
// its components far below B's largest eigenvalue (UCI letter: 33
// components, geodesics from 43 to 6.5·10⁶, the within-component
// directions at 10⁻⁸–10⁻¹⁰ of λ_max), so the small eigenvalues carry what
// the learners need and must be kept; two things make them safe:
//   - every row δ_a − δ̄ is centred before it is projected (centre): B's
//     computed eigenvectors are orthogonal to 1 only up to ε·‖B‖/λ_j, and
//     the rows' constant part is as large as the squared geodesics, so an
//     uncentred projection took a leak of 10⁻³ of the kernel's scale;
//   - a landmark's own features are √λ_j·v_j(c) in closed form, so a value
//     between any row and a landmark, Σ_j −½·v_jᵀ(δ_a − δ̄)·v_j(c), has no
//     division by √λ_j.
//
// A row that is not a landmark still has ‖y_a‖² inflated along the small
// eigenvalues by the geodesics' non-Euclidean misfit; a learner that
// reads only values against landmarks (the SVM, kNN with
// knn.Classifier.IgnoreSelf) is not affected. A cut at √ε·λ_max loses
// the within-component structure: on letter's first 8,000 rows (M = 2,000)
// the SVM scores 68.50 with it, 72.19 with these numerics, where exact
// ISOMAP scores 71.87 (kNN 70.84 vs 70.05). On all of letter (20,000 rows,
// 1,046 of B's 2,000 eigenvalues positive, λ_max 9·10¹⁵) a cut at M·ε
// (Nyström's, 4·10³ here) still drops real structure: SVM 61.83 where
// exact scores 65.49; at ε, 65.76 (bench/lmacc, docs/landmarks.md).
func newISOMAP(ctx context.Context, X mat.Matrix, spec graph.Spec, landmarks []int, rcond float64) (*ISOMAP, error) {
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	spec = graphOrDefault(spec)
	n, d := x.n, x.d
	data := make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(data[i*d:], x.row(i))
	}
	Xd := mat.NewDense(n, d, data)
	if _, err := landmarkRows(X, landmarks); err != nil {
		return nil, err
	}
	g, err := graph.Build(ctx, Xd, spec)
	if err != nil {
		return nil, fmt.Errorf("landmark: landmark isomap: %w", err)
	}
	joined, err := graph.JoinedDistancesFrom(ctx, g, data, d, landmarks)
	if err != nil {
		return nil, fmt.Errorf("landmark: landmark isomap: %w", err)
	}
	geo := joined.From
	m := len(landmarks)
	// Δ among the landmarks, symmetrised (paths summed from either end).
	delta := mat.NewSymDense(m, nil)
	for a := 0; a < m; a++ {
		for b := a; b < m; b++ {
			v := 0.5 * (geo.At(a, landmarks[b]) + geo.At(b, landmarks[a]))
			delta.SetSym(a, b, v*v)
		}
	}
	mean := make([]float64, m)
	for a := 0; a < m; a++ {
		for b := 0; b < m; b++ {
			mean[b] += delta.At(a, b) / float64(m)
		}
	}
	B := centerSym(delta)
	vals, V, err := eigen.Sym(ctx, B, true)
	if err != nil {
		return nil, fmt.Errorf("landmark: landmark isomap: %w: %w", kernel.ErrEigen, err)
	}
	if rcond == 0 {
		rcond = 0x1p-52
	}
	top := vals[m-1]
	var keep []int
	for j := m - 1; j >= 0; j-- {
		if top > 0 && vals[j] > rcond*top {
			keep = append(keep, j)
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: landmark isomap: no positive eigenvalue", kernel.ErrBadParam)
	}
	l := &ISOMAP{Landmarks: append([]int(nil), landmarks...), Rank: len(keep), Clipped: m - len(keep),
		x: x, data: data, spec: spec, geo: geo, mean: mean}
	l.proj = mat.NewDense(len(keep), m, nil)
	for c, j := range keep {
		s := -0.5 / math.Sqrt(vals[j])
		for a := 0; a < m; a++ {
			l.proj.Set(c, a, s*V.At(a, j))
		}
	}
	// Training features: column p of geo gives δ_p.
	l.train = mat.NewDense(n, l.Rank, nil)
	err = parallel.Chunks(ctx, n, 256, func(lo, hi int) {
		dl := make([]float64, m)
		for p := lo; p < hi; p++ {
			for a := 0; a < m; a++ {
				v := geo.At(a, p)
				dl[a] = v*v - mean[a]
			}
			centre(dl)
			l.project(l.train.RawRowView(p), dl)
		}
	})
	if err != nil {
		return nil, err
	}
	// A landmark's own features in closed form, √λ_j·v_j(c): the
	// triangulation above gives them only up to its rounding, ε·‖δ‖
	// divided by √λ_j, which along a small eigenvalue is far larger than
	// the feature itself. With these rows a value between any row and a
	// landmark, y_a·y_c = Σ_j −½·v_jᵀ(δ_a − δ̄)·v_j(c), has no division.
	for c, a := range landmarks {
		row := l.train.RawRowView(a)
		for col, j := range keep {
			row[col] = math.Sqrt(vals[j]) * V.At(c, j)
		}
	}
	if spec.Kind == graph.KindKNN {
		l.ix = neighbors.New(data, n, d)
	}
	return l, nil
}

// centre subtracts its mean from v. The eigenvectors of B are orthogonal
// to 1 only up to ε·‖B‖/λ_j, and δ_a − δ̄ has a constant part as large as
// the squared geodesics (on Eq. 4 joins 10⁹–10¹⁰ times the structure
// inside a component), so the projection of an uncentred row would pick
// up that leak; centred, it is the same map in exact arithmetic.
func centre(v []float64) {
	s := 0.0
	for _, x := range v {
		s += x
	}
	s /= float64(len(v))
	for i := range v {
		v[i] -= s
	}
}

func (l *ISOMAP) project(dst, dl []float64) {
	for c := range dst {
		dst[c] = 0
		row := l.proj.RawRowView(c)
		for a, v := range dl {
			dst[c] += row[a] * v
		}
	}
}

// Train returns the N×r features of the training rows (a copy); nil for a
// map read by LoadISOMAP, which keeps only what new points need.
func (l *ISOMAP) Train() *mat.Dense {
	if l.train == nil {
		return nil
	}
	return mat.DenseCopyOf(l.train)
}

// Features returns the t×r features of new points, their geodesic
// distances taken through their graph neighbours among the training points
// (the K nearest for knn:K; those within ε, or the nearest, for eps:ε).
// Errors: ErrEmpty, ErrNonFinite, ErrShape, ctx.Err().
func (l *ISOMAP) Features(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	return l.rows(ctx, Xt, true)
}

func (l *ISOMAP) rows(ctx context.Context, Xt mat.Matrix, project bool) (*mat.Dense, error) {
	xt, err := newRows(Xt, "Xt")
	if err != nil {
		return nil, err
	}
	if xt.d != l.x.d {
		return nil, fmt.Errorf("%w: landmark isomap: %d columns, the training points %d", kernel.ErrShape, xt.d, l.x.d)
	}
	m := len(l.Landmarks)
	n, d := l.x.n, l.x.d
	width := m
	if project {
		width = l.Rank
	}
	out := mat.NewDense(xt.n, width, nil)
	err = parallel.Chunks(ctx, xt.n, 64, func(lo, hi int) {
		dl := make([]float64, m)
		var nb []neighbors.Neighbor
		for r := lo; r < hi; r++ {
			x := xt.row(r)
			nb = nb[:0]
			if l.ix != nil {
				nb = l.ix.Query(x, min(l.spec.K, n), -1, nb)
			} else {
				best := neighbors.Neighbor{D2: math.Inf(1)}
				for p := 0; p < n; p++ {
					s := 0.0
					for t, v := range x {
						u := v - l.data[p*d+t]
						s += u * u
					}
					if s <= l.spec.Eps*l.spec.Eps {
						nb = append(nb, neighbors.Neighbor{D2: s, Index: int32(p)})
					}
					if s < best.D2 {
						best = neighbors.Neighbor{D2: s, Index: int32(p)}
					}
				}
				if len(nb) == 0 {
					nb = append(nb, best)
				}
			}
			for a := 0; a < m; a++ {
				g := math.Inf(1)
				for _, c := range nb {
					g = min(g, math.Sqrt(c.D2)+l.geo.At(a, int(c.Index)))
				}
				dl[a] = g*g - l.mean[a]
			}
			centre(dl)
			if project {
				l.project(out.RawRowView(r), dl)
			} else {
				copy(out.RawRowView(r), dl)
			}
		}
	})
	return out, err
}

// Base returns the t×M rows the features are a linear map of: the new
// points' squared geodesic distances to the landmarks minus δ̄, centred
// (as Features computes them), so that Features = Base·Projection.
func (l *ISOMAP) Base(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	return l.rows(ctx, Xt, false)
}

// Projection returns the M×r matrix (−½ Λ_r^{-1/2} V_rᵀ)ᵀ (a copy).
func (l *ISOMAP) Projection() *mat.Dense { return mat.DenseCopyOf(l.proj.T()) }

// centerSym returns −½·H·A·H for a symmetric A (a new matrix).
func centerSym(A *mat.SymDense) *mat.SymDense {
	m := A.SymmetricDim()
	row := make([]float64, m)
	all := 0.0
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			row[i] += A.At(i, j)
		}
		all += row[i]
		row[i] /= float64(m)
	}
	all /= float64(m * m)
	B := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			B.SetSym(i, j, -0.5*(A.At(i, j)-row[i]-row[j]+all))
		}
	}
	return B
}
