// Command million is the large-N check: N synthetic points (d = 10,
// 10 classes, 10 labelled per class; the generator is below, seeded), then
// every point labelled by (1) the landmark hierarchical cluster kernel
// (average linkage on M landmarks, the rest through the tree rule,
// Nyström features) with the linear SVM, and (2) label propagation on the
// anchor graph of the same M landmarks. It reports time, accuracy on the
// unlabelled points and the peak resident memory (VmHWM).
//
//	go run ./bench/million -n 1000000 -m 500
//
// With -arbor BIN it is the whole-process check instead: the data written
// as CSV (x1..xd, truth, label; empty label = unlabelled) to -dir, then
// BIN classify --landmarks M (hck:average + svm; lp on the anchor graph;
// spreading, which with its knn:10 affinity runs on the kNN graph of all rows)
// each under /usr/bin/time -v, reporting wall, CPU, peak RSS, accuracy and
// the load average:
//
//	go build -o /tmp/arbor ./cmd/arbor && go run ./bench/million -n 1000000 -m 500 -arbor /tmp/arbor -dir /tmp
//
// Data: class c is a Gaussian cloud around a centre drawn from N(0, s²·I)
// with s = -spread (default 1.2), unit variance per coordinate: the
// classes overlap, so neither method reaches 100 %.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

func main() {
	n := flag.Int("n", 1000000, "points")
	d := flag.Int("d", 10, "dimension")
	classes := flag.Int("classes", 10, "classes")
	perClass := flag.Int("labeled-per-class", 10, "labelled points per class")
	m := flag.Int("m", 500, "landmarks")
	spread := flag.Float64("spread", 1.2, "standard deviation of the class centres")
	seed := flag.Uint64("seed", 1, "seed")
	bin := flag.String("arbor", "", "arbor binary: run the whole-process check (CSV written to -dir, arbor classify under /usr/bin/time -v) instead of the in-process one")
	dir := flag.String("dir", os.TempDir(), "directory of the CSV and prediction files (-arbor)")
	niceness := flag.Int("nice", 10, "run arbor under nice -n this (0: not)")
	only := flag.String("learners", "svm,lp,spreading", "with -arbor: which classify runs (svm: landmark hck:average + SVM; lp: anchor-graph propagation; spreading: spreading on the kNN graph of all rows)")
	flag.Parse()
	ctx := context.Background()

	X, truth, y := generate(*n, *d, *classes, *perClass, *spread, *seed)
	fmt.Printf("data: N = %d, d = %d, %d classes, %d labelled; M = %d landmarks; load %s\n", *n, *d, *classes, *classes**perClass, *m, loadavg())
	if *bin != "" {
		check(runCLI(*bin, *dir, *m, *seed, *niceness, *only, X, truth, y))
		return
	}

	start := time.Now()
	lm, err := landmark.Choose(ctx, X, *m, landmark.KMeans, *seed)
	check(err)
	tLm := time.Since(start)
	fmt.Printf("landmarks (k-means, %d Lloyd iterations): %.1f s\n", 10, tLm.Seconds())

	// (1) landmark HCK + linear SVM.
	t0 := time.Now()
	fm, Z, err := landmark.Settings{Kernel: kernel.Spec{Kind: kernel.KindHCK, Method: hclust.Average}, Tree: landmark.TreeLandmarks}.Fit(ctx, X, lm)
	check(err)
	ny := fm.(*landmark.Nystrom)
	tf := time.Since(t0)
	model, err := linsvm.Classifier{C: 1, Seed: *seed}.Fit(ctx, Z, y)
	check(err)
	pred, err := model.Predict(ctx, nil, Z)
	check(err)
	t1 := time.Since(t0)
	fmt.Printf("landmark hck:average + linear SVM: features %.1f s (rank %d), total %.1f s (+ %.1f s landmarks), accuracy %.2f %% on the unlabelled, peak RSS so far %s\n",
		tf.Seconds(), ny.Rank, t1.Seconds(), tLm.Seconds(), acc(pred, truth, y), peak())
	Z = nil

	// (2) anchor-graph label propagation.
	t0 = time.Now()
	anchors := mat.NewDense(len(lm), *d, nil)
	for r, i := range lm {
		anchors.SetRow(r, X.RawRowView(i))
	}
	am, err := propagate.AnchorGraph{}.Fit(ctx, X, anchors, y)
	check(err)
	t2 := time.Since(t0)
	fmt.Printf("anchor-graph label propagation (3 nearest anchors): %.1f s (+ %.1f s landmarks), accuracy %.2f %% on the unlabelled, peak RSS %s\n",
		t2.Seconds(), tLm.Seconds(), acc(am.Transduction(), truth, y), peak())
}

// generate draws the data: centres, then each point's class uniformly and
// its coordinates around the centre; the first perClass points met of each
// class are labelled.
func generate(n, d, classes, perClass int, spread float64, seed uint64) (*mat.Dense, []int, []int) {
	rng := rand.New(rand.NewPCG(seed, 12))
	centres := make([]float64, classes*d)
	for i := range centres {
		centres[i] = rng.NormFloat64() * spread
	}
	X := mat.NewDense(n, d, nil)
	truth := make([]int, n)
	y := make([]int, n)
	seen := make([]int, classes)
	for i := 0; i < n; i++ {
		c := rng.IntN(classes)
		truth[i] = c
		y[i] = -1
		if seen[c] < perClass {
			seen[c]++
			y[i] = c
		}
		row := X.RawRowView(i)
		for j := range row {
			row[j] = centres[c*d+j] + rng.NormFloat64()
		}
	}
	return X, truth, y
}

func acc(pred, truth, y []int) float64 {
	ok, tot := 0, 0
	for i := range pred {
		if y[i] >= 0 {
			continue
		}
		tot++
		if pred[i] == truth[i] {
			ok++
		}
	}
	return 100 * float64(ok) / float64(tot)
}

// peak returns VmHWM from /proc/self/status.
func peak() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "?"
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
