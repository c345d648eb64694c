package landmark

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// SingleAllRowsMaxN is the largest N for which newNystromSingle is used
// for the landmark single-linkage kernels (hck:single, connectivity): its
// tree is Prim's minimum spanning tree of all N rows, O(N²·d) time in O(N)
// memory (about 2 s at N = 20,000, d = 16). Above it the tree is built on
// the landmarks alone (newNystromHCK).
const SingleAllRowsMaxN = 100000

// newNystromSingle fits the landmark single-linkage cluster kernel on the
// single-linkage tree of ALL rows of X instead of the landmarks alone, and
// returns it with the N×r features of the rows of X.
//
// Single linkage needs no distance matrix (hclust.FromPoints: Prim on the
// points, SciPy's tree), so the exact ultrametric M of the N rows is at
// hand in O(N) memory, and its columns at the M landmarks in O(N) each.
// The landmark kernel is then the exact one restricted to the landmarks,
// K_LL = −½·J·M_LL·J, and every training row x gets its exact row
// K(x, l) = −½·(M(x, l) − ū_x − m̄_l + m̿) (ū_x, m̄_l, m̿: means over the
// landmarks, as TreeExtension centres), so that z(x)·z(l) = K(x, l) for
// every landmark l: the kernel values the SVM and kNN read between a row
// and a labelled landmark are those of the exact N×N kernel up to a
// centring both learners ignore (the SVM's Σ yα = 0 absorbs it into the
// bias; kNN ranks by M(x, l)). The tree on the landmarks (Save, new
// points) is the exact tree restricted to them: single linkage on M_LL,
// which reproduces it; new points enter it by the single-linkage rule of
// TreeExtension.
//
// A training row's ultrametric against the landmarks is that of its
// graft onto the landmark tree (Training): its lowest ancestor over a
// landmark l, at that ancestor's height h, gives max(h, M(l, ·)), so its
// features cost O(depth + r), not O(M·r).
//
// Cost: O(N²·d) for the tree, O(N) for the grafts, O(M³) for K_LL's
// eigenvectors, O(N·(depth + r)) for the features; memory O(N + M·r)
// besides the features (newNystromSingle: N×r). Errors: ErrEmpty, ErrNonFinite,
// ErrBadParam, hclust's, ctx.Err().
func newNystromSingle(ctx context.Context, X mat.Matrix, landmarks []int, rcond float64) (*Nystrom, *mat.Dense, error) {
	ny, t, err := trainSingle(ctx, X, landmarks, rcond)
	return withAll(ctx, ny, t, err)
}

// trainSingle is newNystromSingle with the features as a Training.
func trainSingle(ctx context.Context, X mat.Matrix, landmarks []int, rcond float64) (*Nystrom, *Training, error) {
	lm, n, _, err := fullTreeLandmarks(X, landmarks)
	if err != nil {
		return nil, nil, err
	}
	full, err := hclust.FromPoints(ctx, X, hclust.Single)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: hck:single: %w", err)
	}
	return nystromFromFullTree(ctx, lm, n, full, kernel.HCK{Method: hclust.Single}, landmarks, rcond, nil)
}

// fullTreeLandmarks checks the landmarks of a map on the tree of all rows
// (at least 2) and returns their rows, N and M.
func fullTreeLandmarks(X mat.Matrix, landmarks []int) (*mat.Dense, int, int, error) {
	lm, err := landmarkRows(X, landmarks)
	if err != nil {
		return nil, 0, 0, err
	}
	n, _ := X.Dims()
	if m := len(landmarks); m < 2 {
		return nil, 0, 0, fmt.Errorf("%w: %d landmarks, want at least 2", kernel.ErrBadParam, m)
	}
	return lm, n, len(landmarks), nil
}

// nystromFromFullTree is trainSingle after the tree: full is the tree of
// all n rows, lm the landmark points; geo (graph variants) gives new
// points their geodesics to the landmarks. The training rows' features
// are their grafts onto the landmark tree (Training).
func nystromFromFullTree(ctx context.Context, lm *mat.Dense, n int, full *hclust.Tree, h kernel.HCK, landmarks []int, rcond float64, geo *geoSource) (*Nystrom, *Training, error) {
	m := len(landmarks)
	// M_LL, condensed, from the landmarks' ultrametric rows.
	cond := make([]float64, m*(m-1)/2)
	err := full.UltrametricOf(ctx, landmarks, func(c int, row []float64) {
		off := m*c - c*(c+1)/2
		for c2 := c + 1; c2 < m; c2++ {
			cond[off+c2-c-1] = row[landmarks[c2]]
		}
	})
	if err != nil {
		return nil, nil, err
	}
	lt, err := hclust.Linkage(ctx, distance.Condensed{N: m, Data: cond}, hclust.Single)
	if err != nil {
		return nil, nil, fmt.Errorf("landmark: hck:single on the landmarks: %w", err)
	}
	ext, err := kernel.NewTreeExtension(lm, h, lt, nil)
	if err != nil {
		return nil, nil, err
	}
	K, err := treeKernel(ctx, lt)
	if err != nil {
		return nil, nil, err
	}
	ny := &Nystrom{Landmarks: append([]int(nil), landmarks...), lm: lm, tree: ext, h: h, t: lt, AllRows: true, geo: geo}
	if err := ny.factor(ctx, K, rcond); err != nil {
		return nil, nil, err
	}
	// Every row's features: its graft onto the landmark tree (Training).
	g := kernel.NewGraftFeatures(ext, ny.w)
	if g == nil {
		return nil, nil, fmt.Errorf("landmark: the tree on the landmarks has no graft features")
	}
	anchor, height := graftsOf(full, landmarks)
	return ny, &Training{n: n, r: ny.Rank, graft: g, anchor: anchor, height: height}, ctx.Err()
}

// withAll returns the map with its N×r features in full (Training.All).
func withAll(ctx context.Context, ny *Nystrom, t *Training, err error) (*Nystrom, *mat.Dense, error) {
	if err != nil {
		return nil, nil, err
	}
	Z, err := t.All(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ny, Z, nil
}
