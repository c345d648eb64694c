// Command blocks times Arbor's building blocks on the timing data of the
// reference pipeline's `peers.py timing` (bench/peers): the same data
// (NumPy RandomState(0) uniform points, labels x₁ + x₂ > 1 with 10 %
// flipped by the same stream), the same operations and op names, the best
// of -reps runs for N ≤ 2000. It prints one JSON line per operation and
// size, as peers.py does; bench/compare.py runs both and prints the ratios.
//
//	go run ./bench/blocks -sizes 2000,8000
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/nprand"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
)

// config holds the flags.
type config struct {
	sizes  []int
	dim    int
	reps   int
	geoMax int    // largest N for the graph geodesics
	svmMax int    // largest N for SVM training
	only   string // run only ops whose name contains one of these comma-separated words
}

func main() {
	sizes := flag.String("sizes", "1000,2000,4000,8000", "comma-separated N")
	var c config
	flag.IntVar(&c.dim, "dim", 10, "dimensions")
	flag.IntVar(&c.reps, "reps", 3, "repetitions for N ≤ 2000 (best time reported)")
	flag.IntVar(&c.geoMax, "geo-max", 8000, "largest N for the graph geodesics")
	flag.IntVar(&c.svmMax, "svm-max", 8000, "largest N for SVM training")
	flag.StringVar(&c.only, "ops", "", "run only ops whose name contains one of these comma-separated words")
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 10 {
			fmt.Fprintf(os.Stderr, "blocks: -sizes: bad size %q\n", s)
			os.Exit(2)
		}
		c.sizes = append(c.sizes, n)
	}
	if err := run(context.Background(), os.Stdout, c); err != nil {
		fmt.Fprintln(os.Stderr, "blocks:", err)
		os.Exit(1)
	}
}

// want reports whether op is to be timed.
func (c config) want(op string) bool {
	if c.only == "" {
		return true
	}
	for _, w := range strings.Split(c.only, ",") {
		if strings.Contains(op, w) {
			return true
		}
	}
	return false
}

// run times every operation at every size and writes the JSON lines to w.
func run(ctx context.Context, w io.Writer, c config) error {
	enc := json.NewEncoder(w)
	for _, n := range c.sizes {
		X, y := data(n, c.dim)
		r := c.reps
		if n > 2000 {
			r = 1
		}
		timeit := func(op string, fn func() error) error {
			if !c.want(op) {
				return nil
			}
			best := math.Inf(1)
			for i := 0; i < r; i++ {
				runtime.GC()
				t0 := time.Now()
				if err := fn(); err != nil {
					return fmt.Errorf("%s at N=%d: %w", op, n, err)
				}
				best = min(best, time.Since(t0).Seconds())
			}
			return enc.Encode(map[string]any{"mode": "timing", "impl": "arbor", "N": n, "dim": c.dim, "reps": r,
				"threads": runtime.GOMAXPROCS(0), "op": op, "time_s": math.Round(best*1e5) / 1e5})
		}
		var D distance.Condensed
		var tree *hclust.Tree
		var M, K *mat.SymDense
		steps := []struct {
			op string
			fn func() error
		}{
			{"pdist_euclid(scipy)", func() (err error) { D, err = distance.Euclidean(ctx, X); return }},
			{"linkage_average(scipy)", func() (err error) { tree, err = hclust.Linkage(ctx, D, hclust.Average); return }},
			{"linkage_single(scipy)", func() (err error) { _, err = hclust.Linkage(ctx, D, hclust.Single); return }},
			{"linkage_complete(scipy)", func() (err error) { _, err = hclust.Linkage(ctx, D, hclust.Complete); return }},
			{"cophenet+squareform(scipy)", func() error { M = tree.Ultrametric(M); return nil }},
			{"double_center(numpy,O(n^2))", func() error { K = kernel.Center(K, M); return nil }},
		}
		for _, s := range steps {
			if !c.want(s.op) {
				if err := s.fn(); err != nil { // still compute inputs of later steps
					return err
				}
				continue
			}
			if err := timeit(s.op, s.fn); err != nil {
				return err
			}
		}
		if n <= c.geoMax {
			if err := timeit("knn7_graph+dijkstra(sklearn+scipy)", func() error {
				_, err := graph.Geodesic(ctx, X, graph.Spec{Kind: graph.KindKNN, K: 7})
				return err
			}); err != nil {
				return err
			}
		}
		if n > c.svmMax {
			continue
		}
		if err := timeit("svc_precomputed_fit(hck_average,C=1,all N)", func() error {
			_, err := svm.Classifier{C: 1}.FitGram(ctx, K, y)
			return err
		}); err != nil {
			return err
		}
		const opRBFGram, opRBF = "svc_precomputed_fit(rbf matrix,C=1,all N)", "svc_rbf_fit(libsvm computes kernel,C=1,all N)"
		if !c.want(opRBFGram) && !c.want(opRBF) {
			continue
		}
		rbf, _ := kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{}, Scale: true}.Resolve(X)
		Krbf, err := kernel.Gram(ctx, nil, rbf, X)
		if err != nil {
			return err
		}
		if err := timeit(opRBFGram, func() error {
			_, err := svm.Classifier{C: 1}.FitGram(ctx, Krbf, y)
			return err
		}); err != nil {
			return err
		}
		Krbf = nil
		if err := timeit(opRBF, func() error {
			_, err := svm.Classifier{C: 1, Kernel: rbf}.Fit(ctx, X, y)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// data reproduces peers.py timing's data: X = RandomState(0).rand(N, dim),
// y = [x₁ + x₂ > 1] with 10 % of labels flipped by the same stream.
func data(n, dim int) (*mat.Dense, []int) {
	rs := nprand.New(0)
	x := make([]float64, n*dim)
	rs.Rand(x)
	X := mat.NewDense(n, dim, x)
	y := make([]int, n)
	for i := range y {
		if x[i*dim]+x[i*dim+1] > 1 {
			y[i] = 1
		}
	}
	flip := make([]float64, n)
	rs.Rand(flip)
	for i, f := range flip {
		if f < 0.1 {
			y[i] = 1 - y[i]
		}
	}
	return X, y
}
