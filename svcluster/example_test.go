package svcluster_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/svcluster"
	"gonum.org/v1/gonum/mat"
)

// Support vector clustering of Iris on its first two principal components
// at one (q, C): q = 7, 1/(N·C) = 0.6, outliers assigned to the nearest
// cluster.
func ExampleClusterer() {
	ds, _ := dataset.Embedded("iris")
	Z, _ := svcluster.PCA(nil, ds.X, 2)
	r, err := svcluster.Clusterer{Q: 7, C: 1 / (150 * 0.6)}.Fit(context.Background(), Z)
	if err != nil {
		panic(err)
	}
	mis, _, _ := metrics.Misclassified(ds.Y, r.Labels)
	fmt.Printf("%d clusters %v, n_bsv = %d, %d misclassified\n", r.NClusters, r.Sizes, r.NBSV, mis)
	// Output:
	// 4 clusters [50 49 16 35], n_bsv = 77, 17 misclassified
}

// The divisive hierarchy of §3.2, stopped at three clusters.
func ExampleSweep() {
	ds, _ := dataset.Embedded("iris")
	Z, _ := svcluster.PCA(nil, ds.X, 2)
	h, err := svcluster.Sweep{Clusters: 3}.Fit(context.Background(), Z)
	if err != nil {
		panic(err)
	}
	l := h.Levels[h.Chosen]
	mis, _, _ := metrics.Misclassified(ds.Y, l.Labels)
	fmt.Printf("q = %.3g, 1/(N·C) = %.3g: %d clusters %v, %d misclassified\n", l.Q, l.P, l.NClusters, l.Sizes, mis)
	fmt.Println(h.Newick())
	// Output:
	// q = 11.8, 1/(N·C) = 0.507: 3 clusters [50 65 35], 15 misclassified
	// (c1_n50:11.4749,(c3_n65:0,c4_n35:0)c2_n100:11.4749)c0_n150:0.37078;
}

// Support vector clustering on a precomputed kernel matrix (cone labelling
// in kernel values), then a new point labelled from its kernel row against
// the training rows: it gets the cluster of its nearest training row and is
// flagged when it lies outside every cluster contour.
func ExampleClusterer_FitGram() {
	ctx := context.Background()
	ds := dataset.Blobs(150, 3, 2, 0.6, 1)
	K, _ := kernel.Gram(ctx, nil, kernel.RBF{Gamma: 0.3}, ds.X)
	m, err := svcluster.Clusterer{C: 10.0 / 150, Labelling: svcluster.Cone}.FitGram(ctx, K)
	if err != nil {
		panic(err)
	}
	mis, _, _ := metrics.Misclassified(ds.Y, m.Transduction())
	// Two new points: the first training point, and one far from the data.
	far := []float64{100, 100}
	Kt := mat.NewDense(2, 150, nil)
	for j := 0; j < 150; j++ {
		Kt.Set(0, j, kernel.RBF{Gamma: 0.3}.Eval(ds.X.RawRowView(0), ds.X.RawRowView(j)))
		Kt.Set(1, j, kernel.RBF{Gamma: 0.3}.Eval(far, ds.X.RawRowView(j)))
	}
	p, _ := m.Predict(ctx, nil, Kt)
	out, _ := m.Outlier(ctx, nil, Kt, nil)
	fmt.Printf("%d clusters, %d misclassified; row 0 → %d (training label %d); new points %v, outside %v\n",
		len(m.Classes()), mis, p[0], m.Transduction()[0], p, out)
	// Output:
	// 3 clusters, 0 misclassified; row 0 → 0 (training label 0); new points [0 0], outside [false true]
}
