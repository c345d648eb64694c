package clustering

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"gonum.org/v1/gonum/mat"
)

// Rows returns a new matrix of the rows rows of X, in that order.
func Rows(X *mat.Dense, rows []int) *mat.Dense {
	_, d := X.Dims()
	L := mat.NewDense(len(rows), d, nil)
	for r, i := range rows {
		L.SetRow(r, X.RawRowView(i))
	}
	return L
}

// LandmarkGeodesics returns the condensed geodesic distances among the
// landmark rows lm of X on the graph spec of all rows: shortest paths from
// the landmarks only, symmetrised 0.5·(G_ab + G_ba), with the components
// joined by paper 000 Eq. 4 as the exact geodesics (graph.Geodesic).
func LandmarkGeodesics(ctx context.Context, X *mat.Dense, spec string, lm []int) (distance.Condensed, error) {
	gs, err := graph.ParseSpec(spec)
	if err != nil {
		return distance.Condensed{}, err
	}
	g, err := graph.Build(ctx, X, gs)
	if err != nil {
		return distance.Condensed{}, err
	}
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

// NearestLabels gives every row of X the label of its nearest row among
// rows (Euclidean, ties to the lower position in rows): labels[a] is the
// label of row rows[a].
func NearestLabels(ctx context.Context, X *mat.Dense, rows []int, labels []int) ([]int, error) {
	n, d := X.Dims()
	L := Rows(X, rows)
	near := make([]int32, n)
	if err := neighbors.New(L.RawMatrix().Data, len(rows), d).Search(ctx, mat.DenseCopyOf(X).RawMatrix().Data, 1, near, nil); err != nil {
		return nil, err
	}
	out := make([]int, n)
	for i, a := range near {
		out[i] = labels[a]
	}
	return out, nil
}
