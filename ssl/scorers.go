package ssl

import (
	"strings"

	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
)

// SetScorers builds the multi-label scorers of the learners names lists
// (comma-separated) from their settings v, as arbor eval --metric bep:
// soft kNN for each k of the "k" setting, and label propagation on the
// kernel matrix (affinity "kernel": W = K; rbf:G or knn:K: on its
// kernel-induced distances; a comma-separated list of affinities gives one
// scorer each) with its class scores z-scored over the hidden rows. Errors wrap learner.ErrSettings for a learner without class
// scores or a bad affinity, and are knn.ParseKs's for a bad k.
func SetScorers(names string, v learner.Values) ([]SetScorer, error) {
	var out []SetScorer
	for _, name := range strings.Split(names, ",") {
		switch name = strings.TrimSpace(strings.ToLower(name)); name {
		case "knn":
			ks, err := knn.ParseKs(v.String("k"))
			if err != nil {
				return nil, err
			}
			for _, k := range ks {
				out = append(out, SoftKNN{Settings: knn.Classifier{K: k, Weights: v.String("weights")}})
			}
		case "lp", "propagation":
			for _, text := range strings.Split(v.String("affinity"), ",") {
				aff := propagate.Affinity{Kind: propagate.Precomputed}
				if text = strings.TrimSpace(text); text != "kernel" {
					var err error
					if aff, err = propagate.ParseAffinity(text); err != nil {
						return nil, learner.Settingsf("--affinity: %v", err)
					}
				}
				out = append(out, SetPropagation{Standardize: true, Settings: propagate.Propagation{
					Affinity: aff, Method: v.String("method"), Tol: v.Float("tol"), MaxIter: v.Int("max-iter"), Unreachable: propagate.UnreachableUnlabeled}})
			}
		case "":
		default:
			return nil, learner.Settingsf("--metric bep: learner %q has no class scores (knn, lp)", name)
		}
	}
	if len(out) == 0 {
		return nil, learner.Settingsf("--learner is empty")
	}
	return out, nil
}
