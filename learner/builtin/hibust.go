package builtin

import (
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/learner"
)

// hibust: HiBUST (paper 003), MCCK clusters with S4VMs in the nodes; the
// node S4VMs take s4vm's settings and the run's seed.
func init() {
	learner.Register(learner.Entry{
		Name: "hibust", Help: "hibust", Rank: 60,
		Flags: append(append([]learner.Flag(nil), s4vmFlags...),
			learner.Flag{Name: "restarts", Kind: learner.Int, Default: "10", Usage: "hibust: MCCK runs; the partition with the best simplified silhouette is kept"},
			learner.Flag{Name: "theta", Kind: learner.Float, Default: "0", Usage: "hibust: confidence labelling threshold θ in (0, 1] (paper 003 §3.2); 0 = off"},
		),
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			s, err := s4vmSettings(v)
			if err != nil {
				return nil, err
			}
			if s.Samples < 10 {
				return nil, learner.Settingsf("--samples must be ≥ 10 (the candidates are grouped into samples/10 ≥ 1), got %d", s.Samples)
			}
			restarts, theta := v.Int("restarts"), v.Float("theta")
			if restarts < 1 {
				return nil, learner.Settingsf("--restarts must be ≥ 1, got %d", restarts)
			}
			if theta != 0 && !(theta > 0 && theta <= 1) {
				return nil, learner.Settingsf("--theta must lie in (0, 1] (0 = no confidence labelling), got %v", theta)
			}
			c := hibust.Classifier{Restarts: restarts, Theta: theta, Seed: v.Seed(), S4VM: s}
			if err := c.Validate(); err != nil {
				return nil, learner.Settingsf("%v", err)
			}
			return []learner.Learner{learner.Adapt("hibust", c)}, nil
		},
		Models: map[string]learner.ModelCodec{"hibust": learner.Codec(hibust.Load)},
	})
}
