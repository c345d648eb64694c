package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/svm"
)

// Landmarks is the landmark part of a pipeline fitted with M landmarks
// instead of the N×N kernel (arbor classify --landmarks M): the feature
// map of the kernel and a learner on the features, or the anchor graph.
type Landmarks struct {
	// Map gives new points their features z(x) (nil for the anchor graph
	// and the kNN graph, which work on the scaled points themselves).
	Map landmark.Map
	// Model is *svm.Model (the C-SVC with the linear kernel, fitted on
	// the features by svm.Classifier.Fit), *linsvm.Model or *knn.Model
	// (fitted on the features by knn.Classifier.Fit) on z(x), or, on the
	// scaled points, *propagate.AnchorModel (the anchor graph) or
	// *propagate.KNNModel (label spreading on the kNN graph of all rows).
	Model learner.Saver

	once      sync.Once
	folded    *linsvm.Model // linsvm composed with the map's projection
	svmFolded *svm.Model    // the C-SVC (linear kernel) composed with it
	err       error
}

// linearMap is a feature map that is a linear map (Projection, M×r) of
// base rows (Base, t×M): both landmark.Nystrom and landmark.ISOMAP.
type linearMap interface {
	Base(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error)
	Projection() *mat.Dense
}

// NewLandmarks assembles a landmark pipeline: ds the training data after
// scaling by sc (only its column names and classes are kept: new points
// need the map, not the N training rows), spec and gamma the kernel (for
// the record; gamma what rbf:scale resolved to), fm the fitted feature map
// (nil with an anchor-graph model), m the model. Errors: ErrLearner.
func NewLandmarks(ds *dataset.Dataset, sc *dataset.Scaler, spec kernel.Spec, gamma float64, fm landmark.Map, m learner.Saver) (*Pipeline, error) {
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

// landmarkLearner is the registered name of a model on landmark features
// or points; an SVM there has the linear kernel (on the features).
func landmarkLearner(m learner.Saver) (string, error) {
	if sm, ok := m.(*svm.Model); ok {
		if _, ok := sm.Kernel.(kernel.Linear); !ok {
			return "", fmt.Errorf("%w: svm with kernel %v on landmark features (want linear)", ErrLearner, sm.Kernel)
		}
	}
	switch m.(type) {
	case *svm.Model, *linsvm.Model, *knn.Model, *propagate.AnchorModel, *propagate.KNNModel:
		return learnerName(m)
	}
	return "", fmt.Errorf("%w: %T on landmark features", ErrLearner, m)
}

// onPoints reports a model that labels the scaled points themselves (no
// feature map): the anchor graph and the kNN graph. Its learner name is
// also the manifest's "landmarks" kind.
func onPoints(m learner.Saver) bool {
	switch m.(type) {
	case *propagate.AnchorModel, *propagate.KNNModel:
		return true
	}
	return false
}

func mapName(fm landmark.Map) (string, error) {
	switch fm.(type) {
	case nil:
		return "", nil
	case *landmark.Nystrom:
		return "nystrom", nil
	case *landmark.ISOMAP:
		return "landmark-isomap", nil
	case *landmark.MultiType:
		return "nystrom-multitype", nil
	}
	return "", fmt.Errorf("%w: feature map %T", ErrLearner, fm)
}

// loadLandmarks rebuilds the map and the model from their saved forms.
func loadLandmarks(mapKind string, mapBytes []byte, learnerName string, payload []byte) (*Landmarks, error) {
	var lm Landmarks
	var err error
	switch mapKind {
	case "":
	case "nystrom":
		lm.Map, err = landmark.LoadNystrom(bytes.NewReader(mapBytes))
	case "landmark-isomap":
		lm.Map, err = landmark.LoadISOMAP(bytes.NewReader(mapBytes))
	case "nystrom-multitype":
		lm.Map, err = landmark.LoadMultiType(bytes.NewReader(mapBytes))
	default:
		return nil, badField("landmarks", "unknown feature map %s: the file is damaged or written by a newer Arbor", quote(mapKind))
	}
	if err != nil {
		return nil, fmt.Errorf("%s map: %w", mapKind, err)
	}
	switch learnerName {
	case "svm", "linsvm", "knn", "anchor-graph", "knn-graph":
	default:
		return nil, badField("learner", "unknown learner %s on landmarks: the file is damaged or written by a newer Arbor", quote(learnerName))
	}
	lm.Model, err = learner.Load(learnerName, bytes.NewReader(payload))
	if sm, ok := lm.Model.(*svm.Model); ok && err == nil {
		if _, ok := sm.Kernel.(kernel.Linear); !ok {
			err = fmt.Errorf("%w: kernel %v on landmark features (want linear)", svm.ErrFormat, sm.Kernel)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s model: %w", learnerName, err)
	}
	if onPoints(lm.Model) != (lm.Map == nil) {
		return nil, badField("learner", "%q with feature map %q", learnerName, mapKind)
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
	out, err := lm.PredictWant(ctx, Xt, Want{})
	if err != nil {
		return nil, err
	}
	return out.Labels, nil
}

// FitMap fits the landmark feature map of spec on the rows landmarks of X
// (landmark.Choose, landmark.ChooseIncluding; landmark.Settings.Fit with
// the tree chosen by the row count) and returns it with the N×r features Z
// of the rows of X and the gamma rbf:scale resolved to (0 otherwise).
// Errors: those of landmark.Settings.Fit.
func FitMap(ctx context.Context, X *mat.Dense, spec kernel.Spec, landmarks []int) (landmark.Map, *mat.Dense, float64, error) {
	fm, t, gamma, err := FitMapTraining(ctx, X, spec, landmarks)
	if err != nil {
		return nil, nil, 0, err
	}
	Z, err := t.All(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	return fm, Z, gamma, nil
}

// FitMapTraining is FitMap with the features of X as a landmark.Training
// (landmark.Settings.FitTraining), given a block of rows at a time.
func FitMapTraining(ctx context.Context, X *mat.Dense, spec kernel.Spec, landmarks []int) (landmark.Map, *landmark.Training, float64, error) {
	gamma := 0.0
	if spec.Kind == kernel.KindPoint {
		spec.Point, gamma = spec.Resolve(X)
		spec.Scale = false
	}
	fm, t, err := landmark.Settings{Kernel: spec}.FitTraining(ctx, X, landmarks)
	if err != nil {
		return nil, nil, 0, err
	}
	return fm, t, gamma, nil
}

// WriteFeatures writes the N×r features of the training rows t (Z, with
// K ≈ Z·Zᵀ: arbor kernel --landmarks) to w in format f (dataset.MatrixCSV
// or MatrixNpy), a block of LabelBlockRows("svm") rows at a time, so that
// memory is the map's and one block's (KernelLandmarkBytes), not N×r. The
// file is byte for byte dataset.WriteMatrix's of t.All. Errors: those of
// dataset.WriteMatrixRows, the map's, ctx.Err().
func WriteFeatures(ctx context.Context, w io.Writer, t *landmark.Training, f dataset.MatrixFormat) error {
	r := t.Rank()
	return dataset.WriteMatrixRows(ctx, w, t.Len(), r, LabelBlockRows("svm"), func(lo, hi int, dst []float64) error {
		_, err := t.Block(ctx, mat.NewDense(hi-lo, r, dst), lo, hi)
		return err
	}, f)
}
