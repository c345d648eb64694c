package kernel

import (
	"math/rand/v2"
	"testing"
)

// TestPathsBitIdentical: the register-blocked tiles, the column-wise loop
// (pure Go and BLAS axpy) and the one-pair loop sum in the same order, so
// they agree bit for bit; the choice of path never changes a result.
func TestPathsBitIdentical(t *testing.T) {
	for _, d := range []int{1, 5, 23, 24, 37} {
		rng := rand.New(rand.NewPCG(uint64(d), 9))
		n := 45
		data := make([]float64, n*d)
		for i := range data {
			data[i] = rng.NormFloat64() * 3
		}
		x := rows{data: data, n: n, d: d, str: d}
		for _, kind := range []accKind{accDot, accSq, accL1} {
			tile := make([]float64, n*n)
			accRows(kind, x, x, 0, n, func(i int) int { return i % 7 }, func(i int) []float64 { return tile[i*n : i*n+n] })
			col := make([]float64, n*n)
			f := &filler{b: x, kind: kind, finish: func([]float64) {}, fast: true, yt: make([]float64, d*n)}
			for j := 0; j < n; j++ {
				for l, v := range x.row(j) {
					f.yt[l*n+j] = v
				}
			}
			f.fill(x, 0, n, func(i int) int { return i % 7 }, func(i int) []float64 { return col[i*n : i*n+n] })
			for i := 0; i < n; i++ {
				for j := i % 7; j < n; j++ {
					one := accOne(kind, x.row(i), x.row(j))
					if tile[i*n+j] != one || col[i*n+j] != one {
						t.Fatalf("d=%d kind=%d (%d,%d): tile %v col %v one %v", d, kind, i, j, tile[i*n+j], col[i*n+j], one)
					}
				}
			}
		}
	}
}
