// Command knngraph times graph.KNN (internal/neighbors' k-d tree) on N
// synthetic points: a mixture of 10 Gaussian clusters in d dimensions,
// seeded. The target: N = 10⁶, d = 10, k = 10 in ≤ 60 s.
//
//	go run ./bench/knngraph -n 1000000 -d 10 -k 10
//	go run ./bench/knngraph -n 1000000 -d 10 -k 10 -intrinsic 4
//
// The k-d tree's work grows with the intrinsic dimension of the data, not
// with d: Gaussian clusters of full dimension 10 are its hard case.
//
// With -sklearn the same points are written to a file and
// bench/knngraph/sklearn_knn.py times scikit-learn's kd_tree kneighbors
// on them (fit + query, every point against all, itself excluded) right
// after Arbor's internal/neighbors does the same search in this process;
// both are reported with wall and CPU seconds, the ratio, and whether the
// neighbour lists are identical:
//
//	go run ./bench/knngraph -n 200000 -d 10 -k 10 -sklearn
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"time"

	"github.com/arbor-ml/arbor/graph"
	"gonum.org/v1/gonum/mat"
)

func main() {
	n := flag.Int("n", 1000000, "points")
	d := flag.Int("d", 10, "dimension")
	k := flag.Int("k", 10, "neighbours")
	m := flag.Int("intrinsic", 0, "intrinsic dimension m < d: clusters in R^m mapped linearly into R^d (0: m = d)")
	seed := flag.Uint64("seed", 1, "seed")
	sk := flag.Bool("sklearn", false, "also time scikit-learn's kd_tree on the same points (bench/knngraph/sklearn_knn.py) and compare the lists")
	flag.Parse()
	if *m <= 0 || *m > *d {
		*m = *d
	}
	rng := rand.New(rand.NewPCG(*seed, 0))
	centres := make([]float64, 10**m)
	for i := range centres {
		centres[i] = rng.NormFloat64() * 4
	}
	R := make([]float64, *d**m) // R[j*m+a]: identity when m = d
	for j := 0; j < *d; j++ {
		for a := 0; a < *m; a++ {
			if *m == *d {
				if a == j {
					R[j**m+a] = 1
				}
			} else {
				R[j**m+a] = rng.NormFloat64()
			}
		}
	}
	data := make([]float64, *n**d)
	z := make([]float64, *m)
	for i := 0; i < *n; i++ {
		c := rng.IntN(10)
		for a := range z {
			z[a] = centres[c**m+a] + rng.NormFloat64()
		}
		for j := 0; j < *d; j++ {
			s := 0.0
			for a, v := range z {
				s += R[j**m+a] * v
			}
			data[i**d+j] = s
		}
	}
	if *sk {
		check(sideBySide(data, *n, *d, *k))
		return
	}
	start := time.Now()
	g, err := graph.KNN(context.Background(), mat.NewDense(*n, *d, data), *k)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	el := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("knn graph N=%d d=%d (intrinsic %d) k=%d: %d nodes, %d edges, %.1f s, GOMAXPROCS=%d, heap sys %.0f MiB\n",
		*n, *d, *m, *k, g.N(), g.Edges(), el.Seconds(), runtime.GOMAXPROCS(0), float64(ms.Sys)/(1<<20))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
