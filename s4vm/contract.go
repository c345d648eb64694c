package s4vm

import "github.com/arbor-ml/arbor/learner"

// WithRun takes the data's classes and the progress display.
func (s S4VM) WithRun(r learner.Run) S4VM {
	if r.Classes != nil {
		s.Classes = r.Classes
	}
	if r.Progress != nil {
		s.Progress = r.Progress
	}
	return s
}

// FitWarnings returns the fit's warnings (learner.Warner).
func (m *Model) FitWarnings() []error { return m.Warnings }

var (
	_ learner.Model              = (*Model)(nil)
	_ learner.GramFitter[*Model] = S4VM{}
)
