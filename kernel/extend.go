package kernel

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// ExtendOptions are the settings of the out-of-sample extension (Extend).
type ExtendOptions struct {
	// Columns lists the training points ℓ (row indices of X) whose kernel
	// values are wanted, e.g. the labelled rows; nil means all N.
	Columns []int
	// RCond is the relative cutoff of the pseudo-inverses: singular values of
	// X below RCond·σ_max and eigenvalues of Via below RCond·max|λ| count as
	// zero. 0 means max(N, d)·ε, numpy.linalg.matrix_rank's tolerance.
	RCond float64
	// Via is K¹ of the two-step version for the graph variant (paper 000
	// §3.5): normally the ISOMAP kernel of the same N points. nil means the
	// one-step extension.
	Via mat.Symmetric
}

// Extension is a fitted out-of-sample extension of a data-dependent kernel
// (paper 000 §3.5, after Chapelle, Weston & Schölkopf 2002). A test point x
// is written as the least-squares combination x ≈ Σ α_i x_i of the N
// training points, α = K̃_NN⁺ k̃_x with K̃ the linear (input-space) kernel,
// and its kernel values are k(x, x_j) = α'·K_Nj, so for t test points
//
//	K_tℓ = K̃_tN · K̃_NN⁺ · K_Nℓ                       (one step)
//	K¹_tN = K̃_tN · K̃_NN⁺ · K¹_NN,  K²_tℓ = K¹_tN · (K¹_NN)⁺ · K²_Nℓ  (two steps)
//
// with K¹ the ISOMAP kernel and K² the cluster kernel on graph distances.
// Because K̃_NN = XXᵀ, K̃_tN·K̃_NN⁺ = X_t·Xᵀ(XXᵀ)⁺ = X_t·X⁺ (X⁺ by the SVD of
// X), so Extend precomputes the d×ℓ matrix W = X⁺·[K¹·(K¹)⁺]·K_Nℓ and each
// batch of test points costs one t×d by d×ℓ product. An Extension is
// immutable and safe for concurrent use.
type Extension struct {
	n, d, rank int
	cols       []int
	w          *mat.Dense    // d×ℓ
	q          *mat.SymDense // d×d, k(x,x) = xᵀ q x
}

// Extend fits the out-of-sample extension of the N×N kernel K computed on
// the rows of X (N×d). Cost: an SVD of X (O(N d²)), O(N² d) for the
// products, plus an O(N³) eigendecomposition of Via for the two-step
// version. Errors: ErrEmpty, ErrNonFinite, ErrShape (K or Via not N×N),
// ErrBadParam (a column out of range, RCond < 0 or ≥ 1), ErrNotSymmetric,
// ErrEigen, or ctx.Err().
func Extend(ctx context.Context, X mat.Matrix, K mat.Symmetric, opt ExtendOptions) (*Extension, error) {
	x, err := newRows(X, "X")
	if err != nil {
		return nil, err
	}
	n, d := x.n, x.d
	if !(opt.RCond >= 0 && opt.RCond < 1) {
		return nil, fmt.Errorf("%w: Extend RCond = %v, want 0 ≤ RCond < 1", ErrBadParam, opt.RCond)
	}
	rcond := opt.RCond
	if rcond == 0 {
		rcond = float64(max(n, d)) * 0x1p-52
	}
	ks, err := symRaw(K, "K")
	if err != nil {
		return nil, err
	}
	if ks.N != n {
		return nil, fmt.Errorf("%w: Extend: K is %d×%d, X has %d rows", ErrShape, ks.N, ks.N, n)
	}
	if err := checkFiniteSym(ks, "K"); err != nil {
		return nil, err
	}
	cols := opt.Columns
	if cols == nil {
		cols = make([]int, n)
		for i := range cols {
			cols[i] = i
		}
	} else {
		cols = append([]int(nil), cols...)
		for c, j := range cols {
			if j < 0 || j >= n {
				return nil, fmt.Errorf("%w: Extend Columns[%d] = %d, want 0..%d", ErrBadParam, c, j, n-1)
			}
		}
	}

	// P = X⁺ (d×N) from the thin SVD of X.
	xd := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		copy(xd.RawRowView(i), x.row(i))
	}
	var svd mat.SVD
	if !svd.Factorize(xd, mat.SVDThin) {
		return nil, fmt.Errorf("%w: SVD of X (%d×%d) did not converge", ErrEigen, n, d)
	}
	sv := svd.Values(nil)
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	rank := 0
	for _, s := range sv {
		if s > rcond*sv[0] {
			rank++
		}
	}
	if rank == 0 {
		return nil, fmt.Errorf("%w: Extend: X has rank 0 (all rows zero)", ErrBadParam)
	}
	vs := mat.NewDense(d, rank, nil) // V_r Σ_r⁻¹
	for i := 0; i < d; i++ {
		for k := 0; k < rank; k++ {
			vs.Set(i, k, v.At(i, k)/sv[k])
		}
	}
	P := mat.NewDense(d, n, nil)
	P.Mul(vs, u.Slice(0, n, 0, rank).(*mat.Dense).T())
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	Ksym := symFromRaw(ks)
	if opt.Via != nil {
		vr, err := symRaw(opt.Via, "Via")
		if err != nil {
			return nil, err
		}
		if vr.N != n {
			return nil, fmt.Errorf("%w: Extend: Via is %d×%d, X has %d rows", ErrShape, vr.N, vr.N, n)
		}
		via := symFromRaw(vr)
		pinv, _, err := PseudoInverse(ctx, nil, via, rcond)
		if err != nil {
			return nil, fmt.Errorf("extend via: %w", err)
		}
		var m1 mat.Dense
		m1.Mul(P, via)
		P.Mul(&m1, pinv) // P ← X⁺·K¹·(K¹)⁺
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// PK = P·K (d×N); W = PK[:, cols]; Q = PK·Pᵀ.
	var PK mat.Dense
	PK.Mul(P, Ksym)
	W := mat.NewDense(d, len(cols), nil)
	for c, j := range cols {
		for i := 0; i < d; i++ {
			W.Set(i, c, PK.At(i, j))
		}
	}
	var q mat.Dense
	q.Mul(&PK, P.T())
	Q := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			Q.SetSym(i, j, 0.5*(q.At(i, j)+q.At(j, i)))
		}
	}
	return &Extension{n: n, d: d, rank: rank, cols: cols, w: W, q: Q}, nil
}

// Dims returns the number of training points N, features d and returned
// columns ℓ.
func (e *Extension) Dims() (n, d, cols int) { return e.n, e.d, len(e.cols) }

// Rank returns the numerical rank of X used in X⁺.
func (e *Extension) Rank() int { return e.rank }

// Columns returns a copy of the training indices of the returned columns.
func (e *Extension) Columns() []int { return append([]int(nil), e.cols...) }

// Rows returns the t×ℓ matrix of extended kernel values K_tℓ between the
// rows of Xt and the training points Columns (see Extension): one t×d by
// d×ℓ product. Errors: ErrEmpty, ErrNonFinite, ErrShape (Xt's feature count
// differs from training), or ctx.Err().
func (e *Extension) Rows(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	xt, err := e.test(ctx, Xt)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(xt.RawMatrix().Rows, len(e.cols), nil)
	out.Mul(xt, e.w)
	return out, nil
}

// Diag returns the extended self-similarities k(x, x) = α'·K_NN·α of the
// rows of Xt (β'·K²·β with β = (K¹)⁺K¹α for the two-step version), needed
// for kernel-induced distances d² = k(x,x) + K_jj - 2k(x, x_j). Errors as
// Rows.
func (e *Extension) Diag(ctx context.Context, Xt mat.Matrix) ([]float64, error) {
	xt, err := e.test(ctx, Xt)
	if err != nil {
		return nil, err
	}
	t := xt.RawMatrix().Rows
	out := make([]float64, t)
	for i := range out {
		r := xt.RawRowView(i)
		out[i] = mat.Inner(mat.NewVecDense(e.d, r), e.q, mat.NewVecDense(e.d, r))
	}
	return out, nil
}

func (e *Extension) test(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := newRows(Xt, "Xt")
	if err != nil {
		return nil, err
	}
	if r.d != e.d {
		return nil, fmt.Errorf("%w: Xt has %d features, training data %d", ErrShape, r.d, e.d)
	}
	m := mat.NewDense(r.n, r.d, nil)
	for i := 0; i < r.n; i++ {
		copy(m.RawRowView(i), r.row(i))
	}
	return m, nil
}
