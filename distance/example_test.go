package distance_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

func ExampleEuclidean() {
	X := mat.NewDense(3, 2, []float64{0, 0, 3, 4, 6, 8})
	d, err := distance.Euclidean(context.Background(), X)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Data) // pdist order: (0,1) (0,2) (1,2)
	fmt.Println(d.At(2, 1))
	// Output:
	// [5 10 5]
	// 5
}

func ExampleCross() {
	A := mat.NewDense(2, 2, []float64{0, 0, 1, 1})
	B := mat.NewDense(1, 2, []float64{3, 4})
	fmt.Printf("%.4f\n", mat.Formatted(distance.Cross(nil, A, B)))
	// Output:
	// ⎡5.0000⎤
	// ⎣3.6056⎦
}
