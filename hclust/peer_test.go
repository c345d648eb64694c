//go:build unix

package hclust

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkPeerTime is the Go half of testdata/peer_time.py, which sets
// HCLUST_PEER_X to a file of n×dim little-endian float64 points (and
// HCLUST_PEER_Z to SciPy's average-linkage matrix of them, for an identity
// check) and reads the "PEER op seconds" lines. Skipped otherwise.
func BenchmarkPeerTime(b *testing.B) {
	path := os.Getenv("HCLUST_PEER_X")
	if path == "" {
		b.Skip("run by testdata/peer_time.py")
	}
	dim, err := strconv.Atoi(os.Getenv("HCLUST_PEER_DIM"))
	if err != nil {
		b.Fatal(err)
	}
	reps, err := strconv.Atoi(os.Getenv("HCLUST_PEER_REPS"))
	if err != nil {
		reps = 1
	}
	x := readFloats(b, path)
	n := len(x) / dim
	X := mat.NewDense(n, dim, x)
	ctx := context.Background()
	timeit := func(op string, f func()) {
		best, bestCPU := math.Inf(1), math.Inf(1)
		for range reps {
			t0, c0 := time.Now(), cpuSeconds()
			f()
			best = math.Min(best, time.Since(t0).Seconds())
			bestCPU = math.Min(bestCPU, cpuSeconds()-c0)
		}
		fmt.Printf("PEER %s %.6f %.6f\n", op, best, bestCPU)
	}
	d := pdist(X)
	var avg *Tree
	for _, m := range []Method{Average, Single, Complete} {
		timeit("linkage_"+m.String(), func() {
			tr, err := Linkage(ctx, d, m)
			if err != nil {
				b.Fatal(err)
			}
			if m == Average {
				avg = tr
			}
		})
	}
	for _, m := range []Method{Single, Average} {
		timeit("frompoints_"+m.String(), func() {
			if _, err := FromPoints(ctx, X, m); err != nil {
				b.Fatal(err)
			}
		})
	}
	M := mat.NewSymDense(n, nil)
	timeit("ultrametric", func() { avg.Ultrametric(M) })
	timeit("ultrametric_alloc", func() { avg.Ultrametric(nil) })
	timeit("cophenetic", func() { avg.Cophenetic() })
	if zp := os.Getenv("HCLUST_PEER_Z"); zp != "" {
		z := readFloats(b, zp)
		same := len(z) == 4*(n-1)
		for k, m := range avg.Merges {
			if !same {
				break
			}
			same = z[4*k] == float64(m.A) && z[4*k+1] == float64(m.B) && z[4*k+2] == m.Height && z[4*k+3] == float64(m.Size)
		}
		fmt.Printf("PEER identical_average_Z %v\n", same)
	}
}

func readFloats(t testing.TB, path string) []float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(b)/8)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return x
}

// cpuSeconds is the process's user + system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
