// Command floor is the size floor for bench/knnsize: a program that links
// what any program using package knn links anyway (gonum/mat and fmt) and
// nothing of Arbor. knn's TestLightImports compares knnsize against it, so
// the check does not depend on how large a Go release makes every binary.
package main

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

func main() {
	K := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	fmt.Println(mat.Trace(K)) // 2
}
