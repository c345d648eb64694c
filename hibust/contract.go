package hibust

import "github.com/arbor-ml/arbor/learner"

// WithRun takes the data's classes and the progress display.
func (c Classifier) WithRun(r learner.Run) Classifier {
	if r.Classes != nil {
		c.Classes = r.Classes
	}
	if r.Progress != nil {
		c.Progress = r.Progress
	}
	return c
}

// FitWarnings returns the fit's warnings (learner.Warner).
func (m *Model) FitWarnings() []error { return m.Warnings }

// The learner contract (package learner).
var (
	_ learner.Model              = (*Model)(nil)
	_ learner.GramFitter[*Model] = Classifier{}
)
