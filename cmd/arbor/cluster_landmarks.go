package main

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"gonum.org/v1/gonum/mat"
)

// landmarkPoints returns the rows lm of X.
func landmarkPoints(X *mat.Dense, lm []int) *mat.Dense {
	_, d := X.Dims()
	L := mat.NewDense(len(lm), d, nil)
	for r, i := range lm {
		L.SetRow(r, X.RawRowView(i))
	}
	return L
}

// landmarkGeodesics returns the condensed geodesic distances among the
// landmarks on the graph of all rows (shortest paths from the landmarks
// only, symmetrised; components joined by Eq. 4 as the exact geodesics).
func landmarkGeodesics(ctx context.Context, X *mat.Dense, spec string, lm []int) (distance.Condensed, error) {
	gs, err := graph.ParseSpec(spec)
	if err != nil {
		return distance.Condensed{}, usageError("--graph: %v", err)
	}
	g, err := graph.Build(ctx, X, gs)
	if err != nil {
		return distance.Condensed{}, err
	}
	// Components joined by paper 000 Eq. 4, as the exact --distance graph.
	Xc := mat.DenseCopyOf(X)
	_, d := Xc.Dims()
	j, err := graph.JoinedDistancesFrom(ctx, g, Xc.RawMatrix().Data, d, lm)
	if err != nil {
		return distance.Condensed{}, fmt.Errorf("--landmarks with --distance graph: %w", err)
	}
	G := j.From
	m := len(lm)
	S := mat.NewSymDense(m, nil)
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			S.SetSym(a, b, 0.5*(G.At(a, lm[b])+G.At(b, lm[a])))
		}
	}
	return distance.FromSymmetric(S), nil
}

// nearestLandmarkLabels gives every row of X the cluster of its nearest
// landmark (Euclidean, ties to the lower landmark).
func nearestLandmarkLabels(ctx context.Context, X *mat.Dense, lm []int, lmLabels []int) ([]int, error) {
	n, d := X.Dims()
	L := landmarkPoints(X, lm)
	near := make([]int32, n)
	if err := neighbors.New(L.RawMatrix().Data, len(lm), d).Search(ctx, mat.DenseCopyOf(X).RawMatrix().Data, 1, near, nil); err != nil {
		return nil, err
	}
	out := make([]int, n)
	for i, a := range near {
		out[i] = lmLabels[a]
	}
	return out, nil
}
