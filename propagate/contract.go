package propagate

import "github.com/arbor-ml/arbor/learner"

// The learner contract (package learner).
var (
	_ learner.Model                 = (*Model)(nil)
	_ learner.Warner                = (*Model)(nil)
	_ learner.PointSettings[*Model] = Propagation{}
	_ learner.PointSettings[*Model] = Spreading{}
	_ learner.Transductive          = Propagation{}
	_ learner.Transductive          = Spreading{}
)

// LabelsTrainingRowsOnly marks label propagation as transductive
// (learner.Transductive).
func (Propagation) LabelsTrainingRowsOnly() {}

// LabelsTrainingRowsOnly marks label spreading as transductive.
func (Spreading) LabelsTrainingRowsOnly() {}

// FitWarnings returns the fit's warnings (learner.Warner).
func (m *Model) FitWarnings() []error { return m.Warnings }

// FitWarnings returns the fit's warnings (learner.Warner).
func (m *AnchorModel) FitWarnings() []error { return m.Warnings }
