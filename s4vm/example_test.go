package s4vm_test

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/s4vm"
)

// S4VM on the two moons with 5 labelled points per class, linear kernel
// on min–max scaled features (the S4VM paper's protocol).
func Example() {
	d, _ := dataset.Embedded("two_moons")
	X := dataset.MinMax(d.X)
	y := make([]int, d.Len())
	seen := map[int]int{}
	for i := range y {
		y[i] = learner.Unlabeled
		if seen[d.Y[i]] < 5 {
			seen[d.Y[i]]++
			y[i] = d.Y[i]
		}
	}
	K, _ := kernel.Gram(context.Background(), nil, kernel.Linear{}, X)
	m, err := s4vm.S4VM{Samples: 20, Seed: 1}.FitGram(context.Background(), K, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	right, total := 0, 0
	for i, c := range m.Transduction() {
		if y[i] == learner.Unlabeled {
			total++
			if c == d.Y[i] {
				right++
			}
		}
	}
	p := m.Pairs[0]
	fmt.Printf("classes %v, %d candidates in %d groups, fallback %v\n", m.Classes(), p.Candidates, p.Groups, p.Fallback)
	fmt.Printf("accuracy on the %d unlabelled points: %.3f\n", total, float64(right)/float64(total))
	// Output:
	// classes [0 1], 21 candidates in 1 groups, fallback false
	// accuracy on the 390 unlabelled points: 0.877
}
