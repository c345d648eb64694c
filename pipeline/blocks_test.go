package pipeline_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestLandmarkBlocksEqualDense: classify --landmarks labels the training
// rows from one block of features at a time (PredictTraining); the labels
// are those of the dense path, the learner fitted on the labelled rows of
// the N×r features Z and every row of Z labelled (PredictBlocks). N spans
// one and a part of svm's blocks and three of the features' blocks.
func TestLandmarkBlocksEqualDense(t *testing.T) {
	ctx := context.Background()
	ds := blocksData(1)
	X, n := ds.X, ds.Len()
	y := ds.Y
	for i := range y {
		if i%997 != 0 {
			y[i] = dataset.Unlabeled
		}
	}
	lmc := pipeline.LandmarkChoice{M: 40, Method: "kmeans", Seed: 3}
	for _, ks := range []string{"rbf:0.5", "hck:single"} {
		for _, family := range []string{"svm", "linsvm", "knn"} {
			s := pipeline.Settings{Scale: "none", Kernel: ks, Learner: family, Landmarks: lmc.M, LandmarkMethod: lmc.Method, Seed: lmc.Seed}
			res, err := pipeline.Fit(ctx, s, ds, nil)
			if err != nil {
				t.Fatalf("%s %s: %v", ks, family, err)
			}
			spec, err := kernel.ParseSpec(ks)
			if err != nil {
				t.Fatal(err)
			}
			_, Z, _, _, err := lmc.Features(ctx, X, spec, y, family != "knn")
			if err != nil {
				t.Fatal(err)
			}
			predict := denseLearner(t, family, Z, y, spec)
			want, err := pipeline.PredictBlocks(Z, predict, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range y {
				if c >= 0 {
					want[i] = c
				}
			}
			if !slices.Equal(res.Labels, want) {
				d := 0
				for i := range want {
					if res.Labels[i] != want[i] {
						d++
					}
				}
				t.Errorf("%s %s: %d of %d labels differ from the dense path's", ks, family, d, n)
			}
		}
	}
}

// blocksData is the block tests' data: N = one and a part of svm's
// blocks, two features, three overlapping classes, every row labelled
// (row i in class i mod 3); seed picks the noise.
func blocksData(seed uint64) *dataset.Dataset {
	n, classes := pipeline.LabelBlockRows("svm")+900, 3
	rng := rand.New(rand.NewPCG(7, seed))
	X := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := range y {
		c := i % classes
		X.Set(i, 0, 1.5*float64(c)+rng.NormFloat64())
		X.Set(i, 1, float64(c%2)+rng.NormFloat64())
		y[i] = c
	}
	return &dataset.Dataset{X: X, Y: y, Features: []string{"a", "b"}, Classes: []string{"p", "q", "r"}}
}

// denseLearner fits the landmark learner family (svm, linsvm or knn, C = 1
// or k = 1) on the labelled rows of the dense features Z and returns its
// predict, for PredictBlocks.
func denseLearner(t *testing.T, family string, Z *mat.Dense, y []int, spec kernel.Spec) func(dst []int, Zb *mat.Dense) ([]int, error) {
	t.Helper()
	ctx := context.Background()
	switch family {
	case "svm":
		m, err := pipeline.LandmarkSVM(ctx, Z, y, 1)
		if err != nil {
			t.Fatal(err)
		}
		return func(dst []int, Zb *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Zb) }
	case "linsvm":
		m, err := pipeline.LandmarkLinSVM(ctx, Z, y, linsvm.Classifier{C: 1})
		if err != nil {
			t.Fatal(err)
		}
		return func(dst []int, Zb *mat.Dense) ([]int, error) { return m.Predict(ctx, dst, Zb) }
	case "knn":
		m, err := pipeline.LandmarkKNN(ctx, Z, y, 1, spec)
		if err != nil {
			t.Fatal(err)
		}
		return func(dst []int, Zb *mat.Dense) ([]int, error) { return m.PredictPoints(ctx, dst, Zb) }
	}
	t.Fatalf("no landmark learner %q", family)
	return nil
}
