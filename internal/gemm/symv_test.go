package gemm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDotAxpy4 checks the kernel in use against the Go definition bit for
// bit (random values, NaN-free), and both against exact small-integer
// arithmetic, where every order gives the same result.
func TestDotAxpy4(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 64, 100, 257} {
		for _, pad := range []int{0, 5} {
			lda := n + pad
			a := make([]float64, 4*lda+1)
			x, y := make([]float64, n+1), make([]float64, n+1)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			for i := range x {
				x[i], y[i] = r.NormFloat64(), r.NormFloat64()
			}
			s := [4]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			y1, y2 := slices.Clone(y), slices.Clone(y)
			d1 := DotAxpy4(n, a, lda, x, y1, s)
			// the definition: Go vector part, then the tail
			n8 := n &^ 7
			var d2 [4]float64
			if n8 > 0 {
				d2 = dotAxpy4Go(n8, a, lda, x, y2, s)
			}
			for j := n8; j < n; j++ {
				for k := range 4 {
					d2[k] = math.FMA(a[k*lda+j], x[j], d2[k])
				}
				y2[j] = math.FMA(a[3*lda+j], s[3], math.FMA(a[2*lda+j], s[2], math.FMA(a[lda+j], s[1], math.FMA(a[j], s[0], y2[j]))))
			}
			if d1 != d2 || !slices.Equal(y1, y2) {
				t.Errorf("n=%d lda=%d (%s): d %v, definition %v (y equal: %v)", n, lda, kernelName(), d1, d2, slices.Equal(y1, y2))
			}
			if y1[n] != y[n] {
				t.Errorf("n=%d: y[n] written", n)
			}
			// small integers: exact
			for i := range a {
				a[i] = float64(r.IntN(9) - 4)
			}
			for i := range x {
				x[i], y[i] = float64(r.IntN(9)-4), float64(r.IntN(9)-4)
			}
			s = [4]float64{1, -2, 3, 0.5}
			y3 := slices.Clone(y)
			d3 := DotAxpy4(n, a, lda, x, y3, s)
			for k := range 4 {
				want := 0.0
				for j := range n {
					want += a[k*lda+j] * x[j]
				}
				if d3[k] != want {
					t.Errorf("n=%d row %d: d = %v, want %v", n, k, d3[k], want)
				}
			}
			for j := range n {
				want := y[j] + a[j]*s[0] + a[lda+j]*s[1] + a[2*lda+j]*s[2] + a[3*lda+j]*s[3]
				if y3[j] != want {
					t.Errorf("n=%d y[%d] = %v, want %v", n, j, y3[j], want)
				}
			}
		}
	}
}

func kernelName() string {
	if haveDotAxpy4 {
		return "avx2"
	}
	return "go"
}
