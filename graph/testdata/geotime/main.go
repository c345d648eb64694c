// Command geotime times graph.Geodesic (7-NN graph + all-pairs shortest
// paths + Eq. 4 joining) on a matrix of float64 read from a raw
// little-endian file, for graph/testdata/peer_time.py. It prints one JSON
// line: {"n":..,"d":..,"go_s":best seconds,"joins":..,"sum":Σ_{i<j} G_ij}.
//
//	go run ./graph/testdata/geotime -x X.f64 -n 2000 -d 10 -k 7 -reps 3 [-exact]
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"time"

	"github.com/arbor-ml/arbor/graph"
	"gonum.org/v1/gonum/mat"
)

func main() {
	path := flag.String("x", "", "raw little-endian float64 file, row-major n×d")
	n := flag.Int("n", 0, "rows")
	d := flag.Int("d", 0, "columns")
	k := flag.Int("k", 7, "neighbours")
	reps := flag.Int("reps", 1, "repetitions (best is reported)")
	exact := flag.Bool("exact", false, "graph.Geodesics{Exact: true}")
	flag.Parse()
	raw, err := os.ReadFile(*path)
	if err != nil {
		fail(err)
	}
	if len(raw) != 8**n**d {
		fail(fmt.Errorf("%s has %d bytes, want %d", *path, len(raw), 8**n**d))
	}
	data := make([]float64, *n**d)
	for i := range data {
		data[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	X := mat.NewDense(*n, *d, data)
	best := math.Inf(1)
	var res graph.GeodesicResult
	for r := 0; r < *reps; r++ {
		res = graph.GeodesicResult{}
		runtime.GC()
		t0 := time.Now()
		res, err = graph.Geodesics{Spec: graph.Spec{Kind: graph.KindKNN, K: *k}, Exact: *exact}.Compute(context.Background(), X)
		el := time.Since(t0).Seconds()
		if err != nil {
			fail(err)
		}
		best = min(best, el)
	}
	var acc neumaier
	for i := 0; i < *n; i++ {
		for j := i + 1; j < *n; j++ {
			acc.add(res.G.At(i, j))
		}
	}
	sum := acc.sum + acc.c
	out, _ := json.Marshal(map[string]any{"n": *n, "d": *d, "go_s": best, "joins": res.Joins, "exact": *exact,
		"sum": sum, "gomaxprocs": runtime.GOMAXPROCS(0)})
	fmt.Println(string(out))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "geotime:", err)
	os.Exit(1)
}

// neumaier is compensated summation, so the checksum compares with
// Python's math.fsum independently of summation order.
type neumaier struct{ sum, c float64 }

func (a *neumaier) add(x float64) {
	t := a.sum + x
	if math.Abs(a.sum) >= math.Abs(x) {
		a.c += (a.sum - t) + x
	} else {
		a.c += (x - t) + a.sum
	}
	a.sum = t
}
