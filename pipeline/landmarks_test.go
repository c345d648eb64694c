package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/svm"
)

// landmarkCase is one fitted landmark pipeline with the labels the fitting
// process gives the new points (features of the new points by the map,
// then the model, as arbor classify --landmarks --test computes them).
type landmarkCase struct {
	name string
	p    *pipeline.Pipeline
	want []int
}

func landmarkCases(t *testing.T) ([]landmarkCase, *mat.Dense) {
	t.Helper()
	ctx := context.Background()
	ds, sc, y, newX := fixture(t)
	Xt, err := sc.Transform(nil, newX)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := landmark.Choose(ctx, ds.X, 40, landmark.KMeans, 1)
	if err != nil {
		t.Fatal(err)
	}
	var lab []int
	for i, c := range y {
		if c >= 0 {
			lab = append(lab, i)
		}
	}
	var cases []landmarkCase
	add := func(name string, p *pipeline.Pipeline, err error, want []int) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, landmarkCase{name, p, want})
	}
	for _, ks := range []string{"linear", "rbf:0.5", "rbf:scale", "poly:0.5:1:3", "laplacian:0.5", "exponential:0.5",
		"hck:average", "hck:single", "hck:complete", "hckg:average", "hckg:single", "connectivity", "isomap:knn:12",
		"multitype:linstep:0.2:0.5", "multitype:poly:2:0.5"} {
		spec, err := kernel.ParseSpec(ks)
		if err != nil {
			t.Fatal(err)
		}
		fm, Z, gamma, err := pipeline.FitMap(ctx, ds.X, spec, lm)
		if err != nil {
			t.Fatalf("%s: %v", ks, err)
		}
		Zt, err := fm.Features(ctx, Xt)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := linsvm.Classifier{C: 1, Seed: 1}.Fit(ctx, Z, y)
		if err != nil {
			t.Fatal(err)
		}
		// The fitting process labels new points by Landmarks.Predict (the
		// SVM composed with the map's projection); that equals the SVM on
		// the features z(Xt) (no decision value here is within rounding
		// of a tie).
		want, err := (&pipeline.Landmarks{Map: fm, Model: sv}).Predict(ctx, Xt)
		if err != nil {
			t.Fatal(err)
		}
		onZ, err := sv.Predict(ctx, nil, Zt)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(onZ) != fmt.Sprint(want) {
			t.Fatalf("%s: composed SVM %v, SVM on the features %v", ks, want, onZ)
		}
		p, err := pipeline.NewLandmarks(ds, sc, spec, gamma, fm, sv)
		add(ks+"/linsvm", p, err, want)

		cs, err := svm.Classifier{C: 1, Kernel: kernel.Linear{}}.Fit(ctx, Z, y)
		if err != nil {
			t.Fatal(err)
		}
		// The C-SVC on the features z(Xt); the pipeline composes it with
		// the map (svm.Model.Compose) and must label alike.
		if want, err = cs.PredictPoints(ctx, nil, Zt); err != nil {
			t.Fatal(err)
		}
		p, err = pipeline.NewLandmarks(ds, sc, spec, gamma, fm, cs)
		add(ks+"/svm", p, err, want)

		_, r := Z.Dims()
		Zl := mat.NewDense(len(lab), r, nil)
		yl := make([]int, len(lab))
		for a, i := range lab {
			Zl.SetRow(a, Z.RawRowView(i))
			yl[a] = y[i]
		}
		km, err := knn.Classifier{K: 3}.Fit(ctx, Zl, yl)
		if err != nil {
			t.Fatal(err)
		}
		want, err = km.PredictPoints(ctx, nil, Zt)
		if err != nil {
			t.Fatal(err)
		}
		p, err = pipeline.NewLandmarks(ds, sc, spec, gamma, fm, km)
		add(ks+"/knn3", p, err, want)
	}
	anchors := mat.NewDense(len(lm), ds.Dim(), nil)
	for r, i := range lm {
		anchors.SetRow(r, ds.X.RawRowView(i))
	}
	for _, a := range []struct {
		name string
		fit  func() (*propagate.AnchorModel, error)
	}{
		{"anchor-graph/lp", func() (*propagate.AnchorModel, error) { return propagate.AnchorGraph{}.Fit(ctx, ds.X, anchors, y) }},
		{"anchor-graph/spreading", func() (*propagate.AnchorModel, error) {
			return propagate.AnchorSpreading{Alpha: 0.5}.Fit(ctx, ds.X, anchors, y)
		}},
	} {
		am, err := a.fit()
		if err != nil {
			t.Fatal(err)
		}
		want, err := am.Predict(ctx, nil, Xt)
		if err != nil {
			t.Fatal(err)
		}
		p, err := pipeline.NewLandmarks(ds, sc, kernel.Spec{}, 0, nil, am)
		add(a.name, p, err, want)
	}
	// Label spreading on the kNN graph of all rows (arbor classify
	// --landmarks with --learner spreading --affinity knn:K).
	km, err := propagate.Spreading{Affinity: propagate.Affinity{Kind: propagate.KNN, K: 5}}.FitKNN(ctx, ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	want, err := km.Predict(ctx, nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.NewLandmarks(ds, sc, kernel.Spec{}, 0, nil, km)
	add("knn-graph/spreading", p, err, want)
	return cases, newX
}

// TestRoundTripLandmarks: for every landmark pipeline (each kernel with a
// landmark form × linear SVM and kNN on the features, and the anchor-graph
// propagation and spreading) the labels of new points computed in the
// fitting process equal those of the pipeline before saving and after
// save → load → Predict, whole and in chunks.
func TestRoundTripLandmarks(t *testing.T) {
	ctx := context.Background()
	cases, newX := landmarkCases(t)
	_, d := newX.Dims()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			direct, err := c.p.Predict(ctx, newX)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(direct) != fmt.Sprint(c.want) {
				t.Fatalf("pipeline before saving:\n got %v\nwant %v", direct, c.want)
			}
			var buf bytes.Buffer
			if err := c.p.Save(&buf); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(buf.Bytes(), []byte(fmt.Sprintf("ARBOR-PIPELINE %d\n", pipeline.Version))) {
				t.Fatalf("a landmark pipeline starts %q, want version %d", buf.Bytes()[:20], pipeline.Version)
			}
			q, err := pipeline.Load(bytes.NewReader(buf.Bytes()), "m.arbor")
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.Predict(ctx, newX)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("save → load → predict:\n got %v\nwant %v", got, c.want)
			}
			got7, err := q.Predict(ctx, mat.DenseCopyOf(newX.Slice(0, 7, 0, d)))
			if err != nil || fmt.Sprint(got7) != fmt.Sprint(c.want[:7]) {
				t.Fatalf("first 7 alone: %v %v, want %v", got7, err, c.want[:7])
			}
		})
	}
}

// TestLandmarkLoadErrors: a landmark pipeline cut anywhere (manifest, map,
// model), with a flipped bit in its map or model, or claiming a newer
// version is an error naming the file.
func TestLandmarkLoadErrors(t *testing.T) {
	cases, _ := landmarkCases(t)
	for _, c := range cases {
		if c.name != "hck:average/linsvm" && c.name != "isomap:knn:12/knn3" && c.name != "anchor-graph/lp" && c.name != "knn-graph/spreading" {
			continue
		}
		var buf bytes.Buffer
		if err := c.p.Save(&buf); err != nil {
			t.Fatal(err)
		}
		full := buf.Bytes()
		nl := bytes.IndexByte(full, '\n')
		nl2 := nl + 1 + bytes.IndexByte(full[nl+1:], '\n')
		rest := len(full) - nl2 - 1
		for _, cut := range []int{nl + 10, nl2, nl2 + 1, nl2 + rest/3, nl2 + rest/2, len(full) - 2} {
			_, err := pipeline.Load(bytes.NewReader(full[:cut]), "m.arbor")
			if !errors.Is(err, pipeline.ErrTruncated) || !strings.HasPrefix(err.Error(), "m.arbor: ") {
				t.Errorf("%s cut at %d of %d: %v, want ErrTruncated naming m.arbor", c.name, cut, len(full), err)
			}
		}
		for _, at := range []int{nl2 + rest/3, len(full) - 10} {
			bad := bytes.Clone(full)
			bad[at] ^= 4
			if _, err := pipeline.Load(bytes.NewReader(bad), "m.arbor"); !errors.Is(err, pipeline.ErrTruncated) {
				t.Errorf("%s flipped bit at %d: %v, want ErrTruncated", c.name, at, err)
			}
		}
		newer := append([]byte(fmt.Sprintf("ARBOR-PIPELINE %d", pipeline.Version+1)), full[nl:]...)
		if _, err := pipeline.Load(bytes.NewReader(newer), "m.arbor"); !errors.Is(err, pipeline.ErrVersion) {
			t.Errorf("%s as version %d: %v, want ErrVersion", c.name, pipeline.Version+1, err)
		}
		// A landmark manifest in a version 1 file is damage, not a model.
		old := append([]byte("ARBOR-PIPELINE 1"), full[nl:]...)
		if _, err := pipeline.Load(bytes.NewReader(old), "m.arbor"); !errors.Is(err, pipeline.ErrTruncated) {
			t.Errorf("%s as version 1: %v, want ErrTruncated", c.name, err)
		}
	}
}
