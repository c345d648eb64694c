package main

import (
	"context"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/svcluster"
	"gonum.org/v1/gonum/mat"
)

// svcAllRows extends a support vector clustering fitted on the sample rows
// of X to every row: a sampled row keeps its label; another row is an
// outlier (svcluster.Noise) when the fitted sphere leaves it outside
// (R(x)² > R², relative slack 1e-9) and the clustering left outliers
// unassigned, and otherwise takes the cluster of its nearest sampled row
// that has a cluster (Euclidean, ties to the lower row). The returned
// Clustering shares the sphere; Labels and Sizes cover all rows.
func svcAllRows(ctx context.Context, res *svcluster.Clustering, X *mat.Dense, sample []int, unassigned bool) (*svcluster.Clustering, int, error) {
	n, d := X.Dims()
	var keep []int // sampled rows with a cluster
	for a, i := range sample {
		if res.Labels[a] != svcluster.Noise {
			keep = append(keep, i)
		}
	}
	out := *res
	out.Labels = make([]int, n)
	sampled := make(map[int]int, len(sample))
	for a, i := range sample {
		sampled[i] = a
	}
	var near []int32
	if len(keep) > 0 {
		pts := clustering.Rows(X, keep)
		near = make([]int32, n)
		if err := neighbors.New(pts.RawMatrix().Data, len(keep), d).Search(ctx, mat.DenseCopyOf(X).RawMatrix().Data, 1, near, nil); err != nil {
			return nil, 0, err
		}
	}
	outside := 0
	for i := 0; i < n; i++ {
		if a, ok := sampled[i]; ok {
			out.Labels[i] = res.Labels[a]
			continue
		}
		if res.Dist2(X.RawRowView(i)) > res.R2*(1+1e-9) {
			outside++
			if unassigned || near == nil {
				out.Labels[i] = svcluster.Noise
				continue
			}
		}
		if near == nil {
			out.Labels[i] = svcluster.Noise
			continue
		}
		out.Labels[i] = res.Labels[sampled[keep[near[i]]]]
	}
	out.Sizes = make([]int, res.NClusters)
	for _, c := range out.Labels {
		if c >= 0 && c < len(out.Sizes) {
			out.Sizes[c]++
		}
	}
	return &out, outside, nil
}
