package ssl

import (
	"strings"

	"github.com/arbor-ml/arbor/kernel"
)

// PeerKernel names sp as the reference pipeline (bench/peers/peers.py)
// does: rbf for rbf:scale (scikit-learn's gamma="scale"), hckg:METHOD for
// the 7-NN graph, isomap for isomap:knn:7, and the spec text otherwise.
func PeerKernel(sp kernel.Spec) string {
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

// PeerMethod names a (learner, kernel) pair as the reference pipeline's
// `peers.py ssl` does, so that evaluation records join with its output
// (bench/compare_ssl.py): svm_linear, svm_rbf, svm_hck_average,
// svm_hckg_average (7-NN graph), svm_isomap, knn3_hck_average, lp_rbf,
// lp_knn. The kernel's part is PeerKernel of the parsed spec (the text
// itself when it does not parse; spec "-" for a learner without a kernel);
// ':', ',', '=' and '/' become '_'.
func PeerMethod(learner, spec string) string {
	switch learner {
	case "lp_rbf:20":
		return "lp_rbf"
	case "lp_knn:7":
		return "lp_knn"
	}
	if spec == "-" {
		return safeName(learner)
	}
	k := spec
	if sp, err := kernel.ParseSpec(spec); err == nil {
		k = PeerKernel(sp)
	}
	return learner + "_" + safeName(k)
}

// Method is PeerMethod of the result's learner and kernel.
func (r Result) Method() string { return PeerMethod(r.Learner, r.Kernel) }

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ':', ',', '=', '/':
			return '_'
		}
		return r
	}, s)
}
