package main

import (
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
)

// alignTestColumns puts the feature columns of a --test file in the data's
// order when the two headers name the same features in another order, as
// arbor predict matches them by name (a test file with its columns
// reordered stopped with "reorder the columns to match"). It says so on
// info. Files whose feature names differ are left to CheckColumns.
func alignTestColumns(info io.Writer, ds, test *dataset.Dataset) {
	if test.Dim() != ds.Dim() || len(test.Features) != len(ds.Features) {
		return
	}
	pos := make(map[string]int, len(test.Features))
	for j, f := range test.Features {
		pos[f] = j
	}
	perm := make([]int, len(ds.Features))
	moved := false
	for i, f := range ds.Features {
		j, ok := pos[f]
		if !ok {
			return
		}
		perm[i] = j
		moved = moved || i != j
	}
	if !moved {
		return
	}
	n := test.Len()
	X := mat.NewDense(n, len(perm), nil)
	for r := 0; r < n; r++ {
		src, dst := test.X.RawRowView(r), X.RawRowView(r)
		for i, j := range perm {
			dst[i] = src[j]
		}
	}
	for k := range test.Missing {
		for i, j := range perm {
			if test.Missing[k].Col == j {
				test.Missing[k].Col = i
				break
			}
		}
	}
	test.X = X
	test.Features = append([]string(nil), ds.Features...)
	fmt.Fprintf(info, "test: %s: feature columns matched to %s by name (they are in another order)\n", test.Name, ds.Name)
}
