package dataset

import (
	"errors"
	"fmt"
)

// ErrMultiLabel: multi-label data (rows in two or more classes) given to a
// method that takes one class per row.
var ErrMultiLabel = errors.New("multi-label data")

// Prep is what is done to a data set between reading it and handing it to
// a method, in this order (arbor's commands all do it so):
//
//  1. missing values filled with FitImputer's Impute strategy ("" or
//     "none": left missing);
//  2. missing values left are refused unless AllowMissing (MissingError,
//     naming Method, followed by MissingHint);
//  3. multi-label data are refused unless MultiLabel (ErrMultiLabel);
//  4. a feature value whose squares overflow float64 is refused
//     (ErrMagnitude at MagnitudeLimit, naming the file's line and column);
//  5. the features are scaled by FitScaler's Scale method.
//
// New points go through CheckNew and then the Scaler of Prepared, which
// fills and scales them with the data's values.
type Prep struct {
	Impute       string
	Scale        string
	AllowMissing bool
	MultiLabel   bool
	Method       string // the method in the missing-values error
	MissingHint  string // what to do about missing values
}

// Prepared is what Apply did.
type Prepared struct {
	// Scaler is the scaling fitted on the data, its Impute the
	// imputation: Transform fills and scales new points the same way.
	Scaler *Scaler
	// Imputed missing values were filled, in ImputedColumns columns.
	Imputed, ImputedColumns int
}

// Apply prepares d in place (d.X filled and scaled, d.Missing cleared
// when filled). Errors: FitImputer's (ErrUnknownImpute as it is, others
// prefixed with d.Name), MissingError's, ErrMultiLabel, a *ParseError
// wrapping ErrMagnitude, FitScaler's (ErrUnknownScale). On error, Prepared
// reports the filling done before it.
func (p Prep) Apply(d *Dataset) (Prepared, error) {
	var out Prepared
	imp, err := FitImputer(d.X, p.Impute, d.Features)
	if err != nil {
		if errors.Is(err, ErrUnknownImpute) {
			return out, err
		}
		return out, fmt.Errorf("%s: %w", d.Name, err)
	}
	if imp != nil {
		n, err := imp.Transform(d.X)
		if err != nil {
			return out, err
		}
		cols := map[int]bool{}
		for _, c := range d.Missing {
			cols[c.Col] = true
		}
		d.Missing = nil
		out.Imputed, out.ImputedColumns = n, len(cols)
	}
	if !p.AllowMissing {
		if err := d.MissingError(p.Method, p.MissingHint); err != nil {
			return out, err
		}
	}
	if d.MultiLabel() && !p.MultiLabel {
		multi := 0
		for _, s := range d.Sets {
			if len(s) > 1 {
				multi++
			}
		}
		return out, sentinel{fmt.Sprintf("%s is multi-label data (%d rows in 2 or more classes)", d.Name, multi), ErrMultiLabel}
	}
	if err := d.checkOverflow(); err != nil {
		return out, err
	}
	sc, err := FitScaler(d.X, p.Scale)
	if err != nil {
		return out, err
	}
	sc.Impute = imp
	if d.X, err = sc.Transform(nil, d.X); err != nil {
		return out, err
	}
	out.Scaler = sc
	return out, nil
}

// CheckNew holds new points to steps 2 and 4 of Apply: missing values are
// refused unless AllowMissing or sc fills them (sc.Impute, whose values
// then replace d.Missing at Transform), and so is a value whose squares
// overflow. sc may be nil.
func (p Prep) CheckNew(d *Dataset, sc *Scaler) error {
	if sc != nil && sc.Impute != nil {
		d.Missing = nil
	}
	if !p.AllowMissing {
		if err := d.MissingError(p.Method, p.MissingHint); err != nil {
			return err
		}
	}
	return d.checkOverflow()
}

// checkOverflow is CheckMagnitude at MagnitudeLimit of d's size.
func (d *Dataset) checkOverflow() error {
	n, dim := d.X.Dims()
	if n == 0 || dim == 0 {
		return nil
	}
	return d.CheckMagnitude(MagnitudeLimit(dim, n))
}

// sentinel is an error that says msg and is err for errors.Is.
type sentinel struct {
	msg string
	err error
}

func (e sentinel) Error() string        { return e.msg }
func (e sentinel) Is(target error) bool { return target == e.err }

// ErrOneClass: every labelled row has the same class.
var ErrOneClass = errors.New("one class")

// CheckTwoClasses fails with ErrOneClass, naming the class, the file and
// the label column, when d's labelled rows hold a single class: no
// classifier can tell anything apart. No labelled rows at all is not this
// error.
func (d *Dataset) CheckTwoClasses() error {
	var seen []string
	for c, k := range d.ClassCounts() {
		if k > 0 {
			seen = append(seen, d.Classes[c])
		}
	}
	if len(seen) != 1 {
		return nil
	}
	col := ""
	if d.LabelName != "" {
		col = fmt.Sprintf(" (label column %q)", d.LabelName)
	}
	return sentinel{fmt.Sprintf("%s: every labelled row has class %q%s: a classifier needs at least two classes", d.Name, seen[0], col), ErrOneClass}
}
