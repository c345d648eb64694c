package kernel

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/lanczos"
	"gonum.org/v1/gonum/mat"
)

// ErrDegenerate reports a multi-type cluster kernel that cannot be
// normalised: a point of zero degree (all its affinities underflowed) or a
// non-positive diagonal entry of the transformed matrix L̃ (the point has no
// weight in the kept spectrum).
var ErrDegenerate = errors.New("kernel: degenerate multi-type kernel")

// Transfer functions of MultiType.
const (
	TransferStep       = "step"       // φ(λ) = 1 if λ ≥ Cut, else 0
	TransferLinStep    = "linstep"    // φ(λ) = λ if λ ≥ Cut, else 0
	TransferPoly       = "poly"       // φ(λ) = λ^T
	TransferRandomWalk = "randomwalk" // eq. (3): L̃ = D^½·(D⁻¹W)^T·D^-½, T a positive integer
)

// MultiType is the multi-type cluster kernel of Chapelle, Weston & Schölkopf
// (2002, "Cluster kernels for semi-supervised learning", §3), as described
// in paper 002 §4.1.2:
//
//  1. W_ij = exp(−Gamma·‖x_i − x_j‖²), the Gaussian kernel matrix of all
//     points (Gamma = 1/(2σ²)); W_ii = 1, or 0 when ZeroDiag is set (the
//     affinity of Ng–Jordan–Weiss spectral clustering, Chapelle §2.3).
//  2. D = diag(W·1), L = D^-½·W·D^-½ = U·Λ·Uᵀ.
//  3. L̃ = U·φ(Λ)·Uᵀ with the transfer function φ named by Transfer:
//     "step" (1 for λ ≥ Cut, 0 otherwise: spectral-clustering
//     representation), "linstep" (λ for λ ≥ Cut, 0 otherwise: KPCA-like
//     truncation), "poly" (λ^T), or "randomwalk", which evaluates eq. (3)
//     literally, L̃ = D^½·Pᵀ·D^-½ with P = D⁻¹W the random-walk transition
//     matrix raised to the power T; since D^½·(D⁻¹W)^T·D^-½ = L^T, it equals
//     "poly" with the same integer T (up to rounding).
//  4. D̃ = diag(1/L̃_ii) and K = D̃^½·L̃·D̃^½, i.e. K_ij = L̃_ij/√(L̃_ii·L̃_jj),
//     so K has unit diagonal.
//
// With W_ii = 1 (the default, as Chapelle §3 and the reference numbers of
// paper 002 Table 1) W is positive semi-definite, so Λ ⊂ [0, 1]; K is then
// positive semi-definite for every transfer. With ZeroDiag, L has negative
// eigenvalues and poly/randomwalk with odd T can give an indefinite K, and
// non-integer T is refused.
//
// Computation: step and linstep need only the eigenpairs with λ ≥ Cut,
// found by thick-restart Lanczos (internal/lanczos) on a parallel symmetric
// matrix–vector product, O(N²·matvecs + N²·r) for r kept pairs. Integer T
// uses repeated squaring of L (or P), O(N³·log T) with no eigensolver;
// non-integer T needs the full eigendecomposition (gonum EigenSym, O(N³),
// slow for large N). Memory: a few N×N matrices.
//
// The zero value is not usable: Gamma > 0 and a Transfer are required.
type MultiType struct {
	// Gamma is the RBF parameter of W, 1/(2σ²); > 0.
	Gamma float64
	// Transfer is "step", "linstep", "poly" or "randomwalk".
	Transfer string
	// Cut is λ_cut of step and linstep, in (0, 1].
	Cut float64
	// T is the exponent of poly (> 0) and randomwalk (positive integer).
	T float64
	// ZeroDiag sets W_ii = 0 instead of 1.
	ZeroDiag bool
	// Seed fixes the Lanczos start vector (step and linstep).
	Seed uint64
	// Progress, if not nil, is called with stages "affinity", "eigen",
	// "transfer" and "normalise".
	Progress func(stage string, done, total int)
}

// Validate reports settings out of range (ErrBadParam).
func (m MultiType) Validate() error {
	if !(m.Gamma > 0) || math.IsInf(m.Gamma, 0) {
		return fmt.Errorf("%w: multitype: Gamma = %v, want > 0", ErrBadParam, m.Gamma)
	}
	switch m.Transfer {
	case TransferStep, TransferLinStep:
		if !(m.Cut > 0 && m.Cut <= 1) {
			return fmt.Errorf("%w: multitype %s: Cut = %v, want in (0, 1] (the eigenvalues of L lie in [-1, 1], the largest is 1)", ErrBadParam, m.Transfer, m.Cut)
		}
	case TransferPoly:
		if !(m.T > 0) || math.IsInf(m.T, 0) {
			return fmt.Errorf("%w: multitype poly: T = %v, want > 0", ErrBadParam, m.T)
		}
		if m.ZeroDiag && m.T != math.Trunc(m.T) {
			return fmt.Errorf("%w: multitype poly: non-integer T = %v needs W_ii = 1 (ZeroDiag gives negative eigenvalues)", ErrBadParam, m.T)
		}
	case TransferRandomWalk:
		if !(m.T >= 1) || m.T != math.Trunc(m.T) || m.T > 1<<30 {
			return fmt.Errorf("%w: multitype randomwalk: T = %v, want a positive integer", ErrBadParam, m.T)
		}
	default:
		return fmt.Errorf("%w: multitype: Transfer %q, want step, linstep, poly or randomwalk", ErrBadParam, m.Transfer)
	}
	return nil
}

func (m MultiType) progress(stage string, done, total int) {
	if m.Progress != nil {
		m.Progress(stage, done, total)
	}
}

// Gram returns the N×N multi-type cluster kernel of the rows of X (all
// points, labelled and unlabelled), in the shape of HCK.Gram and
// ISOMAP.Gram (Info is empty: no tree, no graph). Errors: ErrBadParam
// (settings), ErrEmpty, ErrNonFinite (X), ErrDegenerate, ErrEigen, or
// ctx.Err().
func (m MultiType) Gram(ctx context.Context, X mat.Matrix) (*mat.SymDense, Info, error) {
	if err := m.Validate(); err != nil {
		return nil, Info{}, err
	}
	m.progress("affinity", 0, 1)
	W, err := Gram(ctx, nil, RBF{Gamma: m.Gamma}, X)
	if err != nil {
		return nil, Info{}, err
	}
	m.progress("affinity", 1, 1)
	n := W.SymmetricDim()
	for i := 0; i < n; i++ {
		if m.ZeroDiag {
			W.SetSym(i, i, 0)
		} else {
			W.SetSym(i, i, 1)
		}
	}
	K, err := m.fromAffinity(ctx, W)
	return K, Info{}, err
}

// FromAffinity returns the multi-type kernel of a precomputed affinity
// matrix W (non-negative, symmetric), steps 2–4 above; Gamma and ZeroDiag
// are ignored and W's diagonal is used as given. W is not modified.
// Errors: ErrBadParam, ErrEmpty, ErrNonFinite (NaN, Inf or negative W_ij),
// ErrDegenerate, ErrEigen, or ctx.Err().
func (m MultiType) FromAffinity(ctx context.Context, W mat.Symmetric) (*mat.SymDense, error) {
	v := m
	v.Gamma = 1 // not used
	if err := v.Validate(); err != nil {
		return nil, err
	}
	if W == nil || W.SymmetricDim() == 0 {
		return nil, fmt.Errorf("%w: multitype: empty affinity matrix", ErrEmpty)
	}
	n := W.SymmetricDim()
	c := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			w := W.At(i, j)
			if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
				return nil, fmt.Errorf("%w: multitype: affinity W[%d,%d] = %v, want finite and ≥ 0", ErrNonFinite, i, j, w)
			}
			c.SetSym(i, j, w)
		}
	}
	return m.fromAffinity(ctx, c)
}

// fromAffinity runs steps 2–4 on W, which it overwrites.
func (m MultiType) fromAffinity(ctx context.Context, W *mat.SymDense) (*mat.SymDense, error) {
	n := W.SymmetricDim()
	raw := W.RawSymmetric()
	// Degrees, summed over the upper triangle in a fixed order.
	deg := make([]float64, n)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		deg[i] += row[i]
		for j := i + 1; j < n; j++ {
			deg[i] += row[j]
			deg[j] += row[j]
		}
	}
	for i, d := range deg {
		if !(d > 0) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("%w: point %d has degree %v (all its affinities are 0: Gamma too large?)", ErrDegenerate, i, d)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var lt *mat.SymDense
	var err error
	switch {
	case m.Transfer == TransferRandomWalk:
		lt, err = m.randomWalk(ctx, W, deg)
	default:
		// L = D^-½·W·D^-½ in place.
		isq := make([]float64, n)
		for i, d := range deg {
			isq[i] = 1 / math.Sqrt(d)
		}
		for i := 0; i < n; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			for j := i; j < n; j++ {
				row[j] *= isq[i] * isq[j]
			}
		}
		switch {
		case m.Transfer == TransferStep || m.Transfer == TransferLinStep:
			lt, err = m.spectral(ctx, W)
		case m.T == math.Trunc(m.T) && m.T <= 1<<30:
			lt, err = symPower(ctx, W, int(m.T))
		default:
			lt, err = m.eigenPower(ctx, W)
		}
	}
	if err != nil {
		return nil, err
	}
	m.progress("normalise", 0, 1)
	K, err := normaliseDiag(lt)
	if err != nil {
		return nil, err
	}
	m.progress("normalise", 1, 1)
	return K, nil
}

// spectral builds L̃ = Σ_{λ_i ≥ Cut} φ(λ_i)·u_i·u_iᵀ from the Lanczos pairs.
func (m MultiType) spectral(ctx context.Context, L *mat.SymDense) (*mat.SymDense, error) {
	n := L.SymmetricDim()
	var prog func(string, int, int)
	if m.Progress != nil {
		prog = func(_ string, done, total int) { m.Progress("eigen", done, total) }
	}
	res, err := lanczos.Solver{K: min(16, n), Seed: m.Seed, Progress: prog}.Above(ctx, lanczos.NewSym(L), m.Cut)
	if err != nil {
		return nil, err
	}
	if !res.Converged {
		return nil, fmt.Errorf("%w: multitype: Lanczos did not converge in %d restarts", ErrEigen, res.Iter)
	}
	r := len(res.Values)
	if r == 0 {
		return nil, fmt.Errorf("%w: no eigenvalue of L is ≥ Cut = %v", ErrDegenerate, m.Cut)
	}
	m.progress("transfer", 0, 1)
	// B = U·diag(√φ), L̃ = B·Bᵀ.
	B := mat.NewDense(n, r, nil)
	for c, lam := range res.Values {
		s := 1.0
		if m.Transfer == TransferLinStep {
			s = math.Sqrt(lam)
		}
		for i := 0; i < n; i++ {
			B.Set(i, c, s*res.Vectors.At(i, c))
		}
	}
	lt := mat.NewSymDense(n, nil)
	lt.SymOuterK(1, B)
	m.progress("transfer", 1, 1)
	return lt, nil
}

// eigenPower builds L̃ = U·max(Λ, 0)^T·Uᵀ with the full eigendecomposition
// (non-integer T; Λ ≥ 0 up to rounding because W_ii = 1).
func (m MultiType) eigenPower(ctx context.Context, L *mat.SymDense) (*mat.SymDense, error) {
	n := L.SymmetricDim()
	m.progress("eigen", 0, 1)
	var es mat.EigenSym
	if !es.Factorize(L, true) {
		return nil, fmt.Errorf("%w: multitype: EigenSym of %d×%d L failed", ErrEigen, n, n)
	}
	m.progress("eigen", 1, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	vals := es.Values(nil)
	var U mat.Dense
	es.VectorsTo(&U)
	for c, lam := range vals {
		if lam < -1e-8 {
			return nil, fmt.Errorf("%w: multitype poly: eigenvalue %v < 0 of L with non-integer T = %v (is the affinity positive semi-definite?)", ErrBadParam, lam, m.T)
		}
		s := math.Sqrt(math.Pow(math.Max(lam, 0), m.T))
		for i := 0; i < n; i++ {
			U.Set(i, c, s*U.At(i, c))
		}
	}
	lt := mat.NewSymDense(n, nil)
	lt.SymOuterK(1, &U)
	return lt, nil
}

// randomWalk evaluates eq. (3): L̃ = D^½·P^T·D^-½ with P = D⁻¹W, then
// symmetrises (L̃ + L̃ᵀ)/2 to remove rounding asymmetry.
func (m MultiType) randomWalk(ctx context.Context, W *mat.SymDense, deg []float64) (*mat.SymDense, error) {
	n := len(deg)
	P := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			P.Set(i, j, W.At(i, j)/deg[i])
		}
	}
	m.progress("transfer", 0, 1)
	Pt, err := densePower(ctx, P, int(m.T))
	if err != nil {
		return nil, err
	}
	lt := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a := math.Sqrt(deg[i]) * Pt.At(i, j) / math.Sqrt(deg[j])
			b := math.Sqrt(deg[j]) * Pt.At(j, i) / math.Sqrt(deg[i])
			lt.SetSym(i, j, (a+b)/2)
		}
	}
	m.progress("transfer", 1, 1)
	return lt, nil
}

// symPower returns L^t (t ≥ 1) by repeated squaring, symmetrised.
func symPower(ctx context.Context, L *mat.SymDense, t int) (*mat.SymDense, error) {
	n := L.SymmetricDim()
	if t == 1 {
		return L, nil
	}
	A := mat.NewDense(n, n, nil)
	A.Copy(L)
	P, err := densePower(ctx, A, t)
	if err != nil {
		return nil, err
	}
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, (P.At(i, j)+P.At(j, i))/2)
		}
	}
	return out, nil
}

// densePower returns A^t (t ≥ 1) by binary powering with gonum's
// (deterministic, block-parallel) matrix product.
func densePower(ctx context.Context, A *mat.Dense, t int) (*mat.Dense, error) {
	var result *mat.Dense
	base := A
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if t&1 == 1 {
			if result == nil {
				result = mat.DenseCopyOf(base)
			} else {
				var r mat.Dense
				r.Mul(result, base)
				result = &r
			}
		}
		t >>= 1
		if t == 0 {
			return result, nil
		}
		var sq mat.Dense
		sq.Mul(base, base)
		base = &sq
	}
}

// normaliseDiag returns K_ij = L̃_ij/√(L̃_ii·L̃_jj) (step 4), in place.
func normaliseDiag(lt *mat.SymDense) (*mat.SymDense, error) {
	n := lt.SymmetricDim()
	s := make([]float64, n)
	for i := range s {
		d := lt.At(i, i)
		if !(d > 0) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("%w: L̃[%d,%d] = %v, want > 0 (point %d has no weight in the transformed spectrum)", ErrDegenerate, i, i, d, i)
		}
		s[i] = 1 / math.Sqrt(d)
	}
	raw := lt.RawSymmetric()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := i; j < n; j++ {
			row[j] *= s[i] * s[j]
		}
		row[i] = 1
	}
	return lt, nil
}

// Phi is the transfer function φ of m on an eigenvalue s of the
// normalised affinity L: 1 (step) or s (linstep) when s ≥ Cut, else 0;
// s^T (poly and randomwalk).
func (m MultiType) Phi(s float64) float64 {
	switch m.Transfer {
	case TransferStep:
		if s >= m.Cut {
			return 1
		}
		return 0
	case TransferLinStep:
		if s >= m.Cut {
			return s
		}
		return 0
	}
	return math.Pow(s, m.T) // poly; randomwalk = poly with integer T
}
