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
	if g, ok := labelledScaleGamma(ds.X, ds.Y); ok {
		return g
	}
	return kernel.GammaScale(ds.X)
}

// labelledScaleGamma is rbf:scale over the labelled rows of X (y[i] ≥ 0),
// as svmScaleGamma; ok is false when no row is labelled.
func labelledScaleGamma(X *mat.Dense, y []int) (gamma float64, ok bool) {
	var lab []int
	for i, c := range y {
		if c != dataset.Unlabeled {
			lab = append(lab, i)
		}
	}
	if len(lab) == 0 {
		return 0, false
	}
	_, d := X.Dims()
	Xl := mat.NewDense(len(lab), d, nil)
	for a, r := range lab {
		Xl.SetRow(a, X.RawRowView(r))
	}
	return kernel.GammaScale(Xl), true
}
