package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/nprand"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

func init() {
	register(command{name: "bench", summary: "time Arbor's building blocks on the reference pipeline's timing data (JSON lines)", run: runBench})
}

// runBench mirrors `peers.py timing`: the same data (NumPy RandomState(0)
// uniform points, labels x1 + x2 > 1 with 10% flipped), the same operations
// and op names, best of --reps runs for N ≤ 2000. bench/compare.py runs both
// and prints the ratios.
func runBench(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench", "[--sizes 1000,2000,4000,8000] [--dim 10] [--reps 3] [--ops a,b]")
	sizes := fs.String("sizes", "1000,2000,4000,8000", "comma-separated N")
	dim := fs.Int("dim", 10, "dimensions")
	reps := fs.Int("reps", 3, "repetitions for N ≤ 2000 (best time reported)")
	geoMax := fs.Int("geo-max", 8000, "largest N for the graph geodesics")
	svmMax := fs.Int("svm-max", 8000, "largest N for SVM training")
	only := fs.String("ops", "", "run only ops whose name contains one of these comma-separated words")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 10 {
			return usageError("--sizes: bad size %q", s)
		}
		ns = append(ns, n)
	}
	want := func(op string) bool {
		if *only == "" {
			return true
		}
		for _, w := range strings.Split(*only, ",") {
			if strings.Contains(op, w) {
				return true
			}
		}
		return false
	}
	enc := json.NewEncoder(e.stdout)
	for _, n := range ns {
		X, y := benchData(n, *dim)
		r := *reps
		if n > 2000 {
			r = 1
		}
		emit := func(op string, secs float64) error {
			return enc.Encode(map[string]any{"mode": "timing", "impl": "arbor", "N": n, "dim": *dim, "reps": r,
				"threads": runtime.GOMAXPROCS(0), "op": op, "time_s": math.Round(secs*1e5) / 1e5})
		}
		timeit := func(op string, fn func() error) error {
			if !want(op) {
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
			return emit(op, best)
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
			if !want(s.op) {
				if err := s.fn(); err != nil { // still compute inputs of later steps
					return err
				}
				continue
			}
			if err := timeit(s.op, s.fn); err != nil {
				return err
			}
		}
		if n <= *geoMax {
			if err := timeit("knn7_graph+dijkstra(sklearn+scipy)", func() error {
				_, err := graph.Geodesic(ctx, X, graph.Spec{Kind: graph.KindKNN, K: 7})
				return err
			}); err != nil {
				return err
			}
		}
		if n <= *svmMax {
			if err := timeit("svc_precomputed_fit(hck_average,C=1,all N)", func() error {
				_, err := svm.Classifier{C: 1}.FitGram(ctx, K, y)
				return err
			}); err != nil {
				return err
			}
			if want("rbf") {
				rbf, _ := kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{}, Scale: true}.Resolve(X)
				Krbf, err := kernel.Gram(ctx, nil, rbf, X)
				if err != nil {
					return err
				}
				if err := timeit("svc_precomputed_fit(rbf matrix,C=1,all N)", func() error {
					_, err := svm.Classifier{C: 1}.FitGram(ctx, Krbf, y)
					return err
				}); err != nil {
					return err
				}
				Krbf = nil
				if err := timeit("svc_rbf_fit(libsvm computes kernel,C=1,all N)", func() error {
					_, err := svm.Classifier{C: 1, Kernel: rbf}.Fit(ctx, X, y)
					return err
				}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// benchData reproduces peers.py timing's data: X = RandomState(0).rand(N, dim),
// y = [x1 + x2 > 1] with 10% of labels flipped by the same stream.
func benchData(n, dim int) (*mat.Dense, []int) {
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
