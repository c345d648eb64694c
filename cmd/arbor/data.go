package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
)

// dataFlags are the data-loading flags shared by every command.
type dataFlags struct {
	path  string
	label string
	scale string

	shift, factor []float64 // the scaling fitted on the data, for new points
}

func (d *dataFlags) register(fsFlags interface {
	StringVar(p *string, name, value, usage string)
}, defaultScale string) {
	fsFlags.StringVar(&d.path, "data", "", "data file (CSV with header, or LIBSVM text; .gz ok), or an embedded set: "+strings.Join(dataset.EmbeddedNames(), ", "))
	fsFlags.StringVar(&d.label, "label", "label", "name of the label column in a CSV file (empty or ? cells = unlabelled)")
	fsFlags.StringVar(&d.scale, "scale", defaultScale, "feature scaling: none, std (z-score over all rows) or minmax")
}

// load reads the data set and applies the scaling. A path that is not a file
// but names an embedded set loads the embedded set.
func (d *dataFlags) load() (*dataset.Dataset, error) {
	if d.path == "" {
		return nil, usageError("--data is required")
	}
	var ds *dataset.Dataset
	_, statErr := os.Stat(d.path)
	switch {
	case statErr == nil:
		var err error
		ds, err = dataset.Load(d.path, dataset.CSVOptions{Label: d.label})
		if err != nil {
			return nil, err
		}
	case errors.Is(statErr, fs.ErrNotExist) && isEmbedded(d.path):
		var err error
		ds, err = dataset.Embedded(strings.TrimPrefix(d.path, "embedded:"))
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("--data %s: %w (embedded sets: %s)", d.path, statErr, strings.Join(dataset.EmbeddedNames(), ", "))
	}
	X, err := dataset.Scale(ds.X, d.scale)
	if err != nil {
		return nil, usageError("--scale: %v", err)
	}
	d.fitScale(ds.X)
	ds.X = X
	return ds, nil
}

// fitScale records per-column shift and factor so that new points can be
// scaled with the statistics of the data (as scikit-learn's transform after
// fit): std uses the mean and population standard deviation, minmax the
// minimum and range; constant columns get factor 1, as dataset.Scale.
func (d *dataFlags) fitScale(X *mat.Dense) {
	n, c := X.Dims()
	d.shift, d.factor = make([]float64, c), make([]float64, c)
	for j := 0; j < c; j++ {
		col := mat.Col(nil, j, X)
		d.factor[j] = 1
		switch d.scale {
		case "std":
			m := floats.Sum(col) / float64(n)
			var v float64
			for _, x := range col {
				v += (x - m) * (x - m)
			}
			d.shift[j] = m
			if sd := math.Sqrt(v / float64(n)); sd > 0 {
				d.factor[j] = sd
			}
		case "minmax":
			lo, hi := floats.Min(col), floats.Max(col)
			d.shift[j] = lo
			if hi > lo {
				d.factor[j] = hi - lo
			}
		}
	}
}

// scaleNew scales new points in place with the data's statistics.
func (d *dataFlags) scaleNew(X *mat.Dense) {
	n, c := X.Dims()
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for j := 0; j < c && j < len(d.shift); j++ {
			row[j] = (row[j] - d.shift[j]) / d.factor[j]
		}
	}
}

func isEmbedded(name string) bool {
	name = strings.TrimPrefix(name, "embedded:")
	for _, n := range dataset.EmbeddedNames() {
		if n == name {
			return true
		}
	}
	return false
}
