package lanczos

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/arbor-ml/arbor/internal/gemm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Sentinel errors, usable with errors.Is.
var (
	ErrDim       = errors.New("lanczos: bad operator dimension")
	ErrK         = errors.New("lanczos: bad number of eigenpairs")
	ErrBadParam  = errors.New("lanczos: bad settings")
	ErrNonFinite = errors.New("lanczos: non-finite value in matrix-vector product")
)

// Defaults used when the corresponding Solver field is zero.
const (
	DefaultTol     = 1e-12
	DefaultMaxIter = 1000
	defaultAboveK  = 8
)

// Solver holds the settings of the thick-restart Lanczos method. The zero
// value of every field selects a default; Solver is never mutated.
type Solver struct {
	// K is the number of largest (algebraic) eigenpairs Top returns, or the
	// first guess of how many lie above the cut for Above (default 8).
	K int
	// NCV is the size of the Lanczos basis (default min(n, max(2K+1, K+20)),
	// SciPy's eigsh default). Must exceed K unless K = n.
	NCV int
	// Tol is the relative residual tolerance: pair i is converged when
	// ‖A·v_i − θ_i·v_i‖ ≤ Tol·max(|θ_i|, ε^{2/3}·‖A‖est), ARPACK's test,
	// or is below the round-off level √n·ε·‖A‖est (default 1e-12).
	Tol float64
	// MaxIter bounds the number of restarts (default 1000).
	MaxIter int
	// Seed fixes the start vector: normal deviates from rand.NewPCG(Seed, 1).
	Seed uint64
	// Progress, when not nil, is called after each restart with the number of
	// converged wanted pairs.
	Progress func(stage string, done, total int)
}

// Result holds the Ritz pairs found.
type Result struct {
	// Values are the eigenvalues in decreasing order.
	Values []float64
	// Vectors is n×len(Values); column i is the unit eigenvector of Values[i],
	// its largest-magnitude component made positive.
	Vectors *mat.Dense
	// Residuals are the residual-norm estimates ‖f‖·|y_i[m−1]| of ‖A·v_i − θ_i·v_i‖.
	Residuals []float64
	// Iter is the number of restarts and MatVecs the number of products A·x.
	Iter, MatVecs int
	// Converged reports whether every returned pair met Tol.
	Converged bool
}

func (s Solver) validate(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("%w: operator of size %d", ErrDim, n)
	case math.IsNaN(s.Tol) || s.Tol < 0:
		return fmt.Errorf("%w: Tol = %v, want ≥ 0", ErrBadParam, s.Tol)
	case s.MaxIter < 0:
		return fmt.Errorf("%w: MaxIter = %d, want ≥ 0", ErrBadParam, s.MaxIter)
	case s.NCV < 0:
		return fmt.Errorf("%w: NCV = %d, want ≥ 0", ErrBadParam, s.NCV)
	case s.K < 0:
		return fmt.Errorf("%w: K = %d, want ≥ 1", ErrK, s.K)
	}
	return nil
}

func (s Solver) tol() float64 {
	if s.Tol == 0 {
		return DefaultTol
	}
	return s.Tol
}

func (s Solver) maxIter() int {
	if s.MaxIter == 0 {
		return DefaultMaxIter
	}
	return s.MaxIter
}

// ncv returns the basis size for k wanted pairs of an n×n operator.
func (s Solver) ncv(k, n int) (int, error) {
	m := s.NCV
	if m == 0 {
		m = max(2*k+1, k+20)
	} else if m <= k && k < n {
		return 0, fmt.Errorf("%w: NCV = %d must exceed K = %d", ErrBadParam, m, k)
	}
	return min(m, n), nil
}

// Top returns the K largest (algebraic) eigenpairs of op.
func (s Solver) Top(ctx context.Context, op Operator) (*Result, error) {
	n := op.Len()
	if err := s.validate(n); err != nil {
		return nil, err
	}
	k := s.K
	if k < 1 || k > n {
		return nil, fmt.Errorf("%w: K = %d, want 1..%d", ErrK, k, n)
	}
	m, err := s.ncv(k, n)
	if err != nil {
		return nil, err
	}
	r := newRun(op, m, s.Seed)
	rz, conv, err := r.converge(ctx, k, s.tol(), s.maxIter(), s.Progress)
	if err != nil {
		return nil, err
	}
	return r.result(rz, k, conv), nil
}

// Above returns every eigenpair of op with eigenvalue ≥ cut, in decreasing
// order (possibly none). It runs Top with K pairs (default 8) and, while the
// smallest of them is still ≥ cut, doubles K and continues the same Lanczos
// process with a larger basis (nothing is recomputed).
func (s Solver) Above(ctx context.Context, op Operator, cut float64) (*Result, error) {
	n := op.Len()
	if err := s.validate(n); err != nil {
		return nil, err
	}
	if math.IsNaN(cut) || math.IsInf(cut, 0) {
		return nil, fmt.Errorf("%w: cut = %v", ErrBadParam, cut)
	}
	k := s.K
	if k == 0 {
		k = defaultAboveK
	}
	k = min(k, n)
	m, err := s.ncv(k, n)
	if err != nil {
		return nil, err
	}
	r := newRun(op, m, s.Seed)
	for {
		rz, conv, err := r.converge(ctx, k, s.tol(), s.maxIter(), s.Progress)
		if err != nil {
			return nil, err
		}
		if rz.theta[k-1] < cut || k == n || !conv {
			cnt := 0
			for cnt < k && rz.theta[cnt] >= cut {
				cnt++
			}
			return r.result(rz, cnt, conv), nil
		}
		k = min(2*k, n)
		m2 := min(max(m, max(2*k+1, k+20)), n)
		r.grow(m2)
		m = m2
	}
}

// run is the state of one thick-restart Lanczos process:
// A·V[:j] = V[:j]·T[:j,:j] + f·e_jᵀ with ‖f‖ = beta.
type run struct {
	op      Operator
	n, m    int
	v       []float64 // m×n row-major: basis vector i is v[i*n:(i+1)*n]
	vtmp    []float64
	t       []float64 // m×m row-major
	f       []float64
	beta    float64
	j       int
	w, h    []float64
	h2      []float64
	rng     *rand.Rand
	matvecs int
	iter    int
	anorm   float64
}

func newRun(op Operator, m int, seed uint64) *run {
	n := op.Len()
	r := &run{
		op: op, n: n, m: m,
		v:   make([]float64, m*n),
		t:   make([]float64, m*m),
		f:   make([]float64, n),
		w:   make([]float64, n),
		h:   make([]float64, m),
		h2:  make([]float64, m),
		rng: rand.New(rand.NewPCG(seed, 1)),
	}
	for i := range r.f {
		r.f[i] = r.rng.NormFloat64()
	}
	r.beta = 0 // j = 0: f is the start vector, normalised by step
	return r
}

// grow enlarges the basis capacity to m2 ≥ m, keeping the state.
func (r *run) grow(m2 int) {
	if m2 <= r.m {
		return
	}
	v := make([]float64, m2*r.n)
	copy(v, r.v[:r.j*r.n])
	t := make([]float64, m2*m2)
	for i := 0; i < r.j; i++ {
		copy(t[i*m2:i*m2+r.j], r.t[i*r.m:i*r.m+r.j])
	}
	r.v, r.t, r.m = v, t, m2
	r.h = make([]float64, m2)
	r.h2 = make([]float64, m2)
	r.vtmp = nil
}

func (r *run) basis(rows int) blas64.General {
	return blas64.General{Rows: rows, Cols: r.n, Stride: r.n, Data: r.v[:rows*r.n]}
}

// orth orthogonalises x against the first rows basis vectors by classical
// Gram–Schmidt, accumulating the coefficients in h[:rows], and repeats the
// projection once when the first one removed most of x (‖x‖ fell below
// η·‖x‖ before, η = 1/√2: the DGKS criterion of Daniel, Gragg, Kaufman &
// Stewart 1976, as ARPACK's dsaitr), when cancellation may have left x
// visibly non-orthogonal to the basis.
func (r *run) orth(x []float64, rows int, h []float64) {
	if rows == 0 {
		return
	}
	V := r.basis(rows)
	xv := blas64.Vector{N: r.n, Inc: 1, Data: x}
	hv := blas64.Vector{N: rows, Inc: 1, Data: h[:rows]}
	h2 := blas64.Vector{N: rows, Inc: 1, Data: r.h2[:rows]}
	before := floats.Norm(x, 2)
	blas64.Gemv(blas.NoTrans, 1, V, xv, 0, hv)
	blas64.Gemv(blas.Trans, -1, V, hv, 1, xv)
	if floats.Norm(x, 2) > dgks*before {
		return
	}
	blas64.Gemv(blas.NoTrans, 1, V, xv, 0, h2)
	blas64.Gemv(blas.Trans, -1, V, h2, 1, xv)
	floats.Add(h[:rows], r.h2[:rows])
}

// dgks is the DGKS threshold 1/√2 of orth.
const dgks = 0.7071067811865476

// step adds basis vector j and column j of T.
func (r *run) step() error {
	n, j, m := r.n, r.j, r.m
	vj := r.v[j*n : (j+1)*n]
	breakdown := j > 0 && r.beta <= float64(n)*eps*r.anorm
	if j == 0 {
		breakdown = floats.Norm(r.f, 2) == 0
	}
	if breakdown {
		// Invariant subspace found (or a zero start): continue with a random
		// direction orthogonal to the basis; its coupling to V is zero.
		for tries := 0; ; tries++ {
			for i := range r.f {
				r.f[i] = r.rng.NormFloat64()
			}
			r.orth(r.f, j, r.h)
			if nf := floats.Norm(r.f, 2); nf > 1e-8 || tries > 5 {
				break
			}
		}
	}
	nf := floats.Norm(r.f, 2)
	for i := range vj {
		vj[i] = r.f[i] / nf
	}
	w := r.w
	r.op.MulVec(w, vj)
	r.matvecs++
	for _, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: step %d", ErrNonFinite, r.matvecs)
		}
	}
	r.orth(w, j+1, r.h)
	for i := 0; i <= j; i++ {
		r.t[i*m+j] = r.h[i]
		r.t[j*m+i] = r.h[i]
	}
	copy(r.f, w)
	r.beta = floats.Norm(w, 2)
	r.anorm = math.Max(r.anorm, math.Abs(r.h[j])+r.beta)
	r.j++
	return nil
}

var (
	eps   = math.Nextafter(1, 2) - 1
	eps23 = math.Pow(eps, 2.0/3)
)

// ritz holds the Ritz pairs of T[:j,:j] in decreasing order.
type ritz struct {
	theta, bound []float64
	y            []float64 // j×j row-major, column i ↔ theta[i]
	j            int
}

func (r *run) ritz() ritz {
	j, m := r.j, r.m
	ts := mat.NewSymDense(j, nil)
	for a := 0; a < j; a++ {
		for b := a; b < j; b++ {
			ts.SetSym(a, b, r.t[a*m+b])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(ts, true) {
		panic("lanczos: EigenSym of the projected matrix failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	rz := ritz{theta: make([]float64, j), bound: make([]float64, j), y: make([]float64, j*j), j: j}
	for c := 0; c < j; c++ {
		src := j - 1 - c // ascending -> descending
		rz.theta[c] = vals[src]
		for a := 0; a < j; a++ {
			rz.y[a*j+c] = vecs.At(a, src)
		}
		rz.bound[c] = r.beta * math.Abs(rz.y[(j-1)*j+c])
		r.anorm = math.Max(r.anorm, math.Abs(vals[src]))
	}
	return rz
}

// converge runs restarts until the k largest Ritz pairs meet tol.
func (r *run) converge(ctx context.Context, k int, tol float64, maxIter int, progress func(string, int, int)) (ritz, bool, error) {
	for {
		for r.j < r.m {
			if err := ctx.Err(); err != nil {
				return ritz{}, false, err
			}
			if err := r.step(); err != nil {
				return ritz{}, false, err
			}
		}
		rz := r.ritz()
		nconv := 0
		floor := math.Sqrt(float64(r.n)) * eps * r.anorm // round-off level of ‖A·v − θ·v‖
		for i := 0; i < k; i++ {
			if rz.bound[i] <= math.Max(tol*math.Max(math.Abs(rz.theta[i]), eps23*r.anorm), floor) {
				nconv++
			}
		}
		if progress != nil {
			progress("lanczos", nconv, k)
		}
		if nconv == k || r.j == r.n {
			return rz, true, nil
		}
		if r.iter >= maxIter {
			return rz, false, nil
		}
		// Thick restart: keep the k wanted Ritz vectors plus up to half of
		// the others, more as pairs converge (ARPACK's nev adjustment).
		l := k + min(nconv, (r.m-k)/2)
		l = max(1, min(l, r.m-2))
		r.restart(rz, l)
		r.iter++
	}
}

// restart replaces the basis by the l leading Ritz vectors.
func (r *run) restart(rz ritz, l int) {
	n, j, m := r.n, r.j, r.m
	if len(r.vtmp) < l*n {
		r.vtmp = make([]float64, m*n)
	}
	gemm.Dgemm(blas.Trans, blas.NoTrans, l, n, j, 1, rz.y, j, r.v, n, 0, r.vtmp, n)
	copy(r.v[:l*n], r.vtmp[:l*n])
	clear(r.t)
	for i := 0; i < l; i++ {
		r.t[i*m+i] = rz.theta[i]
	}
	r.j = l
}

func (r *run) result(rz ritz, k int, conv bool) *Result {
	n, j := r.n, r.j
	res := &Result{
		Values:    append([]float64(nil), rz.theta[:k]...),
		Residuals: append([]float64(nil), rz.bound[:k]...),
		Iter:      r.iter,
		MatVecs:   r.matvecs,
		Converged: conv,
	}
	if k == 0 {
		res.Vectors = &mat.Dense{}
		return res
	}
	vec := mat.NewDense(n, k, nil)
	raw := vec.RawMatrix()
	gemm.Dgemm(blas.Trans, blas.NoTrans, n, k, j, 1, r.v, n, rz.y, j, 0, raw.Data, raw.Stride)
	for c := 0; c < k; c++ {
		big, at := -1.0, 0
		for i := 0; i < n; i++ {
			if a := math.Abs(raw.Data[i*raw.Stride+c]); a > big {
				big, at = a, i
			}
		}
		if raw.Data[at*raw.Stride+c] < 0 {
			for i := 0; i < n; i++ {
				raw.Data[i*raw.Stride+c] = -raw.Data[i*raw.Stride+c]
			}
		}
	}
	res.Vectors = vec
	return res
}
