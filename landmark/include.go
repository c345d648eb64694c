package landmark

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// ChooseIncluding returns m distinct row indices of X (ascending)
// that contain every row of include when len(include) < m: the rows of
// include, then m − len(include) rows chosen by Choose(X,
// m − len(include), method, seed) (a chosen row already in include is
// replaced by a row drawn at random from seed). With len(include) ≥ m it
// is Choose(X, m, method, seed) and the second result is false.
//
// Why: a kernel value between a point and a landmark is exact under the
// Nyström approximation, z(x)·z(l) = k_L(x)·K_LL⁺·k_L(l)ᵀ = k(x, l), so
// when the labelled rows are landmarks every kernel value an SVM or kNN
// reads (labelled × labelled in training, any row × labelled in
// prediction) is the kernel's own: for a point kernel the landmark learner
// is then the exact learner, whatever M ≥ ℓ. For the cluster kernels the
// labelled rows are leaves of the landmark tree instead of being grafted
// onto a nearby landmark. Errors: those of Choose, ErrBadParam
// (an include row out of range or repeated).
func ChooseIncluding(ctx context.Context, X mat.Matrix, m int, method string, seed uint64, include []int) ([]int, bool, error) {
	if X == nil {
		lm, err := Choose(ctx, X, m, method, seed)
		return lm, false, err
	}
	x, err := newRows(X, "X")
	if err != nil {
		return nil, false, err
	}
	return ChooseRows(ctx, x.n, m, method, seed, include, x.fetch)
}

// ChooseRows is ChooseIncluding on n rows that need not be in memory:
// fetch returns the rows at the given ascending indices, one matrix row
// each. Only k-means reads rows, its sample of 100·m of them (Choose);
// random chooses by index alone. The rows chosen are ChooseIncluding's
// for the same rows, seed and include. Errors: as ChooseIncluding's, and
// fetch's.
func ChooseRows(ctx context.Context, n, m int, method string, seed uint64, include []int, fetch func(idx []int) (*mat.Dense, error)) ([]int, bool, error) {
	seen := make(map[int]bool, len(include))
	for _, i := range include {
		if i < 0 || i >= n || seen[i] {
			return nil, false, fmt.Errorf("%w: landmark row %d to include (want distinct rows 0..%d)", kernel.ErrBadParam, i, n-1)
		}
		seen[i] = true
	}
	if len(include) == 0 || len(include) >= m {
		lm, err := chooseRows(ctx, n, m, method, seed, fetch)
		return lm, len(include) == 0, err
	}
	if m > n {
		return nil, false, fmt.Errorf("%w: %d landmarks, want 1..%d (the number of rows)", kernel.ErrBadParam, m, n)
	}
	rest, err := chooseRows(ctx, n, m-len(include), method, seed, fetch)
	if err != nil {
		return nil, false, err
	}
	out := append([]int(nil), include...)
	for _, i := range rest {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x696e636c))
	for _, i := range rng.Perm(n) {
		if len(out) == m {
			break
		}
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out, true, nil
}
