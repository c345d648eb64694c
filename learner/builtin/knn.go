package builtin

import (
	"fmt"

	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
)

// knn: k-nearest neighbours by the kernel-induced distance
// d² = K_ii + K_jj − 2K_ij against the labelled rows; one learner per k
// of the list.
func init() {
	learner.Register(learner.Entry{
		Name: "knn", Help: "knn", Rank: 20,
		Flags: []learner.Flag{
			{Name: "k", Kind: learner.String, Default: "1", Usage: "knn: neighbours; a list such as 1,2,3,4,5 or a range 1-5 runs each"},
			{Name: "weights", Kind: learner.String, Default: knn.Uniform, Usage: "knn: neighbour weights uniform, similarity (kernel value) or distance"},
			{Name: "ties", Kind: learner.String, Default: knn.TiesNearest, Usage: "knn: a tied vote goes to the class of the nearest tied neighbour (nearest, the reference pipeline's rule) or to the lowest class label (lowest, scikit-learn's KNeighborsClassifier)"},
			{Name: "soft", Kind: learner.Bool, Default: "false", Usage: "knn: soft kNN (weighted average of label vectors, paper 002 §2.1)"},
		},
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			ks, err := knn.ParseKs(v.String("k"))
			if err != nil {
				return nil, err
			}
			ties := v.String("ties")
			if ties != knn.TiesNearest && ties != knn.TiesLowest {
				return nil, learner.Settingsf("--ties must be nearest or lowest, got %q", ties)
			}
			var out []learner.Learner
			for _, k := range ks {
				c := knn.Classifier{K: k, Weights: v.String("weights"), Ties: ties, Soft: v.Bool("soft")}
				out = append(out, learner.Adapt(fmt.Sprintf("knn%d", k), c))
			}
			return out, nil
		},
		Models: map[string]learner.ModelCodec{"knn": learner.Codec(knn.Load)},
	})
}
