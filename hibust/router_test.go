package hibust_test

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
)

// TestRoutersReproduceTransduction: the inductive rule (routers with the
// default RouterC = C1) given the training rows' own kernel rows gives back
// the transductive labels on iris and wine (10 labelled per class, min–max
// scaled, linear kernel, seed 0). With RouterC = 1 it disagreed on 17 of
// 150 iris rows.
func TestRoutersReproduceTransduction(t *testing.T) {
	for _, name := range []string{"iris", "wine"} {
		ds, _ := dataset.Embedded(name)
		X := dataset.MinMax(ds.X)
		y := make([]int, ds.Len())
		for i := range y {
			y[i] = hibust.Unlabeled
		}
		l, _ := ssl.PerClass(ds.Y, 10, 0)
		for _, i := range l {
			y[i] = ds.Y[i]
		}
		m, err := hibust.Classifier{Seed: 0}.Fit(context.Background(), X, y)
		if err != nil {
			t.Fatal(err)
		}
		var K mat.Dense
		K.Mul(X, X.T())
		p, err := m.Predict(context.Background(), nil, &K)
		if err != nil {
			t.Fatal(err)
		}
		tr := m.Transduction()
		for i := range p {
			if p[i] != tr[i] {
				t.Errorf("%s row %d: routed to %d, transduction %d", name, i, p[i], tr[i])
			}
		}
	}
}
