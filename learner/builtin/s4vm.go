package builtin

import (
	"math"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/s4vm"
)

// s4vmFlags are the settings of S4VM, which HiBUST's node S4VMs share.
var s4vmFlags = []learner.Flag{
	{Name: "C1", Kind: learner.Float, Default: "100", Usage: "s4vm: SVM penalty of labelled rows"},
	{Name: "C2", Kind: learner.Float, Default: "0.1", Usage: "s4vm: SVM penalty of unlabelled rows"},
	{Name: "samples", Kind: learner.Int, Default: "100", Usage: "s4vm: candidate label assignments (sampleTime); grouped into samples/10"},
	{Name: "lambda", Kind: learner.Float, Default: "3", Usage: "s4vm: weight λ of a loss against the inductive SVM in the safe combination"},
}

// s4vm: the safe semi-supervised SVM (paper 003), one-vs-one beyond two
// classes.
func init() {
	learner.Register(learner.Entry{
		Name: "s4vm", Help: "s4vm", Rank: 50, Flags: s4vmFlags,
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			s, err := s4vmSettings(v)
			if err != nil {
				return nil, err
			}
			if s.Samples < 10 {
				return nil, learner.Settingsf("--samples must be ≥ 10 (the candidates are grouped into samples/10 ≥ 1; sampleTime < groups otherwise), got %d", s.Samples)
			}
			if err := s.Validate(); err != nil {
				return nil, learner.Settingsf("%v", err)
			}
			return []learner.Learner{learner.Adapt("s4vm", s)}, nil
		},
		Models: map[string]learner.ModelCodec{"s4vm": learner.Codec(s4vm.Load)},
	})
}

// s4vmSettings reads the S4VM settings of Flags (and the run's seed),
// checking that C1, C2 and lambda are positive.
func s4vmSettings(v learner.Values) (s4vm.S4VM, error) {
	s := s4vm.S4VM{C1: v.Float("C1"), C2: v.Float("C2"), Samples: v.Int("samples"), Lambda: v.Float("lambda"), Seed: v.Seed()}
	for _, f := range []struct {
		flag string
		v    float64
	}{{"--C1", s.C1}, {"--C2", s.C2}, {"--lambda", s.Lambda}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return s4vm.S4VM{}, learner.Settingsf("%s must be positive, got %v", f.flag, f.v)
		}
	}
	return s, nil
}
