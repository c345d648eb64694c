package propagate

import (
	"fmt"
	"io"
	"math"

	"github.com/arbor-ml/arbor/internal/modelio"
	"gonum.org/v1/gonum/mat"
)

const (
	anchorFormat  = "arbor-anchor-graph"
	anchorVersion = 1
)

// anchorJSON is the saved form of an AnchorModel (internal/modelio): the
// anchors and the anchors' soft labels as exact float blocks.
type anchorJSON struct {
	Format  string         `json:"format"`
	Version int            `json:"version"`
	Method  string         `json:"method"` // "propagation" or "spreading"
	M       int            `json:"m"`
	Dim     int            `json:"dim"`
	Classes int            `json:"classes"`
	S       int            `json:"s"`
	Sigma2  float64        `json:"sigma2"`
	Anchors modelio.Floats `json:"anchors"` // M×dim, row-major
	A       modelio.Floats `json:"a"`       // M×classes, row-major
	Lambda  modelio.Floats `json:"lambda"`
	Labels  []int          `json:"labels"` // transduction of the fitted rows
}

// Save writes the model (format "arbor-anchor-graph", version 1): what
// Predict needs (anchors, S, σ², the anchors' soft labels and the class
// normalisation) and the transduction of the fitted rows.
func (am *AnchorModel) Save(w io.Writer) error {
	m, d := am.anchors.Dims()
	_, c := am.a.Dims()
	method := am.method
	if method == "" {
		method = "propagation"
	}
	return modelio.Encode(w, anchorJSON{Format: anchorFormat, Version: anchorVersion, Method: method,
		M: m, Dim: d, Classes: c, S: am.s, Sigma2: am.sigma2,
		Anchors: mat.DenseCopyOf(am.anchors).RawMatrix().Data, A: mat.DenseCopyOf(am.a).RawMatrix().Data,
		Lambda: am.lambda, Labels: am.labels})
}

// LoadAnchor reads a model written by AnchorModel.Save. Errors: ErrFormat.
func LoadAnchor(r io.Reader) (*AnchorModel, error) {
	var in anchorJSON
	if err := modelio.Decode(r, &in, anchorFormat, anchorVersion, ErrFormat); err != nil {
		return nil, err
	}
	switch {
	case in.Method != "propagation" && in.Method != "spreading":
		return nil, fmt.Errorf("%w: anchor graph method %.40q", ErrFormat, in.Method)
	case in.M < 1 || in.Dim < 1 || in.Classes < 2 || in.S < 1 || in.S > in.M:
		return nil, fmt.Errorf("%w: anchor graph with %d anchors, %d features, %d classes, S = %d", ErrFormat, in.M, in.Dim, in.Classes, in.S)
	case !modelio.IsShape(len(in.Anchors), in.M, in.Dim) || !modelio.IsShape(len(in.A), in.M, in.Classes) || len(in.Lambda) != in.Classes:
		return nil, fmt.Errorf("%w: anchor graph blocks of %d, %d, %d values for %d anchors × %d features, %d classes", ErrFormat,
			len(in.Anchors), len(in.A), len(in.Lambda), in.M, in.Dim, in.Classes)
	case !(in.Sigma2 > 0) || math.IsInf(in.Sigma2, 0):
		return nil, fmt.Errorf("%w: anchor graph σ² = %v", ErrFormat, in.Sigma2)
	}
	for _, blk := range [][]float64{in.Anchors, in.A, in.Lambda} {
		for _, v := range blk {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: anchor graph value %v", ErrFormat, v)
			}
		}
	}
	for i, c := range in.Labels {
		if c < -1 || c >= in.Classes {
			return nil, fmt.Errorf("%w: label %d of row %d", ErrFormat, c, i)
		}
	}
	method := in.Method
	if method == "propagation" {
		method = ""
	}
	return &AnchorModel{anchors: mat.NewDense(in.M, in.Dim, in.Anchors), s: in.S, sigma2: in.Sigma2,
		a: mat.NewDense(in.M, in.Classes, in.A), lambda: in.Lambda, labels: in.Labels, method: method}, nil
}

// Classes returns the class labels the model can output, 0..C−1.
func (am *AnchorModel) Classes() []int {
	c := make([]int, len(am.lambda))
	for i := range c {
		c[i] = i
	}
	return c
}

// Dim returns the number of features the model expects.
func (am *AnchorModel) Dim() int { _, d := am.anchors.Dims(); return d }
