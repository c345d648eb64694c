package pipeline_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// TestEvalLandmarksBlocksEqualDense: eval --landmarks fits each learner on
// the labelled rows' features and labels the hidden rows one block of
// features at a time; every split scores as the dense path does, the
// learner fitted on the labelled rows of the N×r features Z and every row
// of Z labelled (PredictBlocks). N spans one and a part of svm's blocks;
// rbf:scale takes the SVMs' gamma from the labelled rows and kNN's from
// all rows, hck:average has its features from grafts, isomap dense.
func TestEvalLandmarksBlocksEqualDense(t *testing.T) {
	ctx := context.Background()
	ds := blocksData(2)
	X, y, n := ds.X, ds.Y, ds.Len()
	splits, err := ssl.PerClassSplits(y, 4, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	learners, err := pipeline.Learners("svm,linsvm,knn", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	lmc := pipeline.LandmarkChoice{M: 40, Method: "kmeans", Seed: 3}
	var specs []kernel.Spec
	for _, ks := range []string{"rbf", "hck:average", "isomap"} {
		spec, err := kernel.ParseSpec(ks)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, spec)
	}
	got, err := pipeline.EvalLandmarks(ctx, lmc, ds, specs, learners, splits, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(specs)*len(splits)*3 {
		t.Fatalf("%d results, want %d", len(got), len(specs)*len(splits)*3)
	}
	k := 0
	for _, spec := range specs {
		for si, split := range splits {
			ys := make([]int, n)
			shown := make([]bool, n)
			for i := range ys {
				ys[i] = dataset.Unlabeled
			}
			for _, r := range split {
				ys[r], shown[r] = y[r], true
			}
			for _, family := range []string{"svm", "linsvm", "knn"} {
				_, Z, _, _, err := lmc.Features(ctx, X, spec, ys, family != "knn")
				if err != nil {
					t.Fatal(err)
				}
				predict := denseLearner(t, family, Z, ys, spec)
				pred, err := pipeline.PredictBlocks(Z, predict, nil)
				if err != nil {
					t.Fatal(err)
				}
				correct, total := 0, 0
				for i, c := range pred {
					if !shown[i] {
						total++
						if c == y[i] {
							correct++
						}
					}
				}
				r := got[k]
				k++
				if r.Split != si || r.Correct != correct || r.Total != total {
					t.Errorf("%s split %d %s: %s split %d scores %d of %d, the dense path %d of %d", spec, si, family, r.Learner, r.Split, r.Correct, r.Total, correct, total)
				}
			}
		}
	}
}

// TestWriteFeaturesEqualsDense: kernel --landmarks writes Z a block at a
// time; the file is byte for byte that of the dense N×r features, in CSV
// and .npy, for Nyström rows, grafts and a dense map. N spans one and a
// part of the writer's blocks.
func TestWriteFeaturesEqualsDense(t *testing.T) {
	ctx := context.Background()
	n := pipeline.LabelBlockRows("svm") + 900
	rng := rand.New(rand.NewPCG(7, 3))
	X := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		X.Set(i, 0, 1.5*float64(i%3)+rng.NormFloat64())
		X.Set(i, 1, rng.NormFloat64())
	}
	lmc := pipeline.LandmarkChoice{M: 30, Method: "kmeans", Seed: 1}
	for _, ks := range []string{"rbf", "hck:average", "isomap"} {
		spec, err := kernel.ParseSpec(ks)
		if err != nil {
			t.Fatal(err)
		}
		_, tr, _, _, err := lmc.Training(ctx, X, spec, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		Z, err := tr.All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []dataset.MatrixFormat{dataset.MatrixCSV, dataset.MatrixNpy} {
			var want, got bytes.Buffer
			if err := dataset.WriteMatrix(ctx, &want, Z, f); err != nil {
				t.Fatal(err)
			}
			if err := pipeline.WriteFeatures(ctx, &got, tr, f); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s, format %d: the blockwise file (%d bytes) differs from the dense one (%d bytes)", ks, f, got.Len(), want.Len())
			}
		}
	}
}
