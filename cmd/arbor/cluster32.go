package main

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// cluster --float32: the linkage's N×N working matrix in float32
// (hclust.FromPoints32, LinkageSym32) and the cophenetic correlation from
// rows of distances made on the fly (Tree.CopheneticCorrelationRows), so
// no float64 N×N or condensed matrix is ever held for Euclidean distances.

const clusterFloat32Usage = "hold the linkage's N×N working matrix in float32 (half the memory; distances and updates computed in float64 and rounded once: heights within a few 2⁻²⁴ relative, the same tree unless candidate distances are that close) and compute the cophenetic correlation without a distance matrix"

// clusterBytes32 estimates cluster --float32: the float32 working matrix
// (4N²; none for single linkage on Euclidean distances, which runs on the
// points), plus the float64 geodesic matrix for --distance graph.
func clusterBytes32(n, dim int, m hclust.Method, dist string) float64 {
	nf := float64(n)
	if dist == "graph" {
		return 12 * nf * nf
	}
	if m == hclust.Single {
		return 8 * nf * float64(dim+8)
	}
	return 4 * nf * nf
}

// clusterTree32 builds the tree of the rows of X with the float32 working
// matrix and, if cophenetic, the cophenetic correlation against the
// distances the tree was built from. joins is −1 for Euclidean distances.
func clusterTree32(ctx context.Context, X *mat.Dense, m hclust.Method, dist, graphSpec string, cophenetic bool, progress func(string, int, int)) (tree *hclust.Tree, ccc float64, joins int, err error) {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	joins = -1
	var rows func(i int, row []float64)
	switch dist {
	case "euclidean":
		progress(m.String()+" linkage (float32)", 0, 0)
		if tree, err = hclust.FromPoints32(ctx, X, m); err != nil {
			return nil, 0, 0, err
		}
		n := X.RawMatrix().Rows
		rows = func(i int, row []float64) {
			xi := X.RawRowView(i)
			for j := i + 1; j < n; j++ {
				row[j] = distance.Dist(xi, X.RawRowView(j))
			}
		}
	case "graph":
		spec, err := graph.ParseSpec(graphSpec)
		if err != nil {
			return nil, 0, 0, usageError("--graph: %v", err)
		}
		progress("graph shortest paths", 0, 0)
		g, err := graph.Geodesic(ctx, X, spec)
		if err != nil {
			return nil, 0, 0, err
		}
		joins = g.Joins
		progress(m.String()+" linkage (float32)", 0, 0)
		if tree, err = hclust.LinkageSym32(ctx, g.G, m); err != nil {
			return nil, 0, 0, err
		}
		raw := g.G.RawSymmetric()
		rows = func(i int, row []float64) {
			copy(row[i+1:raw.N], raw.Data[i*raw.Stride+i+1:i*raw.Stride+raw.N])
		}
	default:
		return nil, 0, 0, usageError("--distance must be euclidean or graph, got %q", dist)
	}
	if !cophenetic {
		return tree, 0, joins, nil
	}
	progress("cophenetic correlation", 0, 0)
	ccc, err = tree.CopheneticCorrelationRows(ctx, rows)
	return tree, ccc, joins, err
}

// clusterFloat32Check refuses --float32 where cluster holds no N×N matrix
// of its own: with --landmarks (the tree is on M rows) and treelets.
func clusterFloat32Check(landmarks int, method string) error {
	if landmarks > 0 {
		return usageError("--float32 and --landmarks: the tree is on the %d landmarks, an M×M matrix; leave out --float32", landmarks)
	}
	if method == "treelets" {
		return usageError("--float32 is not available with --method treelets")
	}
	return nil
}

// float32ClusterHint names cluster --float32 with its memory when it fits.
func (m memFlags) float32ClusterHint(n, dim int, meth hclust.Method, dist string) string {
	return m.float32Hint(clusterBytes32(n, dim, meth, dist))
}

var _ = fmt.Sprintf
