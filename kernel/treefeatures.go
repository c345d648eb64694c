package kernel

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// TreeFeatures computes Rows·W, the tree rule's kernel rows against its M
// training points (the landmarks of a Nyström map) times a fixed M×r matrix
// W, when the rule is the graft onto the nearest point (TreeExtension with
// S(x) = the nearest landmark: every linkage but single), in O(depth + r)
// per point instead of O(M·r).
//
// A point x whose nearest landmark is l, at distance δ, has the ultrametric
// row u_j = max(δ, M(l, j)). Let a be the highest ancestor of l in the
// landmark tree with height h_a ≤ δ (l itself, at height 0, when none):
// then u_j = δ for the landmarks j under a, and u_j = M(a, j) (the height
// of the lowest common ancestor of a and j, above δ) for the others. With
// W = U_r·Λ_r^{-1/2} (M×r, rows W_j) and, for every node v of the tree,
//
//	S_v = Σ_{j under v} W_j,           n_v = #{j under v},
//	A_v = Σ_{j not under v} M(v, j)·W_j, q_v = Σ_{j not under v} M(v, j),
//
// (top-down: A_root = 0, A_c = A_p + h_p·S_s for the child c of p whose
// sibling is s; likewise q), the row is u·W = δ·S_a + A_a and Σ_j u_j =
// δ·n_a + q_a. The centred kernel row K(x, j) = −½·(u_j − ū − m̄_j + m̿)
// then gives the features
//
//	z(x) = K(x, ·)·W = −½·(u·W − ū·S_root − c + m̿·S_root),  c = Σ_j m̄_j·W_j,
//
// that is z = α_a + δ·β_a with β_v = −½·(S_v − n_v/M·S_root) and
// α_v = −½·(A_v − q_v/M·S_root − c + m̿·S_root), precomputed per node:
// 2·(2M−1)·r numbers. The values equal TreeExtension.Rows · W up to
// rounding (the sums are grouped differently).
type TreeFeatures struct {
	e       *TreeExtension
	r       int
	alpha   []float64 // node v: alpha[v·r : v·r+r]
	beta    []float64
	nearest bool // the rule of e is the graft onto the nearest point (Features)
}

// NewTreeFeatures returns the graft features of e and W (M×r), or nil when
// the rule of e is not the graft onto the nearest point with every point a
// column (single linkage, a Columns subset) or W does not have M rows.
func NewTreeFeatures(e *TreeExtension, w *mat.Dense) *TreeFeatures {
	if e == nil || e.all || e.k != 1 || e.ix == nil {
		return nil
	}
	g := NewGraftFeatures(e, w)
	if g != nil {
		g.nearest = true
	}
	return g
}

// NewGraftFeatures returns Graft's precomputation for e's tree and W (M×r)
// whatever e's out-of-sample rule: the features of points whose graft
// (training point and height) the caller knows, such as the rows of a
// larger tree restricted to e's points (Features, which finds the graft
// by the nearest point, is then an error unless the rule is that graft).
// It returns nil when e has a Columns subset or W does not have M rows.
func NewGraftFeatures(e *TreeExtension, w *mat.Dense) *TreeFeatures {
	if e == nil || len(e.cols) != e.x.n {
		return nil
	}
	n := e.x.n
	for c, j := range e.cols {
		if c != j {
			return nil
		}
	}
	m, r := w.Dims()
	if m != n {
		return nil
	}
	nodes := 2*n - 1
	S := make([]float64, nodes*r)
	size := make([]float64, nodes)
	for j := 0; j < n; j++ {
		copy(S[j*r:j*r+r], w.RawRowView(j))
		size[j] = 1
	}
	// Children: nodes n.. are merges in order, so a child always has a
	// smaller number than its parent; summing upwards in node order visits
	// every child before its parent.
	child := make([][2]int32, nodes)
	for v := range child {
		child[v] = [2]int32{-1, -1}
	}
	for v := 0; v < nodes-1; v++ {
		p := e.parent[v]
		if child[p][0] < 0 {
			child[p][0] = int32(v)
		} else {
			child[p][1] = int32(v)
		}
	}
	for v := n; v < nodes; v++ {
		a, b := child[v][0], child[v][1]
		sv, sa, sb := S[v*r:v*r+r], S[int(a)*r:int(a)*r+r], S[int(b)*r:int(b)*r+r]
		for t := range sv {
			sv[t] = sa[t] + sb[t]
		}
		size[v] = size[a] + size[b]
	}
	A := make([]float64, nodes*r)
	q := make([]float64, nodes)
	for v := nodes - 2; v >= 0; v-- { // parents before children
		p := e.parent[v]
		s := child[p][0]
		if s == int32(v) {
			s = child[p][1]
		}
		h := e.height[p]
		av, ap, ss := A[v*r:v*r+r], A[int(p)*r:int(p)*r+r], S[int(s)*r:int(s)*r+r]
		for t := range av {
			av[t] = ap[t] + h*ss[t]
		}
		q[v] = q[p] + h*size[s]
	}
	root := S[(nodes-1)*r : nodes*r]
	c := make([]float64, r)
	for j := 0; j < n; j++ {
		cm := e.colMean[j]
		for t, v := range w.RawRowView(j) {
			c[t] += cm * v
		}
	}
	g := &TreeFeatures{e: e, r: r, alpha: make([]float64, nodes*r), beta: make([]float64, nodes*r)}
	fm := float64(n)
	for v := 0; v < nodes; v++ {
		al, be := g.alpha[v*r:v*r+r], g.beta[v*r:v*r+r]
		sv, av := S[v*r:v*r+r], A[v*r:v*r+r]
		for t := range al {
			be[t] = -0.5 * (sv[t] - size[v]/fm*root[t])
			al[t] = -0.5 * (av[t] - q[v]/fm*root[t] - c[t] + e.grand*root[t])
		}
	}
	return g
}

// Features sets the rows of Z (t×r) to the features of the t rows of Xt.
// Errors: ErrEmpty, ErrNonFinite, ErrShape, ctx.Err().
func (g *TreeFeatures) Features(ctx context.Context, Z *mat.Dense, Xt mat.Matrix) error {
	e := g.e
	if !g.nearest {
		return fmt.Errorf("%w: tree features: the rule of this tree is not the graft onto the nearest point", ErrBadParam)
	}
	x, err := newRows(Xt, "Xt")
	if err != nil {
		return err
	}
	if x.d != e.x.d {
		return fmt.Errorf("%w: tree features: Xt has %d columns, the training points %d", ErrShape, x.d, e.x.d)
	}
	if r, c := Z.Dims(); r != x.n || c != g.r {
		return fmt.Errorf("%w: tree features: Z is %d×%d, want %d×%d", ErrShape, r, c, x.n, g.r)
	}
	return parallel.Chunks(ctx, x.n, 1024, func(lo, hi int) {
		q := make([]float64, (hi-lo)*x.d)
		for i := lo; i < hi; i++ {
			copy(q[(i-lo)*x.d:], x.row(i))
		}
		nb := make([]neighbors.Neighbor, 0, 1)
		for a := 0; a < hi-lo; a++ {
			// The nearest landmark (ties to the lower index), as ultrametric.
			nb = e.ix.Query(q[a*x.d:a*x.d+x.d], 1, -1, nb)
			g.Graft(Z.RawRowView(lo+a), int(nb[0].Index), max(math.Sqrt(nb[0].D2), 0))
		}
	})
}

// Rank returns r, the number of features.
func (g *TreeFeatures) Rank() int { return g.r }

// Graft sets z (length r) to the features of a point grafted onto training
// point l at height delta ≥ 0.
func (g *TreeFeatures) Graft(z []float64, l int, delta float64) {
	e, r := g.e, g.r
	v := int32(l)
	for p := e.parent[v]; p >= 0 && e.height[p] <= delta; p = e.parent[p] {
		v = p
	}
	al, be := g.alpha[int(v)*r:int(v)*r+r], g.beta[int(v)*r:int(v)*r+r]
	for t := range z {
		z[t] = al[t] + delta*be[t]
	}
}
