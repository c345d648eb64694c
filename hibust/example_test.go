package hibust_test

import (
	"context"
	"fmt"
	"os"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/ssl"
)

// HiBUST on iris with 10 labelled flowers per class: MCCK clusters, the
// tree over them with an S4VM at each internal node, the transductive
// labels, and the tree printed with each node's binary sub-problem.
func Example() {
	ds, _ := dataset.Embedded("iris")
	X := dataset.MinMax(ds.X) // the S4VM paper's scaling
	labelled, _ := ssl.PerClass(ds.Y, 10, 0)
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = hibust.Unlabeled
	}
	for _, i := range labelled {
		y[i] = ds.Y[i]
	}
	m, err := hibust.Classifier{Seed: 0}.Fit(context.Background(), X, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	correct, total := 0, 0
	for i, c := range m.Transduction() {
		if y[i] == hibust.Unlabeled {
			total++
			if c == ds.Y[i] {
				correct++
			}
		}
	}
	fmt.Printf("%d clusters, accuracy %.3f on %d unlabelled flowers\n", m.Clusters, float64(correct)/float64(total), total)
	m.WriteTree(os.Stdout, []string{"setosa", "versicolor", "virginica"})
	// Output:
	// 12 clusters, accuracy 0.925 on 120 unlabelled flowers
	// node 0: setosa (1 leaf, 10 labelled) vs versicolor+virginica (8 leaves, 20 labelled)  height 0.9716, 120 unlabelled → 40 left, 80 right
	// ├─ leaf 1: class setosa  clusters 0, 10 labelled, 40 unlabelled reached
	// └─ node 2: versicolor+virginica (7 leaves, 13 labelled) vs virginica (1 leaf, 7 labelled)  height 0.4862, 80 unlabelled → 55 left, 25 right
	//    ├─ node 3: versicolor (1 leaf, 1 labelled) vs versicolor+virginica (6 leaves, 12 labelled)  height 0.3254, 55 unlabelled → 7 left, 48 right
	//    │  ├─ leaf 4: class versicolor  clusters 4, 1 labelled, 7 unlabelled reached
	//    │  └─ node 5: versicolor (1 leaf, 2 labelled) vs versicolor+virginica (5 leaves, 10 labelled)  height 0.265, 48 unlabelled → 11 left, 37 right
	//    │     ├─ leaf 6: class versicolor  clusters 1, 2 labelled, 11 unlabelled reached
	//    │     └─ node 7: versicolor+virginica (2 leaves, 2 labelled) vs versicolor+virginica (3 leaves, 8 labelled)  height 0.2733, 37 unlabelled → 6 left, 31 right
	//    │        ├─ node 8: versicolor (1 leaf, 1 labelled) vs virginica (1 leaf, 1 labelled)  height 0.1611, 6 unlabelled → 3 left, 3 right
	//    │        │  ├─ leaf 9: class versicolor  clusters 6, 1 labelled, 3 unlabelled reached
	//    │        │  └─ leaf 10: class virginica  clusters 8, 1 labelled, 3 unlabelled reached
	//    │        └─ node 11: versicolor (1 leaf, 5 labelled) vs versicolor+virginica (2 leaves, 3 labelled)  height 0.183, 31 unlabelled → 18 left, 13 right
	//    │           ├─ leaf 12: class versicolor  clusters 9, 5 labelled, 18 unlabelled reached
	//    │           └─ node 13: versicolor (1 leaf, 1 labelled) vs virginica (1 leaf, 2 labelled)  height 0.132, 13 unlabelled → 4 left, 9 right
	//    │              ├─ leaf 14: class versicolor  clusters 10, 1 labelled, 4 unlabelled reached
	//    │              └─ leaf 15: class virginica  clusters 3,11, 2 labelled, 9 unlabelled reached
	//    └─ leaf 16: class virginica  clusters 2,5, 7 labelled, 25 unlabelled reached
}
