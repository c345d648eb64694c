// Command knnsize is the smallest program that uses package knn: it labels
// the unlabelled rows of a tiny precomputed kernel. knn's tests build it and
// check the binary stays within 1 MB of bench/knnsize/floor (a learner package must not
// link the embedded data sets or the kernel builders' eigensolvers).
//
//	go build -o /tmp/knnsize ./bench/knnsize && ls -l /tmp/knnsize && /tmp/knnsize
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/arbor-ml/arbor/knn"
	"gonum.org/v1/gonum/mat"
)

func main() {
	// Four points on a line at 0, 1, 5, 6 with the linear kernel; rows 1
	// and 2 are unlabelled.
	x := []float64{0, 1, 5, 6}
	K := mat.NewSymDense(len(x), nil)
	for i := range x {
		for j := i; j < len(x); j++ {
			K.SetSym(i, j, x[i]*x[j])
		}
	}
	m, err := knn.Classifier{K: 1}.FitGram(context.Background(), K, []int{0, -1, -1, 1})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(m.Transduction()) // [0 0 1 1]
}
