package s4vm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// relabelSorted is relabel's definition: all rows sorted by f descending,
// ties by row index.
func relabelSorted(b balance, dst []int8, f []float64) {
	n := len(f)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, c int) int {
		switch {
		case f[a] > f[c]:
			return -1
		case f[a] < f[c]:
			return 1
		}
		return 0
	})
	for k, i := range idx {
		switch {
		case k < b.h1:
			dst[i] = 1
		case k >= n-b.h2:
			dst[i] = -1
		case f[i] >= 0:
			dst[i] = 1
		default:
			dst[i] = -1
		}
	}
}

// TestRelabelSelection: relabel (two selections) gives the labels of the
// full stable sort, on values with many ties (a few distinct values, ±0),
// sorted and reversed inputs (the quickselect's bad cases), and every
// h1, h2 split including 0 and n, many near the count of values ≥ 0.
func TestRelabelSelection(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		n := 1 + r.IntN(300)
		if trial%50 == 0 {
			n = 2000 + r.IntN(3000)
		}
		f := make([]float64, n)
		distinct := 1 + r.IntN(n)
		for i := range f {
			f[i] = float64(r.IntN(distinct)-distinct/2) / 4
			if f[i] == 0 && r.IntN(2) == 0 {
				f[i] = math.Copysign(0, -1)
			}
		}
		switch trial % 4 {
		case 1:
			slices.Sort(f)
		case 2:
			slices.Sort(f)
			slices.Reverse(f)
		}
		h1 := r.IntN(n + 1)
		h2 := r.IntN(n - h1 + 1)
		if trial%3 == 0 {
			// Near the count p of values ≥ 0: labels by sign alone, or
			// a few rows across zero selected (h1 > p, or h2 > n − p).
			p := 0
			for _, v := range f {
				if v >= 0 {
					p++
				}
			}
			h1 = min(max(p+r.IntN(5)-2, 0), n)
			h2 = min(max(n-p+r.IntN(5)-2, 0), n-h1)
		}
		b := balance{h1, h2}
		got, want := make([]int8, n), make([]int8, n)
		b.relabel(got, f, make([]rankKey, n))
		relabelSorted(b, want, f)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n %d, h1 %d, h2 %d): selection labels differ from the sort's", trial, n, h1, h2)
		}
	}
}
