package landmark

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// ErrFormat reports a saved landmark map that cannot be read: another
// format, a newer version, or damaged content.
var ErrFormat = errors.New("landmark: bad map file")

const (
	nystromFormat = "arbor-nystrom"
	isomapFormat  = "arbor-landmark-isomap"
	mapVersion    = 1
)

// nystromJSON is the saved Nyström map: the landmark points, the factor
// W = U_r Λ_r^{-1/2}, and what gives a new point its kernel row against
// the landmarks — the point kernel's text, or the cluster kernel (linkage,
// graph) with its tree on the landmarks (the tree-aware rule is rebuilt
// from them exactly).
type nystromJSON struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Landmarks []int          `json:"landmarks"`
	M         int            `json:"m"`
	Dim       int            `json:"dim"`
	Rank      int            `json:"rank"`
	Clipped   int            `json:"clipped"`
	Points    modelio.Floats `json:"points"` // M×dim
	W         modelio.Floats `json:"w"`      // M×rank
	Kernel    string         `json:"kernel,omitempty"`
	Linkage   string         `json:"linkage,omitempty"`
	Graph     string         `json:"graph,omitempty"`
	MergeA    []int          `json:"merge_a,omitempty"`
	MergeB    []int          `json:"merge_b,omitempty"`
	MergeSize []int          `json:"merge_size,omitempty"`
	Heights   modelio.Floats `json:"heights,omitempty"`
	// The graph variants' geodesics (newNystromGraph): the N training
	// rows a new point reaches the landmarks through, and the M×N shortest
	// paths from the landmarks. Absent in a map whose graph rule works on
	// the graph among the landmarks alone; such a map loads with that rule.
	N     int            `json:"n,omitempty"`
	Train modelio.Floats `json:"train,omitempty"` // N×dim
	Geo   modelio.Floats `json:"geo,omitempty"`   // M×N
}

// Save writes the map (format "arbor-nystrom", version 1, package
// internal/modelio; floats bit-exact), so that LoadNystrom gives new points
// the same features. Size O(M·(d + r)), plus O(N·(d + M)) for the graph
// variants (the training rows and the geodesics from the landmarks). Errors: ErrFormat for a point
// kernel without a text form (a user-defined Kernel).
func (ny *Nystrom) Save(w io.Writer) error {
	m, d := ny.lm.Dims()
	out := nystromJSON{Format: nystromFormat, Version: mapVersion, Landmarks: ny.Landmarks, M: m, Dim: d,
		Rank: ny.Rank, Clipped: ny.Clipped, Points: mat.DenseCopyOf(ny.lm).RawMatrix().Data, W: mat.DenseCopyOf(ny.w).RawMatrix().Data}
	if ny.k != nil {
		text, ok := kernel.PointText(ny.k)
		if !ok {
			return fmt.Errorf("%w: cannot save the kernel %T", ErrFormat, ny.k)
		}
		out.Kernel = text
	} else {
		out.Linkage = ny.h.Method.String()
		if ny.h.Graph != nil {
			out.Graph = ny.h.Graph.String()
		}
		for _, mg := range ny.t.Merges {
			out.MergeA = append(out.MergeA, mg.A)
			out.MergeB = append(out.MergeB, mg.B)
			out.MergeSize = append(out.MergeSize, mg.Size)
			out.Heights = append(out.Heights, mg.Height)
		}
		if ny.geo != nil {
			g := ny.geo
			out.N, out.Train, out.Geo = g.x.n, g.data, mat.DenseCopyOf(g.geo).RawMatrix().Data
		}
	}
	return modelio.Encode(w, out)
}

// LoadNystrom reads a map written by Nystrom.Save. Errors: ErrFormat.
func LoadNystrom(r io.Reader) (*Nystrom, error) {
	var in nystromJSON
	if err := modelio.Decode(r, &in, nystromFormat, mapVersion, ErrFormat); err != nil {
		return nil, err
	}
	if in.M < 1 || in.Dim < 1 || in.Rank < 1 || in.Rank > in.M || in.Clipped != in.M-in.Rank || len(in.Landmarks) != in.M ||
		!modelio.IsShape(len(in.Points), in.M, in.Dim) || !modelio.IsShape(len(in.W), in.M, in.Rank) {
		return nil, fmt.Errorf("%w: Nyström map of %d landmarks × %d features, rank %d, blocks of %d and %d values", ErrFormat,
			in.M, in.Dim, in.Rank, len(in.Points), len(in.W))
	}
	if err := allFinite(in.Points, in.W, in.Heights); err != nil {
		return nil, err
	}
	ny := &Nystrom{Landmarks: in.Landmarks, Rank: in.Rank, Clipped: in.Clipped,
		lm: mat.NewDense(in.M, in.Dim, in.Points), w: mat.NewDense(in.M, in.Rank, in.W)}
	if in.Kernel != "" {
		k, err := kernel.ParsePoint(in.Kernel)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		ny.k = k
		return ny, nil
	}
	method, err := hclust.ParseMethod(in.Linkage)
	if err != nil {
		return nil, fmt.Errorf("%w: linkage: %w", ErrFormat, err)
	}
	h := kernel.HCK{Method: method}
	if in.Graph != "" {
		g, err := graph.ParseSpec(in.Graph)
		if err != nil {
			return nil, fmt.Errorf("%w: graph: %w", ErrFormat, err)
		}
		h.Graph = &g
	}
	nm := in.M - 1
	if len(in.MergeA) != nm || len(in.MergeB) != nm || len(in.MergeSize) != nm || len(in.Heights) != nm {
		return nil, fmt.Errorf("%w: a tree on %d landmarks needs %d merges", ErrFormat, in.M, nm)
	}
	t := &hclust.Tree{N: in.M, Merges: make([]hclust.Merge, nm)}
	for k := range t.Merges {
		t.Merges[k] = hclust.Merge{A: in.MergeA[k], B: in.MergeB[k], Height: in.Heights[k], Size: in.MergeSize[k]}
	}
	if in.M > 1 {
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("%w: merges: %w", ErrFormat, err)
		}
	}
	ext, err := kernel.NewTreeExtension(ny.lm, h, t, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	ny.tree, ny.h, ny.t = ext, h, t
	ny.graft = kernel.NewTreeFeatures(ext, ny.w) // the fast features, as factor makes them
	if in.Geo != nil || in.Train != nil || in.N != 0 {
		if h.Graph == nil || in.N < in.M || !modelio.IsShape(len(in.Train), in.N, in.Dim) || !modelio.IsShape(len(in.Geo), in.M, in.N) {
			return nil, fmt.Errorf("%w: graph geodesics of %d rows × %d features from %d landmarks: blocks of %d and %d values", ErrFormat,
				in.N, in.Dim, in.M, len(in.Train), len(in.Geo))
		}
		if err := allFinite(in.Train, in.Geo); err != nil {
			return nil, err
		}
		ny.geo = newGeoSource(in.Train, in.N, in.Dim, *h.Graph, mat.NewDense(in.M, in.N, in.Geo))
	}
	return ny, nil
}

// isomapJSON is the saved landmark ISOMAP: what Features needs for new
// points — the N training rows (their graph neighbours), the M×N geodesic
// distances from the landmarks, the projection and the column means.
// Size O(N·(d + M)).
type isomapJSON struct {
	Format    string         `json:"format"`
	Version   int            `json:"version"`
	Landmarks []int          `json:"landmarks"`
	N         int            `json:"n"`
	Dim       int            `json:"dim"`
	Rank      int            `json:"rank"`
	Clipped   int            `json:"clipped"`
	Graph     string         `json:"graph"`
	Train     modelio.Floats `json:"train"` // N×dim
	Geo       modelio.Floats `json:"geo"`   // M×N
	Proj      modelio.Floats `json:"proj"`  // rank×M
	Mean      modelio.Floats `json:"mean"`  // M
}

// Save writes the map (format "arbor-landmark-isomap", version 1): new
// points' features after LoadISOMAP equal those of l. The training
// features (Train) are not saved.
func (l *ISOMAP) Save(w io.Writer) error {
	m := len(l.Landmarks)
	return modelio.Encode(w, isomapJSON{Format: isomapFormat, Version: mapVersion, Landmarks: l.Landmarks,
		N: l.x.n, Dim: l.x.d, Rank: l.Rank, Clipped: l.Clipped, Graph: l.spec.String(), Train: l.data,
		Geo: mat.DenseCopyOf(l.geo).RawMatrix().Data[:m*l.x.n], Proj: mat.DenseCopyOf(l.proj).RawMatrix().Data, Mean: l.mean})
}

// LoadISOMAP reads a map written by ISOMAP.Save. Errors:
// ErrFormat.
func LoadISOMAP(r io.Reader) (*ISOMAP, error) {
	var in isomapJSON
	if err := modelio.Decode(r, &in, isomapFormat, mapVersion, ErrFormat); err != nil {
		return nil, err
	}
	m := len(in.Landmarks)
	if m < 1 || in.N < m || in.Dim < 1 || in.Rank < 1 || in.Rank > m || in.Clipped != m-in.Rank ||
		!modelio.IsShape(len(in.Train), in.N, in.Dim) || !modelio.IsShape(len(in.Geo), m, in.N) || !modelio.IsShape(len(in.Proj), in.Rank, m) || len(in.Mean) != m {
		return nil, fmt.Errorf("%w: landmark ISOMAP of %d landmarks, %d rows × %d features, rank %d: blocks of the wrong size", ErrFormat,
			m, in.N, in.Dim, in.Rank)
	}
	if err := allFinite(in.Train, in.Geo, in.Proj, in.Mean); err != nil {
		return nil, err
	}
	spec, err := graph.ParseSpec(in.Graph)
	if err != nil {
		return nil, fmt.Errorf("%w: graph: %w", ErrFormat, err)
	}
	l := &ISOMAP{Landmarks: in.Landmarks, Rank: in.Rank, Clipped: in.Clipped,
		x: rows{data: in.Train, n: in.N, d: in.Dim, str: in.Dim}, data: in.Train, spec: spec,
		geo: mat.NewDense(m, in.N, in.Geo), proj: mat.NewDense(in.Rank, m, in.Proj), mean: in.Mean}
	if spec.Kind == graph.KindKNN {
		l.ix = neighbors.New(in.Train, in.N, in.Dim)
	}
	return l, nil
}

func allFinite(blocks ...[]float64) error {
	for _, b := range blocks {
		for _, v := range b {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: a saved value is %v", ErrFormat, v)
			}
		}
	}
	return nil
}
