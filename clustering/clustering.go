package clustering

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/landmark"
	"gonum.org/v1/gonum/mat"
)

// ErrSettings is wrapped by the error of invalid Settings.
var ErrSettings = errors.New("clustering: invalid settings")

// Distances between rows.
const (
	Euclidean = "euclidean" // Euclidean distances (the default)
	Graph     = "graph"     // shortest paths on the neighbourhood graph Settings.Graph
)

// DefaultGraph is the neighbourhood graph of Graph distances when
// Settings.Graph is empty.
const DefaultGraph = "knn:7"

// Settings say how Fit clusters. The zero value is single linkage on
// Euclidean distances over every row.
type Settings struct {
	// Linkage is the linkage method (the zero value is hclust.Single).
	Linkage hclust.Method
	// Distance is Euclidean (also "") or Graph.
	Distance string
	// Graph is the neighbourhood graph of Graph distances, a graph.Spec
	// such as "knn:7" (symmetrised) or "eps:0.5"; "" is DefaultGraph.
	Graph string
	// Float32 holds the linkage's N×N working matrix in float32.
	Float32 bool
	// Budget is the memory budget in bytes (0: none). Euclidean
	// distances over every row cluster without the N×N matrix when the
	// matrix path exceeds it; Fit stops with a *MemoryError rather than
	// exceed it.
	Budget int64
	// Landmarks, if positive, builds the tree on this many rows chosen by
	// landmark.Choose with LandmarkMethod (landmark.KMeans when "") and
	// Seed; every row takes its nearest landmark's cluster.
	Landmarks      int
	LandmarkMethod string
	Seed           uint64
	// Cophenetic also computes the cophenetic correlation.
	Cophenetic bool
	// Cut, if not nil, cuts the tree into flat clusters (Result.Labels).
	Cut *hclust.Cut

	// Progress, if not nil, reports the stages of long work; Log, if not
	// nil, receives the notes of the run, one per line.
	Progress func(stage string, done, total int)
	Log      io.Writer
}

// Result is a fitted clustering.
type Result struct {
	// Tree is the tree of the rows (of the landmarks with Landmarks).
	Tree *hclust.Tree
	// Cophenetic is the cophenetic correlation (NaN unless asked for).
	Cophenetic float64
	// Joins is the number of component joins of Graph distances (−1 for
	// Euclidean distances).
	Joins int
	// Landmarks are the rows of X the tree is built on, ascending (nil:
	// every row, leaf i is row i).
	Landmarks []int
	// Labels are the flat clusters of every row of X by Settings.Cut
	// (nil without a cut).
	Labels []int
	// Cost is the memory the run was predicted to need.
	Cost Cost
}

func (s Settings) validate() error {
	switch s.Distance {
	case "", Euclidean, Graph:
	default:
		return fmt.Errorf("%w: distance must be %s or %s, got %q", ErrSettings, Euclidean, Graph, s.Distance)
	}
	if s.Landmarks < 0 {
		return fmt.Errorf("%w: landmarks must be ≥ 0, got %d", ErrSettings, s.Landmarks)
	}
	if s.Float32 && s.Landmarks > 0 {
		return fmt.Errorf("%w: float32 with landmarks: the tree is on the %d landmarks, an M×M matrix", ErrSettings, s.Landmarks)
	}
	if s.Distance == Graph {
		if _, err := graph.ParseSpec(s.graphSpec()); err != nil {
			return err
		}
	}
	return nil
}

func (s Settings) graphSpec() string {
	if s.Graph == "" {
		return DefaultGraph
	}
	return s.Graph
}

// what names the run for a MemoryError.
func (s Settings) what(n int, c Cost) string {
	what := fmt.Sprintf("clustering %d rows", n)
	switch {
	case c.LowMemory:
		what += " without the N×N matrix"
	case s.Float32:
		what += " (float32)"
	}
	return what
}

// Fit builds the tree of the rows of X as Settings say, with its
// cophenetic correlation and cut when asked for.
func Fit(ctx context.Context, s Settings, X *mat.Dense) (*Result, error) {
	n, d := X.Dims()
	c, err := s.Cost(n, d)
	if err != nil {
		return nil, err
	}
	if s.Landmarks > n {
		return nil, fmt.Errorf("%w: %d landmarks: more than the %d rows", ErrSettings, s.Landmarks, n)
	}
	if s.Budget > 0 && c.Bytes > float64(s.Budget) {
		return nil, &MemoryError{Bytes: c.Bytes, Budget: s.Budget, What: s.what(n, c)}
	}
	progress := s.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	r := &Result{Cophenetic: math.NaN(), Joins: -1, Cost: c}
	switch {
	case c.LowMemory:
		err = s.fitLowMemory(ctx, r, X, progress)
	case s.Float32:
		err = s.fit32(ctx, r, X, progress)
	default:
		err = s.fitMatrix(ctx, r, X, progress)
	}
	if err != nil {
		return nil, err
	}
	if s.Cut == nil {
		return r, nil
	}
	if r.Labels, err = r.Tree.Cut(*s.Cut); err != nil {
		return nil, err
	}
	if r.Landmarks != nil {
		if r.Labels, err = NearestLabels(ctx, X, r.Landmarks, r.Labels); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// fitMatrix is the path with the N×N (or M×M) matrix.
func (s Settings) fitMatrix(ctx context.Context, r *Result, X *mat.Dense, progress func(string, int, int)) error {
	P := X
	if s.Landmarks > 0 {
		method := s.LandmarkMethod
		if method == "" {
			method = landmark.KMeans
		}
		lm, err := landmark.Choose(ctx, X, s.Landmarks, method, s.Seed)
		if err != nil {
			return err
		}
		r.Landmarks, P = lm, Rows(X, lm)
		if s.Log != nil {
			fmt.Fprintf(s.Log, "landmarks %d (%s, seed %d): the tree is built on them; every row joins its nearest landmark's cluster\n", len(lm), method, s.Seed)
		}
	}
	var D distance.Condensed
	var err error
	switch {
	case s.Distance == Graph && r.Landmarks != nil:
		D, err = LandmarkGeodesics(ctx, X, s.graphSpec(), r.Landmarks)
	case s.Distance == Graph:
		spec, _ := graph.ParseSpec(s.graphSpec()) // checked by Cost
		progress("graph shortest paths", 0, 0)
		var g graph.GeodesicResult
		if g, err = graph.Geodesic(ctx, X, spec); err == nil {
			D, r.Joins = distance.FromSymmetric(g.G), g.Joins
		}
	}
	if err != nil {
		return err
	}
	progress(s.Linkage.String()+" linkage", 0, 0)
	if s.Distance == Graph {
		r.Tree, err = hclust.Linkage(ctx, D, s.Linkage)
	} else {
		// The tree comes straight from the points (the same distances, the
		// same tree, no condensed copy), and so does the cophenetic
		// correlation: with the linkage for average, from the points in
		// leaf order for the other methods.
		if !s.Cophenetic {
			r.Tree, err = hclust.FromPoints(ctx, P, s.Linkage)
			return err
		}
		r.Tree, r.Cophenetic, err = hclust.FromPointsCophenetic(ctx, P, s.Linkage)
		return err
	}
	if err != nil || !s.Cophenetic {
		return err
	}
	progress("cophenetic correlation", 0, 0)
	r.Cophenetic, err = r.Tree.CopheneticCorrelation(ctx, D)
	return err
}

// fit32 is the path with the float32 working matrix; the cophenetic
// correlation comes from rows of distances made on the fly, so no float64
// N×N or condensed matrix is held for Euclidean distances.
func (s Settings) fit32(ctx context.Context, r *Result, X *mat.Dense, progress func(string, int, int)) error {
	var rows func(i int, row []float64)
	var err error
	if s.Distance == Graph {
		spec, _ := graph.ParseSpec(s.graphSpec()) // checked by Cost
		progress("graph shortest paths", 0, 0)
		g, err := graph.Geodesic(ctx, X, spec)
		if err != nil {
			return err
		}
		r.Joins = g.Joins
		progress(s.Linkage.String()+" linkage (float32)", 0, 0)
		if r.Tree, err = hclust.LinkageSym32(ctx, g.G, s.Linkage); err != nil {
			return err
		}
		raw := g.G.RawSymmetric()
		rows = func(i int, row []float64) {
			copy(row[i+1:raw.N], raw.Data[i*raw.Stride+i+1:i*raw.Stride+raw.N])
		}
	} else {
		progress(s.Linkage.String()+" linkage (float32)", 0, 0)
		if r.Tree, err = hclust.FromPoints32(ctx, X, s.Linkage); err != nil {
			return err
		}
		rows = euclideanRows(X)
	}
	if !s.Cophenetic {
		return nil
	}
	progress("cophenetic correlation", 0, 0)
	r.Cophenetic, err = r.Tree.CopheneticCorrelationRows(ctx, rows)
	return err
}

// fitLowMemory is the path without the N×N matrix. Complete, average and
// weighted first find the clusters of the exact tree (hclust.ExactCells),
// then check whether the K×K matrix of the tree on them fits the budget.
func (s Settings) fitLowMemory(ctx context.Context, r *Result, X *mat.Dense, progress func(string, int, int)) error {
	var err error
	if cellsLinkage(s.Linkage) {
		progress("clusters of the exact tree on the 40-NN graph", 0, 0)
		cells, K, err := hclust.ExactCells(ctx, X, s.Linkage, exactCellsNeighbors)
		if err != nil {
			return err
		}
		n, d := X.Dims()
		if need := 8*float64(K)*float64(K) + bytesLow(n, d, s.Linkage); s.Budget > 0 && need > float64(s.Budget) {
			return &MemoryError{Bytes: need, Budget: s.Budget, What: fmt.Sprintf("the %s tree on %d clusters of the exact tree", s.Linkage, K)}
		}
		progress(fmt.Sprintf("%s linkage of %d clusters", s.Linkage, K), 0, 0)
		r.Tree, err = hclust.FromPointsCells(ctx, X, cells, K, s.Linkage)
		if err != nil {
			return err
		}
	} else if r.Tree, err = hclust.FromPointsLowMemory(ctx, X, s.Linkage, s.Progress); err != nil {
		return err
	}
	if !s.Cophenetic {
		return nil
	}
	progress("cophenetic correlation", 0, 0)
	r.Cophenetic, err = r.Tree.CopheneticCorrelationRows(ctx, euclideanRows(X))
	return err
}

// euclideanRows fills row[j], j > i, with the Euclidean distance of rows i
// and j of X.
func euclideanRows(X *mat.Dense) func(i int, row []float64) {
	n, _ := X.Dims()
	return func(i int, row []float64) {
		xi := X.RawRowView(i)
		for j := i + 1; j < n; j++ {
			row[j] = distance.Dist(xi, X.RawRowView(j))
		}
	}
}
