package pipeline_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/svm"
)

// Example fits an SVM with the rbf kernel on scaled iris, saves the
// pipeline, loads it and labels two new raw points.
func Example() {
	ctx := context.Background()
	ds, _ := dataset.Embedded("iris")
	sc, _ := dataset.FitScaler(ds.X, "std")
	ds.X, _ = sc.Transform(nil, ds.X)
	spec, _ := kernel.ParseSpec("rbf:0.5")
	m, _ := svm.Classifier{C: 1, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(ctx, ds.X, ds.Y)
	p, _ := pipeline.New(ds, sc, kernel.Built{Spec: spec}, kernel.RuleTree, m)

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
	newX := mat.NewDense(2, 4, []float64{
		5.0, 3.4, 1.5, 0.2, // a short-petalled flower
		6.9, 3.1, 5.4, 2.1, // a long-petalled one
	})
	labels, err := q.Predict(ctx, newX)
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

func BenchmarkPredict(b *testing.B) {
	ctx := context.Background()
	ds, _ := dataset.Embedded("two_moons")
	sc, _ := dataset.FitScaler(ds.X, "std")
	ds.X, _ = sc.Transform(nil, ds.X)
	newX := mat.NewDense(4096, 2, nil)
	for i := 0; i < 4096; i++ {
		newX.Set(i, 0, -1.5+4*float64(i%64)/64)
		newX.Set(i, 1, -1+2.5*float64(i/64)/64)
	}
	for _, ks := range []string{"rbf:0.5", "hck:average"} {
		spec, _ := kernel.ParseSpec(ks)
		bs, err := kernel.BuildAll(ctx, ds.X, []kernel.Spec{spec}, kernel.BuildOptions{})
		if err != nil {
			b.Fatal(err)
		}
		m, err := svm.Classifier{C: 1}.FitGram(ctx, bs[0].K, ds.Y)
		if err != nil {
			b.Fatal(err)
		}
		p, err := pipeline.New(ds, sc, bs[0], kernel.RuleTree, m)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(ks+"/4096x400", func(b *testing.B) {
			for range b.N {
				if _, err := p.Predict(ctx, newX); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
