package ssl

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/internal/nprand"
)

// ErrSplit reports a labelled set that cannot be drawn or used.
var ErrSplit = errors.New("ssl: bad split")

// PerClass draws the labelled rows for one seed exactly as the reference
// pipeline does (bench/peers/peers.py per_class_split): with NumPy's legacy
// RandomState(seed), for each class c in increasing order it takes
// choice(rows of c, min(perClass, n_c − 1), replace=False), so every class
// keeps at least one unlabelled row. The result is sorted. Rows whose label
// is negative (unlabelled) are never drawn.
func PerClass(y []int, perClass int, seed uint32) ([]int, error) {
	if perClass < 1 {
		return nil, fmt.Errorf("%w: labelled points per class must be ≥ 1, got %d", ErrSplit, perClass)
	}
	byClass := map[int][]int{}
	for i, c := range y {
		if c >= 0 {
			byClass[c] = append(byClass[c], i)
		}
	}
	if len(byClass) == 0 {
		return nil, fmt.Errorf("%w: no labelled rows to draw from", ErrSplit)
	}
	classes := make([]int, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Ints(classes)
	rng := nprand.New(seed)
	var picks []int
	for _, c := range classes {
		rows := byClass[c]
		m := min(perClass, len(rows)-1)
		if m > 0 {
			picks = append(picks, rng.Choice(rows, m)...)
		}
	}
	sort.Ints(picks)
	return picks, nil
}

// Complement returns the rows of 0..n-1 not in sorted set l.
func Complement(n int, l []int) []int {
	in := make([]bool, n)
	for _, i := range l {
		in[i] = true
	}
	u := make([]int, 0, n-len(l))
	for i := 0; i < n; i++ {
		if !in[i] {
			u = append(u, i)
		}
	}
	return u
}

// PerClassSplits draws repeats splits with PerClass, the r-th with seed
// seed + r (the reference pipeline's seeds). Errors: ErrSplit for
// repeats < 1 or seeds beyond 2³² − 1, and PerClass's.
func PerClassSplits(y []int, perClass, repeats int, seed uint64) ([][]int, error) {
	if repeats < 1 {
		return nil, fmt.Errorf("%w: repeats must be ≥ 1, got %d", ErrSplit, repeats)
	}
	if seed+uint64(repeats) > math.MaxUint32+1 {
		return nil, fmt.Errorf("%w: seeds %d..%d: want them below 2³²", ErrSplit, seed, seed+uint64(repeats)-1)
	}
	var splits [][]int
	for r := 0; r < repeats; r++ {
		l, err := PerClass(y, perClass, uint32(seed)+uint32(r))
		if err != nil {
			return nil, err
		}
		splits = append(splits, l)
	}
	return splits, nil
}

// Singletons returns the classes among 0..classes−1 that have exactly one
// row in y: PerClass leaves them no labelled row (min(N, n_c − 1)), so
// their row is always scored and always wrong.
func Singletons(y []int, classes int) []int {
	counts := make([]int, classes)
	for _, c := range y {
		if c >= 0 && c < classes {
			counts[c]++
		}
	}
	var out []int
	for c, k := range counts {
		if k == 1 {
			out = append(out, c)
		}
	}
	return out
}
