package svcluster_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/svcluster"
)

// From a data set to a statement about new points: support vector
// clustering of the 1500 noisy moons (scaled) finds the two moons, and a new
// point lies inside the clusters' contour when its feature-space distance
// to the sphere's centre is at most the radius, R²(x) ≤ R² (paper 001
// eq. 9): a point beside a data point is inside, a far one is not.
func ExampleClustering_Dist2() {
	d, err := dataset.Embedded("noisy_moons")
	if err != nil {
		panic(err)
	}
	scaler, err := dataset.FitScaler(d.X, "std")
	if err != nil {
		panic(err)
	}
	X, _ := scaler.Transform(nil, d.X)
	r, err := svcluster.Clusterer{Q: 5, C: 1}.Fit(context.Background(), X)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d clusters of sizes %v\n", r.NClusters, r.Sizes)
	near := []float64{X.At(0, 0) + 0.01, X.At(0, 1) - 0.01} // beside the first point, scaled
	far := []float64{4, 4}
	fmt.Println("near point inside:", r.Dist2(near) <= r.R2)
	fmt.Println("far point inside:", r.Dist2(far) <= r.R2)
	// Output:
	// 2 clusters of sizes [750 750]
	// near point inside: true
	// far point inside: false
}
