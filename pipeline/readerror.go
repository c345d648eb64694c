package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	arborquote "github.com/arbor-ml/arbor/internal/quote"
)

// ExplainReadError explains an error reading new points for p with opt,
// the options they were read with: a text column that is not a model
// feature (a file read with Features or without a header) wants a role,
// and when it is the column p was fitted with as the ID or the label the
// error names that role (the model was fitted with --id uid: give the
// same here); any other error is explained as opt.Explain does. A bad
// cell of a model feature wants no role and is returned as it is.
func (p *Pipeline) ExplainReadError(err error, opt dataset.Options) error {
	var pe *dataset.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, dataset.ErrNotNumber) || slices.Contains(p.Features, pe.Column) {
		return err
	}
	var roles []string
	if p.IDName != "" && opt.ID == "" {
		roles = append(roles, "--id "+arborquote.Shell(p.IDName))
	}
	if p.LabelName != "" && opt.Label == "" && !dataset.IsAutoLabel(p.LabelName) {
		roles = append(roles, "--label "+arborquote.Shell(p.LabelName))
	}
	if len(roles) > 0 && (pe.Column == p.IDName || pe.Column == p.LabelName || slices.Contains(pe.TextColumns, p.IDName) || slices.Contains(pe.TextColumns, p.LabelName)) {
		return fmt.Errorf("%w (the model was fitted with %s: give the same here)", err, strings.Join(roles, " "))
	}
	return opt.Explain(err)
}
