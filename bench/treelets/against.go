package main

import (
	"bufio"
	"fmt"
	"log"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/metrics"
)

// skLabels are scikit-learn's labels: dataset → method → labels, and the
// methods in file order.
type skLabels struct {
	labels  map[string]map[string][]int
	methods []string
}

// readSKLabels reads the output of sklearn_labels.py (gzipped or not,
// dataset.Open): lines "dataset,method,l0 l1 ...".
func readSKLabels(path string) (*skLabels, error) {
	r, err := dataset.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	sk := &skLabels{labels: map[string]map[string][]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		parts := strings.SplitN(sc.Text(), ",", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: want dataset,method,labels", path, line)
		}
		fs := strings.Fields(parts[2])
		lab := make([]int, len(fs))
		for i, v := range fs {
			if lab[i], err = strconv.Atoi(v); err != nil || lab[i] < 0 {
				return nil, fmt.Errorf("%s:%d: label %d: %q is not a cluster number", path, line, i, v)
			}
		}
		if sk.labels[parts[0]] == nil {
			sk.labels[parts[0]] = map[string][]int{}
		}
		if _, seen := sk.labels[parts[0]][parts[1]]; !seen && len(sk.labels) == 1 {
			sk.methods = append(sk.methods, parts[1])
		}
		sk.labels[parts[0]][parts[1]] = lab
	}
	return sk, sc.Err()
}

// against prints, per toy set, the adjusted Rand index between each of
// Arbor's label vectors (rows) and each of scikit-learn's (columns).
func against(path string, methods []method, labels [][][]int, truth [][]int) {
	sk, err := readSKLabels(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("scikit-learn's methods against the true classes (ARI; from %s):\n\n| method |", path)
	for _, t := range toys {
		fmt.Printf(" %s |", t)
	}
	fmt.Println("\n|---|" + strings.Repeat("---|", len(toys)))
	for _, sm := range sk.methods {
		fmt.Printf("| scikit-learn %s |", sm)
		for ti, t := range toys {
			ari, err := metrics.ARI(truth[ti], sk.labels[t][sm])
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf(" %.3f |", ari)
		}
		fmt.Println()
	}
	fmt.Println()
	fmt.Printf("### ARI between Arbor's labels and scikit-learn's (%s; sklearn_labels.py: scikit-learn 1.2.1, peers.py's parameters)\n\n", path)
	for ti, t := range toys {
		fmt.Printf("%s:\n\n| Arbor \\ scikit-learn |", t)
		sep := "|---|"
		for _, m := range sk.methods {
			fmt.Printf(" %s |", m)
			sep += "---|"
		}
		fmt.Println("\n" + sep)
		for mi, m := range methods {
			fmt.Printf("| %s |", m.name)
			for _, sm := range sk.methods {
				l := sk.labels[t][sm]
				if len(l) != len(labels[ti][mi]) {
					log.Fatalf("%s: %s has %d labels, the set %d rows", path, sm, len(l), len(labels[ti][mi]))
				}
				ari, err := metrics.ARI(labels[ti][mi], l)
				if err != nil {
					log.Fatal(err)
				}
				fmt.Printf(" %.3f |", ari)
			}
			fmt.Println()
		}
		fmt.Println()
	}
}
