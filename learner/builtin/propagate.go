package builtin

import (
	"strings"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
)

// lp and spreading: label propagation (paper 002 §3) and label spreading
// (Zhou et al. 2004) on their own affinity over the points, or with
// --affinity kernel on the kernel matrix. Transductive: new points are
// added to the data as unlabelled rows.
func init() {
	common := []learner.Flag{
		{Name: "affinity", Kind: learner.String, Default: "knn:10", Usage: "lp/spreading affinity: knn:K (directed K-nearest-neighbour graph, each row tied to its K nearest rows, itself included, as scikit-learn), rbf:GAMMA (dense; scikit-learn's default rbf:20 suits about two features), or kernel (the --kernel matrix); eval takes a comma-separated list (knn:5,knn:10,rbf:20) and runs each"},
		learner.TolFlag, learner.MaxIterFlag,
		{Name: "unreachable", Kind: learner.String, Default: propagate.UnreachableUnlabeled, Usage: "lp/spreading: points no label can reach are left unlabelled (unlabeled: written as ?, counted as errors by eval), given the first class as scikit-learn does (first), or an error (error); classify and eval warn and eval marks such results in its table"},
	}
	learner.Register(learner.Entry{
		Name: "lp", Aliases: []string{"propagation"}, Help: "lp (label propagation)", Rank: 30,
		Flags: append([]learner.Flag{{Name: "method", Kind: learner.String, Default: propagate.Iterative, Usage: "lp: closed (conjugate gradients on L_UU f_U = W_UL f_L) or iterative (scikit-learn's)"}}, common...),
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			affs, unreachable, err := affinitySettings(v)
			if err != nil {
				return nil, err
			}
			switch m := v.String("method"); m {
			case propagate.Closed, propagate.Iterative:
			default:
				return nil, learner.Settingsf("--method must be closed or iterative, got %q", m)
			}
			var out []learner.Learner
			for _, aff := range affs {
				s := propagate.Propagation{Affinity: aff, Method: v.String("method"), Tol: v.Float("tol"), MaxIter: v.Int("max-iter"), Unreachable: unreachable}
				if aff.Kind == propagate.Precomputed {
					out = append(out, learner.Adapt("lp_"+aff.String(), s))
				} else {
					out = append(out, learner.AdaptPoints("lp_"+aff.String(), s))
				}
			}
			return out, nil
		},
		Models: map[string]learner.ModelCodec{
			"propagate":    learner.Codec(propagate.Load),
			"anchor-graph": learner.Codec(propagate.LoadAnchor),
			"knn-graph":    learner.Codec(propagate.LoadKNN),
		},
	})
	learner.Register(learner.Entry{
		Name: "spreading", Help: "spreading", Rank: 40,
		Flags: append([]learner.Flag{{Name: "alpha", Kind: learner.Float, Default: "0.2", Usage: "spreading: clamping factor α"}}, common...),
		New: func(_ string, v learner.Values) ([]learner.Learner, error) {
			affs, unreachable, err := affinitySettings(v)
			if err != nil {
				return nil, err
			}
			if a := v.Float("alpha"); !(a > 0 && a < 1) {
				return nil, learner.Settingsf("--alpha must lie in (0, 1), got %v", a)
			}
			var out []learner.Learner
			for _, aff := range affs {
				s := propagate.Spreading{Affinity: aff, Alpha: v.Float("alpha"), Tol: v.Float("tol"), MaxIter: v.Int("max-iter"), Unreachable: unreachable}
				if aff.Kind == propagate.Precomputed {
					out = append(out, learner.Adapt("spreading_"+aff.String(), s))
				} else {
					out = append(out, learner.AdaptPoints("spreading_"+aff.String(), s))
				}
			}
			return out, nil
		},
	})
}

// affinitySettings reads --affinity, one affinity or a comma-separated
// list of them (kernel: the kernel matrix, propagate.Precomputed; one
// learner each, as knn's list of k), and --unreachable.
func affinitySettings(v learner.Values) ([]propagate.Affinity, string, error) {
	u := v.String("unreachable")
	switch u {
	case propagate.UnreachableFirst, propagate.UnreachableError, propagate.UnreachableUnlabeled:
	default:
		return nil, "", learner.Settingsf("--unreachable must be error, unlabeled or first, got %q", u)
	}
	var out []propagate.Affinity
	seen := map[string]bool{}
	for _, text := range strings.Split(v.String("affinity"), ",") {
		text = strings.TrimSpace(text)
		a := propagate.Affinity{Kind: propagate.Precomputed}
		if text != "kernel" {
			var err error
			if a, err = propagate.ParseAffinity(text); err != nil {
				return nil, "", learner.Settingsf("--affinity: %v", err)
			}
		}
		if seen[a.String()] {
			return nil, "", learner.Settingsf("--affinity: %s listed twice", a)
		}
		seen[a.String()] = true
		out = append(out, a)
	}
	return out, u, nil
}
