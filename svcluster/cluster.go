package svcluster

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/internal/finite"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Noise is the label of an outlier left unassigned (Clusterer.Unassigned).
const Noise = -1

// Defaults used when a setting is zero.
const (
	DefaultSamples = 10 // points sampled per segment, as the paper
	DefaultK       = 10 // neighbours of the KNNGraph labelling
	DefaultTol     = 1e-5
)

// Clusterer holds the settings of support vector clustering at one (q, C).
// The zero value of every field but Q and C is a sensible default.
type Clusterer struct {
	// Q is the kernel width q of eq. (6) (Gaussian) or q' of eq. (7)
	// (Exponential). Must be > 0.
	Q float64
	// C is the soft-margin constant, 1/N ≤ C ≤ 1 (the paper's 1/(N·C) is the
	// fraction p of outliers allowed; C = 1 allows none).
	C float64
	// Kernel is Gaussian (default) or Exponential (the paper's "Laplacian").
	Kernel KernelKind
	// Labelling selects the cluster labelling (default Complete).
	Labelling Labelling
	// Samples is the number m of points tested on each segment by eq. (17)
	// (default 10).
	Samples int
	// K is the number of neighbours for KNNGraph (default 10).
	K int
	// Unassigned leaves outliers (bounded support vectors) with label Noise.
	// By default each is assigned, as in the paper, to "the cluster to which
	// it is closest": the cluster of its nearest non-outlier point in input
	// space (Euclidean; ties to the lower row).
	Unassigned bool
	// Tol, CacheMB and MaxIter are passed to the SVDD solver (svm.SVDD).
	// Tol defaults to 1e-5 (a tight stopping rule keeps support vectors on
	// the contour, which the segment test needs).
	Tol     float64
	CacheMB float64
	MaxIter int
	// Progress, if not nil, is called with stages "svdd" and "labelling".
	Progress func(stage string, done, total int)
}

func (c Clusterer) withDefaults() Clusterer {
	if c.Samples == 0 {
		c.Samples = DefaultSamples
	}
	if c.K == 0 {
		c.K = DefaultK
	}
	if c.Tol == 0 {
		c.Tol = DefaultTol
	}
	return c
}

// validate checks the settings for n points.
func (c Clusterer) validate(n int) error {
	if !(c.Q > 0) || math.IsInf(c.Q, 0) {
		return fmt.Errorf("%w: q = %v", ErrBadQ, c.Q)
	}
	if err := checkC(c.C, n); err != nil {
		return err
	}
	if !c.Kernel.valid() {
		return fmt.Errorf("%w: %v", ErrBadKernel, c.Kernel)
	}
	if !c.Labelling.valid() {
		return fmt.Errorf("%w: %v", ErrBadLabelling, c.Labelling)
	}
	if c.Samples < 0 || c.K < 0 || c.Tol < 0 || c.CacheMB < 0 || c.MaxIter < 0 || math.IsNaN(c.Tol) || math.IsNaN(c.CacheMB) {
		return fmt.Errorf("%w: negative Samples, K, Tol, CacheMB or MaxIter", ErrBadParam)
	}
	return nil
}

func checkC(C float64, n int) error {
	lo := 1 / float64(n)
	if !(C >= lo*(1-1e-12)) || !(C <= 1) {
		return fmt.Errorf("%w: C = %v with N = %d (allowed [%.6g, 1]; 1/(N·C) = %.4g)", ErrBadC, C, n, lo, 1/(float64(n)*C))
	}
	return nil
}

// Clustering is the result of Clusterer.Fit.
type Clustering struct {
	// Labels holds one cluster id per input row: 0..NClusters−1 numbered by
	// the smallest row of each cluster's non-outlier members, or Noise.
	Labels    []int
	NClusters int
	// Sizes[c] counts the rows labelled c (outliers included when assigned).
	Sizes []int
	// Singletons counts clusters with one non-outlier member (a point that
	// broke off on its own, §3.2).
	Singletons int
	Q, C       float64
	Kernel     KernelKind
	Labelling  Labelling
	// SV are the rows with 0 < β < C (on the sphere), BSV the rows with
	// β = C (outliers, ξ > 0), both increasing. With C = 1 no point may lie
	// outside: BSV is empty and a point with β = 1 counts as a support
	// vector.
	SV, BSV   []int
	NSV, NBSV int
	// Beta are the multipliers β of eq. (3)-(5), one per row.
	Beta []float64
	// R2 is R² of eq. (11), R its square root.
	R2, R float64
	// PError is (n_sv + n_bsv)/N, the leave-one-out error estimate of eq. (14).
	PError    float64
	Iter      int
	Converged bool
	Warnings  []error

	ball *ball
}

// Dist2 returns R²(x) of eq. (10) for any point x of input space (len d).
// The contour of eq. (12) is Dist2(x) = R2.
func (c *Clustering) Dist2(x []float64) float64 { return c.ball.Dist2(x) }

// P returns 1/(N·C), the paper's outlier fraction parameter.
func (c *Clustering) P() float64 { return 1 / (float64(len(c.Labels)) * c.C) }

// Fit runs support vector clustering on the rows of X: the SVDD of
// eq. (5)/(8) at (Q, C), then the labelling of eq. (17) and, unless
// Unassigned, the assignment of outliers to the nearest cluster.
//
// Cost: the SVDD (SMO, O(N)–O(N^2.3) kernel evaluations) plus the labelling
// (see Labelling). Errors: ErrEmpty, ErrTooFewRows, ErrNonFinite, ErrBadQ,
// ErrBadC, ErrBadKernel, ErrBadLabelling, ErrBadParam, ErrAllOutliers,
// solver errors, and ctx.Err().
func (c Clusterer) Fit(ctx context.Context, X mat.Matrix) (*Clustering, error) {
	x, n, d, err := rowMajor(X)
	if err != nil {
		return nil, err
	}
	c = c.withDefaults()
	if err := c.validate(n); err != nil {
		return nil, err
	}
	if c.Progress != nil {
		c.Progress("svdd", 0, 0)
	}
	sol, err := solveSVDD(ctx, x, n, d, c)
	if err != nil {
		return nil, err
	}
	return c.label(ctx, x, n, d, sol)
}

// svddSolution is what the labelling needs from the solver.
type svddSolution struct {
	beta      []float64
	r2        float64
	bKb       float64 // βᵀKβ (NaN: compute)
	sv, bsv   []int
	iter      int
	converged bool
	warnings  []error
}

// label turns an SVDD solution into clusters.
func (c Clusterer) label(ctx context.Context, x []float64, n, d int, sol svddSolution) (*Clustering, error) {
	if c.C >= 1 && len(sol.bsv) > 0 {
		// With C = 1 nothing may lie outside (1/C = 1, no outliers): a point
		// carrying all the weight, β = C = 1, is on the sphere, not an
		// outlier (identical points give that solution).
		sv := append(append([]int(nil), sol.sv...), sol.bsv...)
		sort.Ints(sv)
		sol.sv, sol.bsv = sv, nil
	}
	var cx, beta []float64
	isBSV := make([]bool, n)
	for _, i := range sol.bsv {
		isBSV[i] = true
	}
	for i, b := range sol.beta {
		if b > 0 {
			cx = append(cx, x[i*d:i*d+d]...)
			beta = append(beta, b)
		}
	}
	b := &ball{kind: c.Kernel, q: c.Q, d: d, cx: cx, beta: beta, r2: sol.r2, bKb: sol.bKb}
	if math.IsNaN(sol.bKb) {
		b.bKb = b.quadForm()
	}
	inside := make([]int, 0, n-len(sol.bsv))
	for i := 0; i < n; i++ {
		if !isBSV[i] {
			inside = append(inside, i)
		}
	}
	if len(inside) == 0 {
		return nil, fmt.Errorf("%w (N = %d, C = %v)", ErrAllOutliers, n, c.C)
	}
	lab, k, err := label(ctx, labelInput{
		x: x, d: d, inside: inside, sv: sol.sv, b: b,
		m: c.Samples, k: c.K, method: c.Labelling, progress: c.Progress,
	})
	if err != nil {
		return nil, err
	}
	res := &Clustering{
		Labels: make([]int, n), NClusters: k, Q: c.Q, C: c.C, Kernel: c.Kernel, Labelling: c.Labelling,
		SV: sol.sv, BSV: sol.bsv, NSV: len(sol.sv), NBSV: len(sol.bsv), Beta: sol.beta,
		R2: sol.r2, R: math.Sqrt(math.Max(sol.r2, 0)),
		PError: float64(len(sol.sv)+len(sol.bsv)) / float64(n),
		Iter:   sol.iter, Converged: sol.converged, Warnings: sol.warnings, ball: b,
	}
	inner := make([]int, k)
	for p, i := range inside {
		res.Labels[i] = lab[p]
		inner[lab[p]]++
	}
	for _, s := range inner {
		if s == 1 {
			res.Singletons++
		}
	}
	nearest := make([]int, len(sol.bsv))
	if !c.Unassigned {
		_ = parallel.For(context.Background(), len(sol.bsv), func(p int) {
			nearest[p] = nearestRow(x, d, sol.bsv[p], inside)
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for p, i := range sol.bsv {
		if c.Unassigned {
			res.Labels[i] = Noise
		} else {
			res.Labels[i] = res.Labels[inside[nearest[p]]]
		}
	}
	res.Sizes = make([]int, k)
	for _, l := range res.Labels {
		if l >= 0 {
			res.Sizes[l]++
		}
	}
	return res, nil
}

// rowMajor copies X into a row-major slice and checks it.
func rowMajor(X mat.Matrix) ([]float64, int, int, error) {
	if X == nil {
		return nil, 0, 0, ErrEmpty
	}
	n, d := X.Dims()
	if n == 0 || d == 0 {
		return nil, 0, 0, fmt.Errorf("%w: %d×%d matrix", ErrEmpty, n, d)
	}
	if n < 2 {
		return nil, 0, 0, fmt.Errorf("%w: got %d", ErrTooFewRows, n)
	}
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x[i*d+j] = X.At(i, j)
		}
	}
	if i, j, v, bad := finite.Find(x, n, d, d); bad {
		return nil, 0, 0, fmt.Errorf("%w: row %d, column %d is %v", ErrNonFinite, i, j, v)
	}
	return x, n, d, nil
}

// Dist2Rows returns R²(x) of eq. (10) for every row x of X (len d columns),
// in parallel; the contour of eq. (12) is the level R2. A nil dst allocates.
// It panics if X has the wrong number of columns or dst the wrong length.
func (c *Clustering) Dist2Rows(dst []float64, X mat.Matrix) []float64 {
	n, d := X.Dims()
	if d != c.ball.d {
		panic(fmt.Sprintf("svcluster: Dist2Rows on %d columns, fitted on %d", d, c.ball.d))
	}
	if dst == nil {
		dst = make([]float64, n)
	}
	if len(dst) != n {
		panic("svcluster: Dist2Rows destination length mismatch")
	}
	_ = parallel.For(context.Background(), n, func(i int) {
		x := make([]float64, d)
		mat.Row(x, i, X)
		dst[i] = c.ball.Dist2(x)
	})
	return dst
}
