package clustering_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
)

// Example clusters iris as arbor cluster --data iris --linkage average
// --clusters 3 does (cophenetic correlation 0.8770, sizes 64, 50, 36).
func Example() {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		panic(err)
	}
	s := clustering.Settings{
		Linkage:    hclust.Average,
		Cophenetic: true,
		Cut:        &hclust.Cut{Criterion: hclust.NClusters, K: 3},
		Budget:     1 << 30,
	}
	c, err := s.Cost(ds.Len(), ds.Dim()) // before any work
	if err != nil {
		panic(err)
	}
	fmt.Printf("needs %.0f KiB\n", c.Bytes/1024)
	r, err := clustering.Fit(context.Background(), s, ds.X)
	if err != nil {
		panic(err)
	}
	sizes := make([]int, 3)
	for _, l := range r.Labels {
		sizes[l]++
	}
	fmt.Printf("cophenetic correlation %.4f, cluster sizes %v\n", r.Cophenetic, sizes)
	// Output:
	// needs 176 KiB
	// cophenetic correlation 0.8770, cluster sizes [50 64 36]
}
