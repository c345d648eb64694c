package eigen_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/eigen"
)

func ExampleSym() {
	// The path graph Laplacian on 4 vertices: eigenvalues 2 − 2cos(kπ/4).
	a := mat.NewSymDense(4, []float64{
		1, -1, 0, 0,
		-1, 2, -1, 0,
		0, -1, 2, -1,
		0, 0, -1, 1,
	})
	vals, V, err := eigen.Sym(context.Background(), a, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("λ_0 ≈ 0: %v, others %.6f\n", math.Abs(vals[0]) < 1e-14, vals[1:])
	// The eigenvector of λ = 0 is constant (sign is arbitrary).
	fmt.Printf("%.4f\n", mat.Col(nil, 0, V)[0]*mat.Col(nil, 0, V)[3])
	// Output:
	// λ_0 ≈ 0: true, others [0.585786 2.000000 3.414214]
	// 0.2500
}

func ExampleSymFunc() {
	// Project an indefinite matrix onto the PSD cone: eigenvalues 3 and −1
	// become 3 and 0.
	a := mat.NewSymDense(2, []float64{1, 2, 2, 1})
	p, err := eigen.SymFunc(context.Background(), nil, a, func(l float64) float64 { return max(l, 0) })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f %.4f\n%.4f %.4f\n", p.At(0, 0), p.At(0, 1), p.At(1, 0), p.At(1, 1))
	// Output:
	// 1.5000 1.5000
	// 1.5000 1.5000
}

func ExampleSymSelect() {
	a := mat.NewSymDense(3, []float64{
		2, 0, 0,
		0, 5, 0,
		0, 0, -1,
	})
	// The largest eigenpair only.
	vals, V, err := eigen.SymSelect(context.Background(), a, func(i int, _ float64) bool { return i == 2 })
	if err != nil {
		fmt.Println(err)
		return
	}
	r, c := V.Dims()
	fmt.Println(vals, r, c, V.At(1, 0)*V.At(1, 0))
	// Output:
	// [5] 3 1 1
}
