package svcluster

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// PCA projects the rows of X on their first k principal components: X is
// centred column-wise, Xc = U Σ Vᵀ (thin SVD, gonum mat.SVD), and the result
// is Xc·V[:, :k] = U[:, :k]·Σ[:k]. Signs follow scikit-learn's svd_flip: in
// each column of U the entry of largest magnitude is made positive. A nil dst
// allocates; otherwise dst must be n×k. O(n·d·min(n, d)).
//
// Errors: ErrEmpty, ErrNonFinite, ErrBadParam (k < 1 or k > min(n, d)).
func PCA(dst *mat.Dense, X mat.Matrix, k int) (*mat.Dense, error) {
	if X == nil {
		return nil, ErrEmpty
	}
	n, d := X.Dims()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("%w: %d×%d matrix", ErrEmpty, n, d)
	}
	if k < 1 || k > min(n, d) {
		return nil, fmt.Errorf("%w: PCA to %d components of %d×%d data (need 1 ≤ k ≤ %d)", ErrBadParam, k, n, d, min(n, d))
	}
	xc := mat.NewDense(n, d, nil)
	for j := 0; j < d; j++ {
		mean := 0.0
		for i := 0; i < n; i++ {
			v := X.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: row %d, column %d is %v", ErrNonFinite, i, j, v)
			}
			mean += v
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			xc.Set(i, j, X.At(i, j)-mean)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(xc, mat.SVDThin) {
		return nil, fmt.Errorf("%w: SVD did not converge", ErrBadParam)
	}
	var u mat.Dense
	svd.UTo(&u)
	s := svd.Values(nil)
	if dst == nil {
		dst = mat.NewDense(n, k, nil)
	} else if r, c := dst.Dims(); r != n || c != k {
		return nil, fmt.Errorf("%w: PCA destination is %d×%d, want %d×%d", ErrBadParam, r, c, n, k)
	}
	for j := 0; j < k; j++ {
		big, sign := 0.0, 1.0
		for i := 0; i < n; i++ {
			if v := u.At(i, j); math.Abs(v) > big {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for i := 0; i < n; i++ {
			dst.Set(i, j, sign*u.At(i, j)*s[j])
		}
	}
	return dst, nil
}
