package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
)

// dataFlags are the data-loading flags shared by every command.
type dataFlags struct {
	path  string
	label string
	scale string

	scaler *dataset.Scaler // the scaling fitted on the data, for new points

	// labelOptional (unsupervised commands): a CSV file without the
	// default "label" column is read as features only; an explicit
	// --label NAME must still exist.
	labelOptional bool
}

func (d *dataFlags) register(fsFlags interface {
	StringVar(p *string, name, value, usage string)
}, defaultScale string) {
	fsFlags.StringVar(&d.path, "data", "", "data file (CSV with header, or LIBSVM text; .gz ok), or an embedded set: "+strings.Join(dataset.EmbeddedNames(), ", "))
	fsFlags.StringVar(&d.label, "label", "label", "name of the label column in a CSV file (empty or ? cells = unlabelled; cluster, kernel and svc also read files without the default label column)")
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
		if errors.Is(err, dataset.ErrNoLabelColumn) && d.labelOptional && d.label == "label" {
			ds, err = dataset.Load(d.path, dataset.CSVOptions{NoLabel: true})
		}
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
	sc, err := dataset.FitScaler(ds.X, d.scale)
	if err != nil {
		return nil, usageError("--scale: %v", err)
	}
	if ds.X, err = sc.Transform(nil, ds.X); err != nil {
		return nil, err
	}
	d.scaler = sc
	return ds, nil
}

// scaleNew scales new points in place with the data's statistics (as
// scikit-learn's transform after fit).
func (d *dataFlags) scaleNew(X *mat.Dense) error {
	_, err := d.scaler.Transform(X, X)
	return err
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
