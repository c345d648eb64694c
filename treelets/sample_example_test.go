package treelets_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/treelets"
)

// Kernel treelets with sampling and extension (paper 004 §3) on the 1,500
// points of noisy moons: treelets on the RBF kernel of a seeded sample of
// 300 points, the sample's hierarchy cut into 2 clusters, and the other
// 1,200 points — new to the hierarchy — labelled by a C-SVC with the same
// kernel trained on the sample's clusters.
func ExampleSample() {
	ds, _ := dataset.Embedded("noisy_moons")
	X := dataset.Standardize(ds.X)
	g := kernel.Points{X: X, K: kernel.RBF{Gamma: 20}}
	m, err := treelets.Sample{M: 300, Seed: 1, Clusters: 2, Extend: treelets.ExtendSVM}.Fit(context.Background(), g)
	if err != nil {
		fmt.Println(err)
		return
	}
	ari, _ := metrics.ARI(ds.Y, m.Labels)
	fmt.Printf("sampled %d of %d points; adjusted Rand index of all %d labels vs the moons: %.2f\n",
		len(m.Rows), ds.Len(), len(m.Labels), ari)
	// Output:
	// sampled 300 of 1500 points; adjusted Rand index of all 1500 labels vs the moons: 1.00
}
