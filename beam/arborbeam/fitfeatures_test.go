package arborbeam_test

import (
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

// TestFitFeaturesSettings: the SVMs on landmark features take point
// kernels only (the other kernels' landmark maps need every row in one
// process), and the anchor-graph learners no kernel.
func TestFitFeaturesSettings(t *testing.T) {
	for _, c := range []struct {
		set  arborbeam.FitSettings
		want string
	}{
		{arborbeam.FitSettings{Learner: "linsvm", Kernel: "hck:average", Landmarks: 10}, "point kernels"},
		{arborbeam.FitSettings{Learner: "svm", Kernel: "isomap", Landmarks: 10}, "point kernels"},
		{arborbeam.FitSettings{Learner: "lp", Kernel: "rbf:1", Landmarks: 10}, "take no kernel"},
		{arborbeam.FitSettings{Learner: "knn", Landmarks: 10}, "--learner knn"},
		{arborbeam.FitSettings{Learner: "linsvm", Kernel: "rbf:1"}, "--landmarks M is required"},
	} {
		if _, err := c.set.Describe(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.set, err, c.want)
		}
	}
	d, err := arborbeam.FitSettings{Learner: "linsvm", Kernel: "rbf:scale", Landmarks: 10}.Describe()
	if err != nil || !strings.Contains(d, "linsvm") {
		t.Errorf("linsvm on rbf:scale: %q, %v", d, err)
	}
}
