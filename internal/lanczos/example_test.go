package lanczos_test

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/lanczos"
	"gonum.org/v1/gonum/mat"
)

// The three largest eigenvalues of the cycle graph C_12, 2·cos(2πj/12):
// 2, then √3 twice.
func ExampleSolver_Top() {
	const n = 12
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, (i+1)%n, 1)
	}
	res, err := lanczos.Solver{K: 3, Seed: 1}.Top(context.Background(), lanczos.NewSym(a))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range res.Values {
		fmt.Printf("%.12f\n", v)
	}
	fmt.Printf("√3 = %.12f, converged: %v\n", math.Sqrt(3), res.Converged)
	// Output:
	// 2.000000000000
	// 1.732050807569
	// 1.732050807569
	// √3 = 1.732050807569, converged: true
}

// All eigenpairs of diag(1..10) at or above 7.5.
func ExampleSolver_Above() {
	a := mat.NewSymDense(10, nil)
	for i := 0; i < 10; i++ {
		a.SetSym(i, i, float64(i+1))
	}
	res, err := lanczos.Solver{K: 2}.Above(context.Background(), lanczos.NewSym(a), 7.5)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range res.Values {
		fmt.Printf("%.10f\n", v)
	}
	// Output:
	// 10.0000000000
	// 9.0000000000
	// 8.0000000000
}
