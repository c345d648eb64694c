package landmark

import (
	"context"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
)

// Map is a fitted landmark feature map: *Nystrom (point and cluster
// kernels), *ISOMAP or *MultiType. Features gives new points their
// features; Save writes the map for LoadNystrom, LoadISOMAP or
// LoadMultiType.
type Map interface {
	Features(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error)
	Save(w io.Writer) error
}

var (
	_ Map = (*Nystrom)(nil)
	_ Map = (*ISOMAP)(nil)
	_ Map = (*MultiType)(nil)
)

// Tree says which tree a landmark cluster kernel (hck, hckg,
// connectivity) reads its landmark kernel from.
type Tree int

const (
	// TreeAuto is TreeAllRows up to the row limits (SingleAllRowsMaxN,
	// CellsAllRowsMaxN, GraphCellsAllRowsMaxN) and TreeLandmarks above
	// them; the graph variants (hckg) always use the graph of all rows.
	TreeAuto Tree = iota
	// TreeLandmarks builds the tree on the landmarks alone; every other
	// row enters it by the tree-aware rule (kernel.TreeExtension).
	TreeLandmarks
	// TreeAllRows builds the tree of all rows (exact for single linkage
	// and Ward, the cells of hclust.ExactCells or of the landmarks for
	// complete, average and weighted; the geodesics of the graph of all
	// rows for hckg) and restricts it to the landmarks.
	TreeAllRows
)

// Settings are the settings of a landmark feature map.
type Settings struct {
	// Kernel is the kernel the features approximate: a point kernel
	// (rbf:scale is resolved on X by Spec.Resolve), hck, hckg,
	// connectivity, isomap or multitype.
	Kernel kernel.Spec
	// RCond is the relative cut on the landmark kernel's eigenvalues:
	// those at or below RCond·λ_max are dropped; 0 means M·ε (landmark
	// ISOMAP: ε).
	RCond float64
	// Tree is the tree of the cluster kernels (TreeAuto when zero).
	Tree Tree
}

// Fit fits the landmark feature map of s.Kernel on the rows landmarks of X
// (Choose, ChooseIncluding) and returns it with the N×r features of the
// rows of X:
//
//   - point kernels: Nyström, Z = K_NM·W with W = K_MM^{-1/2} on its
//     positive part;
//   - hck and connectivity (= hck:single): Nyström of the cluster kernel
//     on a tree restricted to the landmarks (see Tree): single linkage
//     from the exact tree of all rows (Prim, O(N) memory) with exact rows
//     against the landmarks; complete, average, weighted and Ward from the
//     linkage of all rows with each landmark's cell joined first (exact
//     for Ward, and for the others when hclust.ExactCells certifies few
//     enough clusters); or the tree of the landmarks alone with the other
//     rows grafted by the tree-aware rule;
//   - hckg: the same on the geodesics from the landmarks over the graph of
//     all rows (components joined by paper 000 Eq. 4);
//   - isomap: landmark ISOMAP (de Silva & Tenenbaum 2003, landmark MDS);
//   - multitype: the transfer on the spectrum of the Nyström affinity
//     (Fowlkes, Belongie, Chung & Malik 2004).
//
// Errors: kernel.ErrBadParam (a kernel without a landmark form, bad
// landmarks or settings), kernel.ErrEmpty, kernel.ErrNonFinite,
// kernel.ErrEigen, the graph's and hclust's errors, ctx.Err().
func (s Settings) Fit(ctx context.Context, X mat.Matrix, landmarks []int) (Map, *mat.Dense, error) {
	fm, t, err := s.FitTraining(ctx, X, landmarks)
	if err != nil {
		return nil, nil, err
	}
	Z, err := t.All(ctx)
	if err != nil {
		return nil, nil, err
	}
	return fm, Z, nil
}

// FitTraining is Fit with the training rows' features as a Training,
// given a block of rows at a time, instead of the N×r matrix: the dense
// features only for hckg on the landmarks' tree, isomap and multitype,
// whose rows come from the N×M geodesics the map holds anyway. Errors as
// Fit.
func (s Settings) FitTraining(ctx context.Context, X mat.Matrix, landmarks []int) (Map, *Training, error) {
	if s.Tree < TreeAuto || s.Tree > TreeAllRows {
		return nil, nil, fmt.Errorf("%w: landmark tree %d", kernel.ErrBadParam, int(s.Tree))
	}
	if X == nil {
		return nil, nil, fmt.Errorf("%w: X is nil", kernel.ErrEmpty)
	}
	n, _ := X.Dims()
	spec := s.Kernel
	var ny *Nystrom
	var err error
	switch spec.Kind {
	case kernel.KindPoint:
		k, _ := spec.Resolve(X)
		ny, err = newNystrom(ctx, X, k, landmarks, s.RCond)
	case kernel.KindHCK, kernel.KindConnectivity:
		h := kernel.HCK{Method: spec.Method, Graph: spec.Graph}
		if spec.Kind == kernel.KindConnectivity {
			h = kernel.HCK{Method: hclust.Single}
		}
		allRows := s.Tree == TreeAllRows
		switch {
		case h.Graph != nil:
			allRows = s.Tree != TreeLandmarks
		case s.Tree == TreeAuto && h.Method == hclust.Single:
			allRows = n <= SingleAllRowsMaxN
		case s.Tree == TreeAuto && cellsMethod(h.Method):
			allRows = n <= CellsAllRowsMaxN
		}
		if allRows {
			switch {
			case h.Graph != nil:
				return mapOf(trainGraph(ctx, X, h, landmarks, s.RCond))
			case h.Method == hclust.Single:
				return mapOf(trainSingle(ctx, X, landmarks, s.RCond))
			}
			return mapOf(trainCells(ctx, X, h, landmarks, s.RCond))
		}
		ny, err = newNystromHCK(ctx, X, h, landmarks, s.RCond)
	case kernel.KindISOMAP:
		g := kernel.DefaultGraph()
		if spec.Graph != nil {
			g = *spec.Graph
		}
		iso, err := newISOMAP(ctx, X, g, landmarks, s.RCond)
		if err != nil {
			return nil, nil, err
		}
		return iso, denseTraining(iso.Train()), nil
	case kernel.KindMultiType:
		if spec.Multi == nil {
			return nil, nil, fmt.Errorf("%w: multitype without settings", kernel.ErrBadParam)
		}
		nm, F, err := newMultiType(ctx, X, *spec.Multi, landmarks, s.RCond)
		if err != nil {
			return nil, nil, err
		}
		return nm, denseTraining(F), nil
	default:
		return nil, nil, fmt.Errorf("%w: the kernel %s has no landmark form", kernel.ErrBadParam, spec)
	}
	if err != nil {
		return nil, nil, err
	}
	return ny, featureTraining(ny, X), nil
}

// featureTraining gives the training rows the map's own features.
func featureTraining(ny *Nystrom, X mat.Matrix) *Training {
	n, _ := X.Dims()
	return &Training{n: n, r: ny.Rank, ny: ny, x: X}
}

// mapOf returns the results of a constructor that computes the features
// with the map.
func mapOf[T any](ny *Nystrom, Z T, err error) (Map, T, error) {
	if err != nil {
		var zero T
		return nil, zero, err
	}
	return ny, Z, nil
}

// cellsMethod reports whether newNystromCells serves linkage m.
func cellsMethod(m hclust.Method) bool {
	switch m {
	case hclust.Complete, hclust.Average, hclust.Weighted, hclust.Ward:
		return true
	}
	return false
}
