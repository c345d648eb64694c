package svm_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// Train a C-SVC on a precomputed RBF kernel of the even rows of iris and
// predict the odd rows from their kernel rows against the training set.
func ExampleClassifier_FitGram() {
	ctx := context.Background()
	d, err := dataset.Embedded("iris")
	if err != nil {
		panic(err)
	}
	var train, test []int
	for i := range d.Len() {
		if i%2 == 0 {
			train = append(train, i)
		} else {
			test = append(test, i)
		}
	}
	rows := func(idx []int) *mat.Dense {
		m := mat.NewDense(len(idx), d.Dim(), nil)
		for r, i := range idx {
			m.SetRow(r, d.X.RawRowView(i))
		}
		return m
	}
	Xtr, Xte := rows(train), rows(test)
	ytr := make([]int, len(train))
	for r, i := range train {
		ytr[r] = d.Y[i]
	}
	k := kernel.RBF{Gamma: 0.5}
	K, _ := kernel.Gram(ctx, nil, k, Xtr)
	Kt, _ := kernel.Cross(ctx, nil, k, Xte, Xtr) // test × train
	m, err := svm.Classifier{C: 1}.FitGram(ctx, K, ytr)
	if err != nil {
		panic(err)
	}
	pred, err := m.Predict(ctx, nil, Kt)
	if err != nil {
		panic(err)
	}
	correct := 0
	for r, i := range test {
		if pred[r] == d.Y[i] {
			correct++
		}
	}
	fmt.Printf("classes %v, %d machines, %d support vectors %v\n", m.Classes(), len(m.Machines), len(m.SV), m.NSV)
	fmt.Printf("test accuracy %d/%d\n", correct, len(test))
	// Output:
	// classes [0 1 2], 3 machines, 28 support vectors [5 11 12]
	// test accuracy 73/75
}

// The minimal enclosing sphere of paper 001 on two moons: with C = 0.05 at
// most 1/C = 20 points may be outliers (Proposition 2.1).
func ExampleSVDD() {
	d, err := dataset.Embedded("two_moons")
	if err != nil {
		panic(err)
	}
	m, err := svm.SVDD{C: 0.05, Kernel: kernel.RBF{Gamma: 2}}.Fit(context.Background(), d.X)
	if err != nil {
		panic(err)
	}
	fmt.Printf("n_sv %d, n_bsv %d, n_bsv < 1/C = 20 ≤ n_sv + n_bsv: %v\n",
		len(m.SV), len(m.BSV), len(m.BSV) < 20 && 20 <= len(m.SV)+len(m.BSV))
	outside := 0
	for i := range d.Len() {
		if !m.Inside(m.Dist2(d.X.RawRowView(i))) {
			outside++
		}
	}
	fmt.Printf("R² = %.4f, points outside the sphere: %d\n", m.R2, outside)
	// Output:
	// n_sv 16, n_bsv 14, n_bsv < 1/C = 20 ≤ n_sv + n_bsv: true
	// R² = 0.8360, points outside the sphere: 14
}
