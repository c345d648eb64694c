package kernel

import (
	"context"
	"fmt"
	"runtime"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// DefaultGraph returns the neighbourhood graph of the graph variants when
// none is given: the symmetrised 7-NN graph of paper 000 §4 and peers.py.
func DefaultGraph() graph.Spec { return graph.Spec{Kind: graph.KindKNN, K: 7} }

// Info describes how a data-dependent kernel was built.
type Info struct {
	// Joins is the number of edges the Eq. 4 rule added to connect the
	// neighbourhood graph (graph variants only).
	Joins int
	// NegEigs is the number of negative eigenvalues of -½·J·G⁽²⁾·J below
	// -N·ε·max|λ| that ClipPSD set to zero (ISOMAP only; see ClipPSD).
	NegEigs int
	// Tree is the dendrogram behind a cluster kernel (nil for ISOMAP).
	Tree *hclust.Tree
}

// HCK is the hierarchical cluster kernel of paper 000 §3.4 (Bodó 2008):
//
//  1. agglomerative clustering of all N points (labelled and unlabelled)
//     with linkage Method, on Euclidean distances (Graph nil) or on the
//     geodesic distances of a neighbourhood graph (Graph non-nil; the
//     three "preceding steps" of §3.4, components joined by Eq. 4);
//  2. M = the ultrametric (cophenetic) matrix of the tree: M_ij = height of
//     the lowest common ancestor of i and j;
//  3. K = -½·J·M·J (M itself, not squared, as in peers.py).
//
// For a monotone tree M is ultrametric, so K is positive semi-definite
// (Theorem 4); Centroid and Median linkages have inversions and are
// rejected. A Graph with an empty Kind means DefaultGraph (knn:7).
// Cost: O(N²d) distances (+ O(N·(E+N) log N) shortest paths for the graph
// variant), O(N²) linkage (hclust), O(N²) ultrametric and centring;
// memory about two N×N float64 matrices.
type HCK struct {
	Method hclust.Method
	Graph  *graph.Spec // nil: Euclidean distances
}

// ISOMAP is the ISOMAP kernel of paper 000 §3.3 (Tenenbaum et al. 2000;
// Ham et al. 2004): K = -½·J·G⁽²⁾·J over the squared geodesic distances G of
// the neighbourhood graph Graph (empty Kind = DefaultGraph, knn:7;
// components joined by Eq. 4), with negative eigenvalues set to 0
// (ClipPSD), as peers.py. Cost: the geodesics plus an O(N³)
// eigendecomposition.
type ISOMAP struct {
	Graph graph.Spec
}

// Connectivity is the connectivity kernel of Fischer, Roth & Buhmann
// (2003) as paper 000 §4 computes it: the hierarchical cluster kernel with
// single linkage on Euclidean distances (the path-specific effective
// dissimilarity min over paths of the largest edge is the single-linkage
// ultrametric).
type Connectivity struct{}

// Validate reports a linkage the cluster kernel does not accept (ErrBadParam):
// centroid and median have inversions, so their K would not be PSD.
func (h HCK) Validate() error {
	switch h.Method {
	case hclust.Single, hclust.Complete, hclust.Average, hclust.Weighted, hclust.Ward:
	case hclust.Centroid, hclust.Median:
		return fmt.Errorf("%w: HCK linkage %v has inversions: its cophenetic matrix is not ultrametric, so K would not be PSD", ErrBadParam, h.Method)
	default:
		return fmt.Errorf("%w: HCK linkage method %d", ErrBadParam, int(h.Method))
	}
	return nil
}

// Gram returns the N×N cluster kernel of the rows of X, its Info (Tree,
// and Joins for the graph variant). Errors: ErrBadParam (method), ErrEmpty
// (fewer than 2 points), ErrNonFinite, errors of graph.Geodesic (bad graph
// spec, k ≥ N, ...) and hclust.Linkage, and ctx.Err().
func (h HCK) Gram(ctx context.Context, X mat.Matrix) (*mat.SymDense, Info, error) {
	if err := h.Validate(); err != nil {
		return nil, Info{}, err
	}
	if _, err := checkPoints(X); err != nil {
		return nil, Info{}, err
	}
	var (
		tree *hclust.Tree
		info Info
		err  error
	)
	if h.Graph == nil {
		tree, err = hclust.FromPoints(ctx, X, h.Method)
		if err != nil {
			return nil, Info{}, fmt.Errorf("kernel: hck:%v: %w", h.Method, err)
		}
	} else {
		geo, err := graph.Geodesic(ctx, X, graphOrDefault(*h.Graph))
		if err != nil {
			return nil, Info{}, fmt.Errorf("kernel: hckg:%v: %w", h.Method, err)
		}
		info.Joins = geo.Joins
		tree, err = hclust.Linkage(ctx, condense(ctx, geo.G.RawSymmetric()), h.Method)
		if err != nil {
			return nil, Info{}, fmt.Errorf("kernel: hckg:%v: %w", h.Method, err)
		}
	}
	info.Tree = tree
	K, err := treeKernel(ctx, tree)
	return K, info, err
}

// Gram returns the N×N ISOMAP kernel of the rows of X and its Info (Joins,
// NegEigs). Errors: ErrEmpty, ErrNonFinite, errors of graph.Geodesic,
// ErrEigen, and ctx.Err().
func (s ISOMAP) Gram(ctx context.Context, X mat.Matrix) (*mat.SymDense, Info, error) {
	if _, err := checkPoints(X); err != nil {
		return nil, Info{}, err
	}
	geo, err := graph.Geodesic(ctx, X, graphOrDefault(s.Graph))
	if err != nil {
		return nil, Info{}, fmt.Errorf("kernel: isomap: %w", err)
	}
	return isomapFromGeodesic(ctx, geo)
}

// Gram returns the connectivity kernel: HCK{Method: hclust.Single}.Gram.
func (Connectivity) Gram(ctx context.Context, X mat.Matrix) (*mat.SymDense, Info, error) {
	return HCK{Method: hclust.Single}.Gram(ctx, X)
}

func isomapFromGeodesic(ctx context.Context, geo graph.GeodesicResult) (*mat.SymDense, Info, error) {
	K := CenterSquared(nil, geo.G)
	if err := ctx.Err(); err != nil {
		return nil, Info{}, err
	}
	K, neg, err := ClipPSD(ctx, K, K)
	if err != nil {
		return nil, Info{}, fmt.Errorf("kernel: isomap: %w", err)
	}
	return K, Info{Joins: geo.Joins, NegEigs: neg}, nil
}

// treeKernel returns -½·J·M·J for the ultrametric M of t, in place.
func treeKernel(ctx context.Context, t *hclust.Tree) (*mat.SymDense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The linkage's N×N working matrix is garbage by now: collect it before
	// M takes its 8N² bytes, or the runtime (which collects when the heap
	// doubles) holds both: arbor classify --kernel hck:average at N = 20,000
	// peaked at 7.7 GiB instead of 4.8 (bench/float32/measure.py).
	runtime.GC()
	M := t.Ultrametric(nil)
	return Center(M, M), ctx.Err()
}

func graphOrDefault(s graph.Spec) graph.Spec {
	if s.Kind == "" {
		return DefaultGraph()
	}
	return s
}

// checkPoints checks that X has at least 2 rows, at least one column and
// finite entries.
func checkPoints(X mat.Matrix) (rows, error) {
	r, err := newRows(X, "X")
	if err != nil {
		return rows{}, err
	}
	if r.n < 2 {
		return rows{}, fmt.Errorf("%w: X has %d row, need at least 2 points", ErrEmpty, r.n)
	}
	return r, nil
}

// condense returns the strict upper triangle of s in SciPy's condensed
// layout, in parallel.
func condense(ctx context.Context, s blas64.Symmetric) distance.Condensed {
	n := s.N
	c := distance.NewCondensed(n)
	_ = parallel.For(ctx, n, func(i int) {
		off := n*i - i*(i+1)/2
		copy(c.Data[off:off+n-i-1], s.Data[i*s.Stride+i+1:i*s.Stride+n])
	})
	return c
}
