// Package peers names Arbor's kernels and methods as the reference
// pipeline (peers.py in this directory) names them, so that the records of
// `arbor eval --json` join with its output (bench/compare_ssl.py).
package peers

import (
	"strings"

	"github.com/arbor-ml/arbor/kernel"
)

// Kernel names sp as peers.py does: rbf for rbf:scale (scikit-learn's
// gamma="scale"), hckg:METHOD for the 7-NN graph, isomap for isomap:knn:7,
// and the spec text otherwise.
func Kernel(sp kernel.Spec) string {
	s := sp.String()
	switch {
	case sp.Kind == kernel.KindPoint && sp.Scale:
		return "rbf"
	case sp.Kind == kernel.KindHCK && sp.Graph != nil && strings.HasSuffix(s, ":knn:7"):
		return strings.TrimSuffix(s, ":knn:7")
	case sp.Kind == kernel.KindISOMAP && s == "isomap:knn:7":
		return "isomap"
	}
	return s
}

// Method names a (learner, kernel) pair as peers.py ssl does: svm_linear,
// svm_rbf, svm_hck_average, svm_hckg_average (7-NN graph), svm_isomap,
// knn3_hck_average, lp_rbf, lp_knn. The kernel's part is Kernel of the
// parsed spec (the text itself when it does not parse; spec "-" for a
// learner without a kernel); ':', ',', '=' and '/' become '_'.
func Method(learner, spec string) string {
	switch learner {
	case "lp_rbf:20":
		return "lp_rbf"
	case "lp_knn:7":
		return "lp_knn"
	}
	if spec == "-" {
		return safe(learner)
	}
	k := spec
	if sp, err := kernel.ParseSpec(spec); err == nil {
		k = Kernel(sp)
	}
	return learner + "_" + safe(k)
}

func safe(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ':', ',', '=', '/':
			return '_'
		}
		return r
	}, s)
}
