package knn

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// ErrFormat: Load met a malformed or unsupported model file, or Save a
// kernel it cannot describe.
var ErrFormat = errors.New("knn: model format")

const modelFormat = "arbor-knn"
const modelVersion = 1

type modelJSON struct {
	Format       string      `json:"format"`
	Version      int         `json:"version"`
	K            int         `json:"k"`
	Weights      string      `json:"weights,omitempty"`
	Ties         string      `json:"ties,omitempty"`
	Soft         bool        `json:"soft,omitempty"`
	Threshold    float64     `json:"threshold,omitempty"`
	TopR         int         `json:"top_r,omitempty"`
	IgnoreSelf   bool        `json:"ignore_self,omitempty"`
	Kernel       string      `json:"kernel"`
	N            int         `json:"n"`
	NClasses     int         `json:"n_classes"`
	Labeled      []int       `json:"labeled"`
	Y            []int       `json:"y,omitempty"`
	Sets         [][]int     `json:"sets,omitempty"`
	LDiag        []float64   `json:"ldiag"`
	XLabeled     [][]float64 `json:"x_labeled,omitempty"`
	Transduction []int       `json:"transduction,omitempty"`
}

// Save writes m as one JSON object:
//
//	{
//	  "format": "arbor-knn", "version": 1,
//	  "k": 3, "weights": "distance", "ties": "lowest", "soft": false, "threshold": 0, "top_r": 0,
//	  "ignore_self": false,        // Classifier.IgnoreSelf (absent when false; readers before it refuse it)
//	  "kernel": "precomputed" | a point kernel spec ("linear", "rbf:0.5", ...),
//	  "n": 150,                    // fitted rows (columns of Kt)
//	  "n_classes": 3,              // score columns
//	  "labeled": [0, 5, ...],      // the candidate neighbours (rows)
//	  "y": [0, 2, ...],            // their classes (or "sets" for multi-label)
//	  "ldiag": [1, 1, ...],        // k(z, z) of each labelled row
//	  "x_labeled": [[...], ...],   // their points (point kernels only)
//	  "transduction": [0, 2, ...]  // label of each fitted row
//	}
//
// A loaded model predicts new points (PredictDiag, PredictPoints)
// bit-identically; it has no Gram matrix, so PredictRows is an error.
// Numbers use Go's shortest round-trip formatting. Errors: ErrFormat for a
// kernel without a spec, or the writer's error.
func (m *Model) Save(w io.Writer) error {
	out := modelJSON{Format: modelFormat, Version: modelVersion, K: m.settings.K, Weights: m.settings.Weights, Ties: m.settings.Ties,
		Soft: m.settings.Soft, Threshold: m.settings.Threshold, TopR: m.settings.TopR, IgnoreSelf: m.settings.IgnoreSelf, Kernel: "precomputed",
		N: m.n, NClasses: m.NClasses, Labeled: m.Labeled, Y: m.y, Sets: m.sets, LDiag: m.ldiag,
		Transduction: m.transduction}
	if m.xlab != nil {
		s, ok := kernel.PointText(m.kern)
		if !ok {
			return fmt.Errorf("%w: cannot save kernel of type %T", ErrFormat, m.kern)
		}
		out.Kernel = s
		for j := range m.Labeled {
			out.XLabeled = append(out.XLabeled, m.xlab.RawRowView(j))
		}
	}
	return modelio.Encode(w, out)
}

// Load reads a model written by Save and checks its consistency. Errors:
// ErrFormat or the reader's error.
func Load(r io.Reader) (*Model, error) {
	var in modelJSON
	if err := modelio.Decode(r, &in, modelFormat, modelVersion, ErrFormat); err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	c := Classifier{K: in.K, Weights: in.Weights, Ties: in.Ties, Soft: in.Soft, Threshold: in.Threshold, TopR: in.TopR, IgnoreSelf: in.IgnoreSelf}
	if err := c.validate(); err != nil {
		return nil, bad("settings: %v", err)
	}
	l := len(in.Labeled)
	if l <= in.K || in.N < l || in.NClasses < 1 {
		return nil, bad("%d labelled of %d rows, k = %d, %d classes", l, in.N, in.K, in.NClasses)
	}
	for j, r := range in.Labeled {
		if r < 0 || r >= in.N || (j > 0 && r <= in.Labeled[j-1]) {
			return nil, bad("labeled[%d] = %d: want increasing rows in [0, %d)", j, r, in.N)
		}
	}
	if len(in.LDiag) != l {
		return nil, bad("ldiag has %d values for %d labelled rows", len(in.LDiag), l)
	}
	for _, v := range in.LDiag {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, bad("non-finite ldiag")
		}
	}
	okClass := func(v int) bool { return v >= 0 && v < in.NClasses }
	switch {
	case in.Sets != nil && in.Y == nil:
		if len(in.Sets) != l {
			return nil, bad("sets has %d entries for %d labelled rows", len(in.Sets), l)
		}
		for _, s := range in.Sets {
			if len(s) == 0 || !slices.IsSorted(s) || !okClass(s[0]) || !okClass(s[len(s)-1]) {
				return nil, bad("bad label set %v", s)
			}
		}
	case in.Y != nil && in.Sets == nil:
		if len(in.Y) != l {
			return nil, bad("y has %d entries for %d labelled rows", len(in.Y), l)
		}
		for _, v := range in.Y {
			if !okClass(v) {
				return nil, bad("label %d outside [0, %d)", v, in.NClasses)
			}
		}
	default:
		return nil, bad("want exactly one of y and sets")
	}
	// Fitting sets n_classes to the largest label + 1 (score columns are
	// allocated from it when predicting).
	top := -1
	for _, v := range in.Y {
		top = max(top, v)
	}
	for _, s := range in.Sets {
		top = max(top, s[len(s)-1])
	}
	if in.NClasses != top+1 {
		return nil, bad("n_classes = %d, but the largest label is %d", in.NClasses, top)
	}
	if in.Transduction != nil && len(in.Transduction) != in.N {
		return nil, bad("transduction has %d labels for %d rows", len(in.Transduction), in.N)
	}
	m := &Model{settings: c, NClasses: in.NClasses, Labeled: in.Labeled, MultiLabel: in.Sets != nil, n: in.N,
		y: in.Y, sets: in.Sets, ldiag: in.LDiag, transduction: in.Transduction}
	m.classes = distinct(m.y, m.sets)
	if in.Kernel != "precomputed" {
		k, err := kernel.ParsePoint(in.Kernel)
		if err != nil {
			return nil, bad("kernel %.40q: want precomputed or a point kernel with its parameters", in.Kernel)
		}
		if len(in.XLabeled) != l || len(in.XLabeled[0]) == 0 {
			return nil, bad("x_labeled has %d rows for %d labelled rows", len(in.XLabeled), l)
		}
		d := len(in.XLabeled[0])
		m.xlab, m.kern, m.ncols = mat.NewDense(l, d, nil), k, d
		for j, row := range in.XLabeled {
			if len(row) != d {
				return nil, bad("x_labeled row %d has %d values, want %d", j, len(row), d)
			}
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, bad("x_labeled row %d: non-finite value", j)
				}
			}
			m.xlab.SetRow(j, row)
		}
	} else if in.XLabeled != nil {
		return nil, bad("x_labeled given for a precomputed-kernel model")
	}
	return m, nil
}
