package modelselect

import (
	"fmt"
	"runtime"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
)

// Bytes predicts the peak memory of Run on ds before anything is
// allocated, and says what it is: the largest kernel build
// (kernel.Bytes: one kernel matrix is held at a time) plus, for the
// GOMAXPROCS fits that run at once, each the largest fit's own memory —
// label propagation or spreading on a dense affinity (rbf or the kernel)
// 2·8N², on a kNN graph 24·N·K, the other learners 8·L² for the labelled
// rows' kernel block (L labelled rows). Errors: those of Expand.
func (s Search) Bytes(ds *dataset.Dataset) (float64, string, error) {
	scoring := s.Scoring
	if scoring == "" {
		scoring = Accuracy
	}
	cands, err := expand(s.Grids, s.Seed, scoring)
	if err != nil {
		return 0, "", err
	}
	n, l := float64(ds.Len()), float64(len(ds.Labeled()))
	kern, fit := 0.0, 0.0
	seen := map[string]bool{}
	for _, c := range cands {
		if c.Kernel != "" && !seen[c.Kernel] {
			seen[c.Kernel] = true
			sp, err := kernel.ParseSpec(c.Kernel)
			if err != nil {
				return 0, "", err
			}
			kern = max(kern, kernel.Bytes(sp, ds.Len()))
		}
		ln, err := c.build(s.Seed)
		if err != nil {
			return 0, "", err
		}
		fit = max(fit, fitBytes(ln, n, l))
	}
	workers := min(runtime.GOMAXPROCS(0), len(cands)*max(len(s.Folds), 1))
	settings := "settings"
	if len(cands) == 1 {
		settings = "setting"
	}
	return kern + float64(workers)*fit,
		fmt.Sprintf("a grid search of %d %s × %d folds on %d rows (one kernel matrix at a time, %d fits at once)", len(cands), settings, len(s.Folds), ds.Len(), workers), nil
}

// fitBytes is one fit's own memory beyond the kernel matrix.
func fitBytes(ln learner.Learner, n, l float64) float64 {
	var a propagate.Affinity
	if p, ok := learner.As[propagate.Propagation](ln); ok {
		a = p.Affinity
	} else if sp, ok := learner.As[propagate.Spreading](ln); ok {
		a = sp.Affinity
	} else {
		return 8 * l * l
	}
	if a.Kind == propagate.KNN {
		k := float64(a.K)
		if k == 0 {
			k = 7
		}
		return 24 * n * k
	}
	return 2 * 8 * n * n
}
