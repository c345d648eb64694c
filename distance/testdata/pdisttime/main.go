// Command pdisttime times distance.Euclidean on a matrix of float64 read
// from a raw little-endian file, for distance/testdata/peer_time.py. It
// prints one JSON line: {"n":..,"d":..,"go_s":best seconds,"sum":Σ d_ij}.
//
//	go run ./distance/testdata/pdisttime -x X.f64 -n 2000 -d 10 -reps 3
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

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

func main() {
	path := flag.String("x", "", "raw little-endian float64 file, row-major n×d")
	n := flag.Int("n", 0, "rows")
	d := flag.Int("d", 0, "columns")
	reps := flag.Int("reps", 3, "repetitions (best is reported)")
	flag.Parse()
	raw, err := os.ReadFile(*path)
	if err != nil || len(raw) != 8**n**d {
		fmt.Fprintln(os.Stderr, "pdisttime: bad input", err)
		os.Exit(1)
	}
	data := make([]float64, *n**d)
	for i := range data {
		data[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	X := mat.NewDense(*n, *d, data)
	best := math.Inf(1)
	var c distance.Condensed
	for r := 0; r < *reps; r++ {
		c = distance.Condensed{}
		runtime.GC()
		t0 := time.Now()
		c, err = distance.Euclidean(context.Background(), X)
		best = min(best, time.Since(t0).Seconds())
		if err != nil {
			fmt.Fprintln(os.Stderr, "pdisttime:", err)
			os.Exit(1)
		}
	}
	var acc neumaier
	for _, v := range c.Data {
		acc.add(v)
	}
	sum := acc.sum + acc.c
	out, _ := json.Marshal(map[string]any{"n": *n, "d": *d, "go_s": best, "sum": sum,
		"gomaxprocs": runtime.GOMAXPROCS(0)})
	fmt.Println(string(out))
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
