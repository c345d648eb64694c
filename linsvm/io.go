package linsvm

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/arbor-ml/arbor/internal/modelio"
)

// ErrFormat reports a saved model that cannot be read: not a linsvm model,
// a newer version, or damaged.
var ErrFormat = errors.New("linsvm: bad model file")

const (
	format  = "arbor-linsvm"
	version = 1
)

// modelJSON is the saved form (internal/modelio): the weights of each
// binary problem as exact float blocks.
type modelJSON struct {
	Format    string           `json:"format"`
	Version   int              `json:"version"`
	Classes   int              `json:"classes"`
	Dim       int              `json:"dim"`
	W         []modelio.Floats `json:"w"`
	B         modelio.Floats   `json:"b"`
	Iter      []int            `json:"iter"`
	Converged bool             `json:"converged"`
}

// Save writes the model as one JSON document (format "arbor-linsvm",
// version 1); Load reads it back into a model that predicts identically.
func (m *Model) Save(w io.Writer) error {
	ws := make([]modelio.Floats, len(m.w))
	for k, v := range m.w {
		ws[k] = v
	}
	return modelio.Encode(w, modelJSON{Format: format, Version: version, Classes: m.classes, Dim: m.d,
		W: ws, B: m.b, Iter: m.Iter, Converged: m.Converged})
}

// Load reads a model written by Save. Errors: ErrFormat.
func Load(r io.Reader) (*Model, error) {
	var in modelJSON
	if err := modelio.Decode(r, &in, format, version, ErrFormat); err != nil {
		return nil, err
	}
	probs := in.Classes
	if in.Classes == 2 {
		probs = 1
	}
	if in.Classes < 2 || in.Dim < 1 || len(in.W) != probs || len(in.B) != probs {
		return nil, fmt.Errorf("%w: %d classes, %d features, %d weight vectors, %d biases", ErrFormat, in.Classes, in.Dim, len(in.W), len(in.B))
	}
	m := &Model{classes: in.Classes, d: in.Dim, b: in.B, Iter: in.Iter, Converged: in.Converged}
	for k, w := range in.W {
		if len(w) != in.Dim {
			return nil, fmt.Errorf("%w: weight vector %d has %d values, want %d", ErrFormat, k, len(w), in.Dim)
		}
		for _, v := range w {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: weight vector %d has %v", ErrFormat, k, v)
			}
		}
		m.w = append(m.w, w)
	}
	return m, nil
}
