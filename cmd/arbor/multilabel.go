package main

import (
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
)

// checkMultiLabel refuses multi-label data in a command that takes one
// class per row.
func checkMultiLabel(ds *dataset.Dataset, ok bool) error {
	if !ds.MultiLabel() || ok {
		return nil
	}
	multi := 0
	for _, s := range ds.Sets {
		if len(s) > 1 {
			multi++
		}
	}
	return fmt.Errorf("%s is multi-label data (%d rows in 2 or more classes): `arbor eval --metric bep` evaluates it (knn and lp learners); this command needs one class per row", ds.Name, multi)
}
