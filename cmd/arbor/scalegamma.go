package main

import (
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
)

// svmScaleGamma is rbf:scale for the SVM: 1/(d·Var X) over the labelled
// rows, the rows scikit-learn's SVC(gamma="scale").fit(X_l, y_l) sees and
// the value arbor eval uses (ssl.SVM resolves it on the labelled rows too),
// so classify, eval and scikit-learn train the same SVM.
func svmScaleGamma(ds *dataset.Dataset) float64 {
	lab := ds.Labeled()
	if len(lab) == ds.Len() {
		return kernel.GammaScale(ds.X)
	}
	Xl := mat.NewDense(len(lab), ds.Dim(), nil)
	for i, r := range lab {
		Xl.SetRow(i, ds.X.RawRowView(r))
	}
	return kernel.GammaScale(Xl)
}
