package pipeline_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
)

// ExampleNewLandmarks fits the landmark cluster kernel (average linkage on
// 30 of the 150 scaled iris rows, the other rows through the tree rule,
// Nyström features) with a linear SVM, saves the pipeline (no training rows
// in it), loads it and labels two new raw points.
func ExampleNewLandmarks() {
	ctx := context.Background()
	ds, _ := dataset.Embedded("iris")
	sc, _ := dataset.FitScaler(ds.X, "std")
	ds.X, _ = sc.Transform(nil, ds.X)
	lm, _ := landmark.Choose(ctx, ds.X, 30, landmark.KMeans, 1)
	spec, _ := kernel.ParseSpec("hck:average")
	fm, Z, gamma, err := pipeline.FitMap(ctx, ds.X, spec, lm)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := linsvm.Classifier{C: 1, Seed: 1}.Fit(ctx, Z, ds.Y)
	p, _ := pipeline.NewLandmarks(ds, sc, spec, gamma, fm, m)

	var file bytes.Buffer
	if err := p.Save(&file); err != nil {
		fmt.Println(err)
		return
	}
	q, err := pipeline.Load(&file, "iris.arbor")
	if err != nil {
		fmt.Println(err)
		return
	}
	labels, err := q.Predict(ctx, mat.NewDense(2, 4, []float64{
		5.0, 3.4, 1.5, 0.2, // a short-petalled flower
		6.9, 3.1, 5.4, 2.1, // a long-petalled one
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range labels {
		fmt.Println("class", q.Classes[c])
	}
	// Output:
	// class 0
	// class 2
}

// BenchmarkPredictLandmarks labels 4096 new points (d = 10, 10 classes as
// bench/million) with landmark pipelines fitted on 20,000 rows, M = 500:
// hck:average and rbf with the linear SVM (composed with the map), and the
// anchor graph. go test -run XXX -bench PredictLandmarks ./pipeline
func BenchmarkPredictLandmarks(b *testing.B) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 12))
	n, d, classes := 20000, 10, 10
	centres := make([]float64, classes*d)
	for i := range centres {
		centres[i] = rng.NormFloat64() * 1.2
	}
	draw := func(rows int) (*mat.Dense, []int) {
		X := mat.NewDense(rows, d, nil)
		y := make([]int, rows)
		seen := make([]int, classes)
		for i := 0; i < rows; i++ {
			c := rng.IntN(classes)
			y[i] = -1
			if seen[c] < 10 {
				seen[c]++
				y[i] = c
			}
			for j := 0; j < d; j++ {
				X.Set(i, j, centres[c*d+j]+rng.NormFloat64())
			}
		}
		return X, y
	}
	X, y := draw(n)
	newX, _ := draw(4096)
	ds := &dataset.Dataset{X: X, Y: y}
	for j := 0; j < d; j++ {
		ds.Features = append(ds.Features, fmt.Sprintf("x%d", j+1))
	}
	for c := 0; c < classes; c++ {
		ds.Classes = append(ds.Classes, fmt.Sprint(c))
	}
	lm, err := landmark.Choose(ctx, X, 500, landmark.KMeans, 1)
	if err != nil {
		b.Fatal(err)
	}
	for _, ks := range []string{"hck:average", "rbf:0.05", "anchor-graph"} {
		var p *pipeline.Pipeline
		if ks == "anchor-graph" {
			anchors := mat.NewDense(len(lm), d, nil)
			for r, i := range lm {
				anchors.SetRow(r, X.RawRowView(i))
			}
			am, err := propagate.AnchorGraph{}.Fit(ctx, X, anchors, y)
			if err != nil {
				b.Fatal(err)
			}
			p, err = pipeline.NewLandmarks(ds, nil, kernel.Spec{}, 0, nil, am)
			if err != nil {
				b.Fatal(err)
			}
		} else {
			spec, _ := kernel.ParseSpec(ks)
			fm, Z, gamma, err := pipeline.FitMap(ctx, X, spec, lm)
			if err != nil {
				b.Fatal(err)
			}
			m, err := linsvm.Classifier{C: 1, Seed: 1}.Fit(ctx, Z, y)
			if err != nil {
				b.Fatal(err)
			}
			if p, err = pipeline.NewLandmarks(ds, nil, spec, gamma, fm, m); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(ks+"/4096x500", func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := p.Predict(ctx, newX); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
