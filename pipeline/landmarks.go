package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/svm"
)

// FeatureMap is a fitted landmark feature map: *kernel.Nystrom (point and
// cluster kernels), *kernel.LandmarkISOMAP or *kernel.NystromMultiType.
type FeatureMap interface {
	Features(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error)
	Save(w io.Writer) error
}

// Landmarks is the landmark part of a pipeline fitted with M landmarks
// instead of the N×N kernel (arbor classify --landmarks M): the feature
// map of the kernel and a learner on the features, or the anchor graph.
type Landmarks struct {
	// Map gives new points their features z(x) (nil for the anchor graph
	// and the kNN graph, which work on the scaled points themselves).
	Map FeatureMap
	// Model is *svm.Model (the C-SVC with the linear kernel, fitted on
	// the features by svm.Classifier.Fit), *linsvm.Model or *knn.Model
	// (fitted on the features by knn.Classifier.Fit) on z(x), or, on the
	// scaled points, *propagate.AnchorModel (the anchor graph) or
	// *propagate.KNNModel (label spreading on the kNN graph of all rows).
	Model Saver

	once      sync.Once
	folded    *linsvm.Model // linsvm composed with the map's projection
	svmFolded *svm.Model    // the C-SVC (linear kernel) composed with it
	err       error
}

// linearMap is a feature map that is a linear map (Projection, M×r) of
// base rows (Base, t×M): both kernel.Nystrom and kernel.LandmarkISOMAP.
type linearMap interface {
	Base(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error)
	Projection() *mat.Dense
}

// Saver is a fitted model with a saved form.
type Saver interface{ Save(w io.Writer) error }

// NewLandmarks assembles a landmark pipeline: ds the training data after
// scaling by sc (only its column names and classes are kept: new points
// need the map, not the N training rows), spec and gamma the kernel (for
// the record; gamma what rbf:scale resolved to), fm the fitted feature map
// (nil with an anchor-graph model), m the model. Errors: ErrLearner.
func NewLandmarks(ds *dataset.Dataset, sc *dataset.Scaler, spec kernel.Spec, gamma float64, fm FeatureMap, m Saver) (*Pipeline, error) {
	if _, err := landmarkLearner(m); err != nil {
		return nil, err
	}
	if onPoints(m) != (fm == nil) {
		return nil, fmt.Errorf("%w: %T with feature map %T", ErrLearner, m, fm)
	}
	if _, err := mapName(fm); err != nil {
		return nil, err
	}
	if sc == nil {
		sc = &dataset.Scaler{How: "none", Shift: make([]float64, ds.Dim()), Factor: ones(ds.Dim())}
	}
	return &Pipeline{
		Features: append([]string(nil), ds.Features...), Classes: append([]string(nil), ds.Classes...),
		LabelName: ds.LabelName, IDName: ds.IDName, Scaler: sc, Spec: spec, Gamma: gamma,
		Landmarks: &Landmarks{Map: fm, Model: m},
	}, nil
}

func landmarkLearner(m Saver) (string, error) {
	switch m := m.(type) {
	case *svm.Model:
		if _, ok := m.Kernel.(kernel.Linear); !ok {
			return "", fmt.Errorf("%w: svm with kernel %v on landmark features (want linear)", ErrLearner, m.Kernel)
		}
		return "svm", nil
	case *linsvm.Model:
		return "linsvm", nil
	case *knn.Model:
		return "knn", nil
	case *propagate.AnchorModel:
		return "anchor-graph", nil
	case *propagate.KNNModel:
		return "knn-graph", nil
	}
	return "", fmt.Errorf("%w: %T on landmark features", ErrLearner, m)
}

// onPoints reports a model that labels the scaled points themselves (no
// feature map): the anchor graph and the kNN graph. Its learner name is
// also the manifest's "landmarks" kind.
func onPoints(m Saver) bool {
	switch m.(type) {
	case *propagate.AnchorModel, *propagate.KNNModel:
		return true
	}
	return false
}

func mapName(fm FeatureMap) (string, error) {
	switch fm.(type) {
	case nil:
		return "", nil
	case *kernel.Nystrom:
		return "nystrom", nil
	case *kernel.LandmarkISOMAP:
		return "landmark-isomap", nil
	case *kernel.NystromMultiType:
		return "nystrom-multitype", nil
	}
	return "", fmt.Errorf("%w: feature map %T", ErrLearner, fm)
}

// loadLandmarks rebuilds the map and the model from their saved forms.
func loadLandmarks(mapKind string, mapBytes []byte, learner string, payload []byte) (*Landmarks, error) {
	var lm Landmarks
	var err error
	switch mapKind {
	case "":
	case "nystrom":
		lm.Map, err = kernel.LoadNystrom(bytes.NewReader(mapBytes))
	case "landmark-isomap":
		lm.Map, err = kernel.LoadLandmarkISOMAP(bytes.NewReader(mapBytes))
	case "nystrom-multitype":
		lm.Map, err = kernel.LoadNystromMultiType(bytes.NewReader(mapBytes))
	default:
		return nil, fmt.Errorf("%w: feature map %q", ErrLearner, mapKind)
	}
	if err != nil {
		return nil, fmt.Errorf("%s map: %w", mapKind, err)
	}
	r := bytes.NewReader(payload)
	switch learner {
	case "svm":
		var sm *svm.Model
		if sm, err = svm.Load(r); err == nil {
			if _, ok := sm.Kernel.(kernel.Linear); !ok {
				err = fmt.Errorf("%w: svm with kernel %v on landmark features (want linear)", ErrLearner, sm.Kernel)
			}
		}
		lm.Model = sm
	case "linsvm":
		lm.Model, err = linsvm.Load(r)
	case "knn":
		lm.Model, err = knn.Load(r)
	case "anchor-graph":
		lm.Model, err = propagate.LoadAnchor(r)
	case "knn-graph":
		lm.Model, err = propagate.LoadKNN(r)
	default:
		return nil, fmt.Errorf("%w: learner %q on landmarks", ErrLearner, learner)
	}
	if err != nil {
		return nil, fmt.Errorf("%s model: %w", learner, err)
	}
	if onPoints(lm.Model) != (lm.Map == nil) {
		return nil, fmt.Errorf("%w: learner %q with map %q", ErrLearner, learner, mapKind)
	}
	return &lm, nil
}

// Predict labels the scaled rows Xt (the fitting process labels its
// --test rows with it too): the anchor graph and the kNN graph from the
// points; kNN from the
// features z(Xt); the SVMs (svm with the linear kernel, linsvm) from the
// base rows of the map with the SVM's weights composed with the map's
// projection (svm.Model.Compose, linsvm.Model.Compose: M·P work per point
// instead of M·r; labels equal those from z(Xt) but for decision values
// within rounding of a tie).
func (lm *Landmarks) Predict(ctx context.Context, Xt *mat.Dense) ([]int, error) {
	if am, ok := lm.Model.(*propagate.AnchorModel); ok {
		return am.Predict(ctx, nil, Xt)
	}
	if km, ok := lm.Model.(*propagate.KNNModel); ok {
		return km.Predict(ctx, nil, Xt)
	}
	if sv, ok := lm.Model.(*svm.Model); ok {
		if lin, ok := lm.Map.(linearMap); ok {
			lm.once.Do(func() { lm.svmFolded, lm.err = sv.Compose(lin.Projection()) })
			if lm.err != nil {
				return nil, lm.err
			}
			B, err := lin.Base(ctx, Xt)
			if err != nil {
				return nil, err
			}
			return lm.svmFolded.PredictPoints(ctx, nil, B)
		}
	}
	if sv, ok := lm.Model.(*linsvm.Model); ok {
		if lin, ok := lm.Map.(linearMap); ok {
			lm.once.Do(func() { lm.folded, lm.err = sv.Compose(lin.Projection()) })
			if lm.err != nil {
				return nil, lm.err
			}
			B, err := lin.Base(ctx, Xt)
			if err != nil {
				return nil, err
			}
			return lm.folded.Predict(ctx, nil, B)
		}
	}
	Z, err := lm.Map.Features(ctx, Xt)
	if err != nil {
		return nil, err
	}
	switch m := lm.Model.(type) {
	case *svm.Model:
		return m.PredictPoints(ctx, nil, Z)
	case *linsvm.Model:
		return m.Predict(ctx, nil, Z)
	case *knn.Model:
		return m.PredictPoints(ctx, nil, Z)
	}
	return nil, fmt.Errorf("%w: %T on landmark features", ErrLearner, lm.Model)
}

// FitMap fits the landmark feature map of spec on the rows landmarks of X
// (kernel.ChooseLandmarks) and returns it with the N×r features Z of the
// rows of X and the gamma rbf:scale resolved to (0 otherwise):
//
//   - point kernels: kernel.NewNystrom, Z = K_NM·K_MM^{-1/2};
//   - hck, connectivity (= hck:single): kernel.NewNystromHCK, the tree on
//     the landmarks and the tree-aware rule for the other rows; single
//     linkage up to kernel.SingleAllRowsMaxN rows: kernel.NewNystromSingle,
//     the exact tree of all rows (Prim, O(N) memory) and exact rows;
//     complete, average, weighted and Ward up to kernel.CellsAllRowsMaxN
//     rows: kernel.NewNystromCells, the linkage of all rows with each
//     landmark's cell (its nearest rows) joined first;
//   - hckg: kernel.NewNystromGraphHCK, the same on the geodesics from the
//     landmarks over the graph of all rows (components joined by Eq. 4);
//     single linkage on the graph's exact tree of all rows, complete,
//     average and weighted (up to kernel.GraphCellsAllRowsMaxN rows) on
//     the tree of all rows with each landmark's geodesic cell joined first;
//   - isomap: kernel.NewLandmarkISOMAP (de Silva & Tenenbaum);
//   - multitype: kernel.NewNystromMultiType (the transfer on the spectrum
//     of the Nyström affinity, Fowlkes et al. 2004).
//
// Errors: ErrLearner for a kernel without a landmark form, and those of
// the maps.
func FitMap(ctx context.Context, X *mat.Dense, spec kernel.Spec, landmarks []int) (FeatureMap, *mat.Dense, float64, error) {
	var ny *kernel.Nystrom
	var err error
	gamma := 0.0
	switch spec.Kind {
	case kernel.KindPoint:
		k := spec.Point
		if spec.Scale {
			gamma = kernel.GammaScale(X)
			k = kernel.RBF{Gamma: gamma}
		}
		ny, err = kernel.NewNystrom(ctx, X, k, landmarks, 0)
	case kernel.KindHCK:
		h := kernel.HCK{Method: spec.Method, Graph: spec.Graph}
		if spec.Graph != nil {
			// Geodesics on the graph of all rows (components joined by Eq. 4).
			gy, Z, err := kernel.NewNystromGraphHCK(ctx, X, h, landmarks, 0)
			if err != nil {
				return nil, nil, 0, err
			}
			return gy, Z, 0, nil
		}
		if n, _ := X.Dims(); h.Method == hclust.Single && n <= kernel.SingleAllRowsMaxN {
			return singleAllRows(ctx, X, landmarks)
		}
		if n, _ := X.Dims(); cellsMethod(h.Method) && n <= kernel.CellsAllRowsMaxN {
			ny, Z, err := kernel.NewNystromCells(ctx, X, h, landmarks, 0)
			if err != nil {
				return nil, nil, 0, err
			}
			return ny, Z, 0, nil
		}
		ny, err = kernel.NewNystromHCK(ctx, X, h, landmarks, 0)
	case kernel.KindConnectivity:
		if n, _ := X.Dims(); n <= kernel.SingleAllRowsMaxN {
			return singleAllRows(ctx, X, landmarks)
		}
		ny, err = kernel.NewNystromHCK(ctx, X, kernel.HCK{Method: hclust.Single}, landmarks, 0)
	case kernel.KindISOMAP:
		g := kernel.DefaultGraph()
		if spec.Graph != nil {
			g = *spec.Graph
		}
		iso, err := kernel.NewLandmarkISOMAP(ctx, X, g, landmarks, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		return iso, iso.Train(), 0, nil
	case kernel.KindMultiType:
		nm, F, err := kernel.NewNystromMultiType(ctx, X, *spec.Multi, landmarks, 0)
		if err != nil {
			return nil, nil, 0, err
		}
		return nm, F, 0, nil
	default:
		return nil, nil, 0, fmt.Errorf("%w: landmarks for the kernel %s", ErrLearner, spec)
	}
	if err != nil {
		return nil, nil, 0, err
	}
	Z, err := ny.Features(ctx, X)
	if err != nil {
		return nil, nil, 0, err
	}
	return ny, Z, gamma, nil
}

// cellsMethod reports whether kernel.NewNystromCells serves linkage m.
func cellsMethod(m hclust.Method) bool {
	switch m {
	case hclust.Complete, hclust.Average, hclust.Weighted, hclust.Ward:
		return true
	}
	return false
}

// singleAllRows is the landmark single-linkage kernel on the tree of all
// rows (kernel.NewNystromSingle).
func singleAllRows(ctx context.Context, X *mat.Dense, landmarks []int) (FeatureMap, *mat.Dense, float64, error) {
	ny, Z, err := kernel.NewNystromSingle(ctx, X, landmarks, 0)
	if err != nil {
		return nil, nil, 0, err
	}
	return ny, Z, 0, nil
}
