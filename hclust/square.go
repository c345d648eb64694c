package hclust

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/internal/parallel"
)

// float is the storage type of a working matrix: float64 (the default,
// equal to SciPy to the bit) or float32 (FromPoints32, LinkageSym32: half
// the memory; each distance and each Lance–Williams update is computed in
// float64 from the stored values and rounded once to float32).
type float interface{ ~float32 | ~float64 }

// square is the n×n working matrix of the chain and generic algorithms:
// row-major, stride n, symmetric, with +Inf on the diagonal so that a row
// scan needs no test for "i == x".
type square[E float] struct {
	n int
	d []E
	// sizes, when not nil, are the leaves' initial cluster sizes (the
	// cells of FromPointsCells); nil means 1 each.
	sizes []int32
}

func newSquare[E float](n int) *square[E] {
	var d []E
	if _, ok := any(d).([]float32); ok {
		d = any(hugepage.Float32s(n * n)).([]E)
	} else {
		d = make([]E, n*n)
		adviseHuge(any(d).([]float64))
	}
	return &square[E]{n: n, d: d}
}

// tile is the block edge of the cache-blocked transposes (64×64 doubles =
// 32 KiB per block).
const tile = 64

// condRow returns the offset of pair (i, i+1) in a condensed matrix, so that
// pair (i, j), j > i, lives at condRow(n, i) + j − i − 1.
func condRow(n, i int) int { return n*i - i*(i+1)/2 }

// validDistance reports whether v is a finite non-negative number.
func validDistance(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }

// fillCondensed expands the condensed matrix c into s. Each task takes a
// stripe of T rows: their condensed rows are copied to the upper triangle
// in one long contiguous copy each, then transposed tile by tile through a
// small buffer into the lower triangle, so every write is a contiguous run.
// It reports false if any entry is NaN, infinite or negative.
func fillCondensed(s *square[float64], c []float64) bool {
	n := s.n
	const T = 32
	nb := (n + T - 1) / T
	var bad atomic.Bool
	_ = parallel.For(context.Background(), nb, func(ib int) {
		var buf [T * T]float64
		i0, i1 := ib*T, min(ib*T+T, n)
		ok := true
		for i := i0; i < i1; i++ {
			off := condRow(n, i) - i - 1
			src := c[off+i+1 : off+n]
			for _, v := range src {
				if !(v >= 0) || v > math.MaxFloat64 {
					ok = false
				}
			}
			copy(s.d[i*n+i+1:i*n+n], src)
			s.d[i*n+i] = math.Inf(1)
		}
		for jb := ib; jb < nb; jb++ {
			j0, j1 := jb*T, min(jb*T+T, n)
			for i := i0; i < i1; i++ {
				js := max(j0, i+1)
				bi := buf[i-i0:]
				for k, v := range s.d[i*n+js : i*n+j1] {
					bi[(js-j0+k)*T] = v
				}
			}
			for j := max(j0, i0+1); j < j1; j++ {
				hi := min(i1, j) // row j, columns i0..hi: the transposed tile
				copy(s.d[j*n+i0:j*n+hi], buf[(j-j0)*T:(j-j0)*T+hi-i0])
			}
		}
		if !ok {
			bad.Store(true)
		}
	})
	return !bad.Load()
}

// pairSums are sums over the pairs i < j of a distance matrix about a
// shift fixed beforehand (near the mean, so that the variance
// Σ(d−shift)² − (Σ(d−shift))²/P loses little to cancellation).
type pairSums struct {
	shift float64
	a, b  float64 // Σ(d − shift), Σ(d − shift)²
}

// fillPoints sets s to the Euclidean distances between the rows of the
// row-major n×dim matrix pts, tile by tile: each distance is computed once,
// stored in the upper triangle and transposed through a small buffer. If
// sums is not nil it also receives the sums of the distances about
// sums.shift: per row, per stripe of rows, then over the stripes in order,
// so they do not depend on GOMAXPROCS. It reports false if a distance
// overflows.
func (s *square[E]) fillPoints(pts []float64, dim int, sums *pairSums) bool {
	n := s.n
	const T = 32
	nb := (n + T - 1) / T
	var bad atomic.Bool
	var parts [][2]float64
	if sums != nil {
		parts = make([][2]float64, nb)
	}
	_ = parallel.For(context.Background(), nb, func(ib int) {
		var buf [T * T]E
		var seq [T]int32
		var tmp [T]float64
		var ra, rb [T]float64 // the stripe's rows' sums
		i0, i1 := ib*T, min(ib*T+T, n)
		ok := true
		for i := i0; i < i1; i++ {
			s.d[i*n+i] = E(math.Inf(1))
		}
		for jb := ib; jb < nb; jb++ {
			j0, j1 := jb*T, min(jb*T+T, n)
			for i := i0; i < i1; i++ {
				xi := pts[i*dim : i*dim+dim]
				row := s.d[i*n : i*n+n]
				bi := buf[i-i0:]
				js := max(j0, i+1)
				if js >= j1 {
					continue
				}
				idx := seq[:j1-js]
				for k := range idx {
					idx[k] = int32(js + k)
				}
				out := row[js:j1]
				euclidInto(xi, pts, dim, idx, out, &tmp)
				for k, v := range out {
					if float64(v) > math.MaxFloat64 {
						ok = false
					}
					bi[(js-j0+k)*T] = v
				}
				if parts != nil {
					var a, b float64
					for _, v := range out {
						u := float64(v) - sums.shift
						a += u
						b += float64(u * u)
					}
					ra[i-i0] += a
					rb[i-i0] += b
				}
			}
			for j := max(j0, i0+1); j < j1; j++ {
				hi := min(i1, j) // row j, columns i0..hi: the transposed tile
				copy(s.d[j*n+i0:j*n+hi], buf[(j-j0)*T:(j-j0)*T+hi-i0])
			}
		}
		if parts != nil {
			var a, b float64
			for r := range i1 - i0 {
				a += ra[r]
				b += rb[r]
			}
			parts[ib] = [2]float64{a, b}
		}
		if !ok {
			bad.Store(true)
		}
	})
	for _, p := range parts {
		sums.a += p[0]
		sums.b += p[1]
	}
	return !bad.Load()
}

// euclidInto is euclidMany into a row of the working matrix: in place for
// float64, through tmp and rounded once for float32.
func euclidInto[E float](x, pts []float64, dim int, idx []int32, out []E, tmp *[32]float64) {
	if o, ok := any(out).([]float64); ok {
		euclidMany(x, pts, dim, idx, o)
		return
	}
	t := tmp[:len(out)]
	euclidMany(x, pts, dim, idx, t)
	for k, v := range t {
		out[k] = E(v)
	}
}

// transposeCondensed returns the strict lower triangle of the condensed
// matrix c stored row by row: entry (j, i), i < j, at j(j−1)/2 + i. Together
// with c it makes every row of the distance matrix two contiguous pieces.
// Tiles of T×T are transposed through a small buffer so that reads and
// writes are contiguous runs. It reports false if any entry is NaN,
// infinite or negative.
func transposeCondensed(c []float64, n int) ([]float64, bool) {
	low := make([]float64, len(c))
	adviseHuge(low)
	T := stripe(n)
	nb := (n + T - 1) / T
	var bad atomic.Bool
	_ = parallel.For(context.Background(), nb, func(ib int) {
		var buf [maxStripe * maxStripe]float64
		i0, i1 := ib*T, min(ib*T+T, n)
		ok := true
		// one streaming pass validates the stripe's rows and brings them
		// into cache for the tile transposes
		for i := i0; i < i1; i++ {
			off := condRow(n, i) - i - 1
			for _, v := range c[off+i+1 : off+n] {
				if !(v >= 0) || v > math.MaxFloat64 {
					ok = false
				}
			}
		}
		for jb := ib; jb < nb; jb++ {
			j0, j1 := jb*T, min(jb*T+T, n)
			for i := i0; i < i1; i++ {
				js := max(j0, i+1)
				if js >= j1 {
					continue
				}
				off := condRow(n, i) - i - 1
				bi := buf[i-i0:]
				for k, v := range c[off+js : off+j1] {
					bi[(js-j0+k)*T] = v
				}
			}
			for j := max(j0, i0+1); j < j1; j++ {
				hi := min(i1, j) // row j of low, columns i0..hi
				o := j * (j - 1) / 2
				copy(low[o+i0:o+hi], buf[(j-j0)*T:(j-j0)*T+hi-i0])
			}
		}
		if !ok {
			bad.Store(true)
		}
	})
	return low, !bad.Load()
}

// maxStripe bounds the stripe height of the blocked transposes.
const maxStripe = 64

// stripe is the number of condensed rows transposed together: as many as
// keep the stripe (T rows of up to n values) within ~512 KiB of cache,
// between 8 and maxStripe.
func stripe(n int) int {
	t := maxStripe
	for t > 8 && t*n*8 > 512<<10 {
		t /= 2
	}
	return t
}
