package main

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"gonum.org/v1/gonum/mat"
)

// svcBytes bounds support vector clustering of m rows with d features: it
// forms no N×N matrix. The SVDD computes kernel columns on demand into its
// float32 column cache (svm.SVDD, default 200 MiB, never more than the
// 4m² of the whole matrix); the labelling tests pairs on the fly with a
// union-find (O(m) memory) and keeps distance and power tables capped at
// 256 + 128 MiB (svcluster/segment.go), filled only up to what the run
// needs; the rest is the points and O(m) vectors. (The estimate was 8m²,
// as if the kernel matrix were stored: 3.2 GB at m = 20,000, where the run
// peaked at 55 MB.)
func svcBytes(m, d int) float64 {
	mf := float64(m)
	return 8*mf*float64(d+16) + min(4*mf*mf, 200<<20) + min(8*mf*mf, 384<<20)
}

// svcAnnounceRows is the number of fitted rows from which svc says how
// long its O(N²) work takes.
const svcAnnounceRows = 10000

// announceSVC says on stderr, before support vector clustering of n rows,
// what its memory estimate cannot: the work is O(N²) kernel values (the
// SVDD's kernel columns, the labelling's pair tests, each about N²/2 per
// pass over the pairs), how long one such pass takes on this machine
// (the time of every pair among up to 512 rows of X, scaled), and hint,
// the option that fits (--landmarks M with its own time). Nothing below
// svcAnnounceRows rows or when quiet.
func (e *env) announceSVC(quiet bool, X mat.Matrix, n int, hint func(m int) string) {
	if quiet || n < svcAnnounceRows {
		return
	}
	rows, d := X.Dims()
	k := min(rows, 512)
	pts := make([][]float64, k)
	for i := range pts {
		pts[i] = mat.Row(nil, i, X)
	}
	start := time.Now()
	var sink float64
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			var s float64
			for c := 0; c < d; c++ {
				t := pts[i][c] - pts[j][c]
				s += t * t
			}
			sink += math.Exp(-s)
		}
	}
	per := float64(time.Since(start)) / math.Max(float64(k*(k-1)/2), 1)
	runtime.KeepAlive(sink) // the loop is measured, not optimised away
	pass := func(m int) string {
		return fmtDuration(time.Duration(per * float64(m) * float64(m-1) / 2))
	}
	m := min(2000, n/4)
	fmt.Fprintf(e.stderr, "svc: support vector clustering of %d rows is O(N²): the SVDD's kernel columns and the labelling's pair tests come to about N²/2 = %.2g kernel values per pass over the pairs, about %s a pass on this machine; %s (about %s a pass)\n",
		n, float64(n)*float64(n-1)/2, pass(n), hint(m), pass(m))
}
