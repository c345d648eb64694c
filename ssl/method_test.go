package ssl

import (
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestMethod: the method names of peers.py ssl (its svm_*, knnK_* and
// lp_* keys) for the kernels it builds.
func TestMethod(t *testing.T) {
	for _, c := range []struct{ learner, spec, want string }{
		{"svm", "linear", "svm_linear"},
		{"svm", "rbf:scale", "svm_rbf"},
		{"svm", "rbf:0.5", "svm_rbf_0.5"},
		{"svm", "hck:average", "svm_hck_average"},
		{"svm", "hckg:average:knn:7", "svm_hckg_average"},
		{"svm", "hckg:average:knn:5", "svm_hckg_average_knn_5"},
		{"svm", "isomap", "svm_isomap"},
		{"svm", "isomap:eps:0.5", "svm_isomap_eps_0.5"},
		{"knn3", "hck:single", "knn3_hck_single"},
		{"lp_rbf:20", "-", "lp_rbf"},
		{"lp_knn:7", "-", "lp_knn"},
		{"s4vm:rbf", "-", "s4vm_rbf"},
		{"svm", "not a spec", "svm_not a spec"},
	} {
		if got := PeerMethod(c.learner, c.spec); got != c.want {
			t.Errorf("PeerMethod(%q, %q) = %q, want %q", c.learner, c.spec, got, c.want)
		}
	}
	if got := PeerKernel(kernel.Spec{Kind: kernel.KindConnectivity}); got != "connectivity" {
		t.Errorf("PeerKernel(connectivity) = %q", got)
	}
}

// TestResultMethod: a result's Method is PeerMethod of its learner and kernel.
func TestResultMethod(t *testing.T) {
	if got := (Result{Learner: "knn3", Kernel: "hckg:average:knn:7"}).Method(); got != "knn3_hckg_average" {
		t.Errorf("Method() = %q", got)
	}
}
