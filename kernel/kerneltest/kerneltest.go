// Package kerneltest checks the contract of a kernel.Kernel implementation:
// Eval is symmetric, Gram matrices on random data are symmetric positive
// semi-definite, kernel.Gram and kernel.Cross agree with pairwise Eval, and
// results do not depend on GOMAXPROCS.
//
// Use it from a test of any package that defines a kernel:
//
//	func TestMyKernel(t *testing.T) { kerneltest.Run(t, MyKernel{...}, kerneltest.Config{}) }
package kerneltest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Config sets the random data and tolerances; zero fields take defaults.
type Config struct {
	N, D  int     // points and features of the random data (default 60, 4)
	Scale float64 // data drawn uniformly from [-Scale, Scale] (default 1)
	Seed  uint64  // PCG seed (default 1)
	// Tol is the relative tolerance for Eval symmetry and for Gram/Cross
	// against pairwise Eval (default 1e-12: fast paths may sum differently).
	Tol float64
	// PSDTol: the smallest eigenvalue of a Gram matrix may be as low as
	// -PSDTol·largest (default 1e-9, rounding of the eigensolver).
	PSDTol float64
	// NotPSD skips the positive semi-definiteness check (for similarities
	// that are not Mercer kernels, e.g. sigmoid).
	NotPSD bool
}

func (c Config) withDefaults() Config {
	if c.N == 0 {
		c.N = 60
	}
	if c.D == 0 {
		c.D = 4
	}
	if c.Scale == 0 {
		c.Scale = 1
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Tol == 0 {
		c.Tol = 1e-12
	}
	if c.PSDTol == 0 {
		c.PSDTol = 1e-9
	}
	return c
}

// Run reports every contract violation of k (see Check) as a test error.
func Run(t *testing.T, k kernel.Kernel, cfg Config) {
	t.Helper()
	for _, err := range Check(k, cfg) {
		t.Errorf("%T%+v: %v", k, k, err)
	}
}

// Check returns the contract violations of k on random data (nil when it
// passes): asymmetric Eval, non-finite values, Gram or Cross differing from
// pairwise Eval, a Gram matrix that is not PSD, or results that change with
// GOMAXPROCS. It changes GOMAXPROCS temporarily, so do not call it from
// parallel tests.
func Check(k kernel.Kernel, cfg Config) []error {
	cfg = cfg.withDefaults()
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if err := kernel.Check(k); err != nil {
		return []error{err}
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 1))
	X := mat.NewDense(cfg.N, cfg.D, nil)
	for i := 0; i < cfg.N; i++ {
		for j := 0; j < cfg.D; j++ {
			X.Set(i, j, (2*rng.Float64()-1)*cfg.Scale)
		}
	}
	row := X.RawRowView
	near := func(a, b float64) bool {
		return math.Abs(a-b) <= cfg.Tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
	}

	// Eval: finite and symmetric.
	E := mat.NewDense(cfg.N, cfg.N, nil)
	for i := 0; i < cfg.N; i++ {
		for j := 0; j < cfg.N; j++ {
			v := k.Eval(row(i), row(j))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				fail("Eval(x%d, x%d) = %v", i, j, v)
				return errs
			}
			E.Set(i, j, v)
		}
	}
	for i := 0; i < cfg.N; i++ {
		for j := 0; j < i; j++ {
			if !near(E.At(i, j), E.At(j, i)) {
				fail("Eval not symmetric: k(x%d,x%d) = %v, k(x%d,x%d) = %v", i, j, E.At(i, j), j, i, E.At(j, i))
				return errs
			}
		}
	}

	// Gram and Cross against Eval, for GOMAXPROCS 1 and 2.
	ctx := context.Background()
	var grams [2]*mat.SymDense
	var crosses [2]*mat.Dense
	A := X.Slice(0, cfg.N/3+1, 0, cfg.D)
	for p := 1; p <= 2; p++ {
		old := runtime.GOMAXPROCS(p)
		g, err := kernel.Gram(ctx, nil, k, X)
		if err != nil {
			runtime.GOMAXPROCS(old)
			return append(errs, fmt.Errorf("Gram: %w", err))
		}
		c, err := kernel.Cross(ctx, nil, k, A, X)
		runtime.GOMAXPROCS(old)
		if err != nil {
			return append(errs, fmt.Errorf("Cross: %w", err))
		}
		grams[p-1], crosses[p-1] = g, c
	}
	if !mat.Equal(grams[0], grams[1]) {
		fail("Gram differs between GOMAXPROCS 1 and 2")
	}
	if !mat.Equal(crosses[0], crosses[1]) {
		fail("Cross differs between GOMAXPROCS 1 and 2")
	}
	G, C := grams[0], crosses[0]
	for i := 0; i < cfg.N; i++ {
		for j := 0; j < cfg.N; j++ {
			if !near(G.At(i, j), E.At(i, j)) {
				fail("Gram[%d,%d] = %v, Eval %v", i, j, G.At(i, j), E.At(i, j))
				return errs
			}
		}
	}
	ar, _ := A.Dims()
	for i := 0; i < ar; i++ {
		for j := 0; j < cfg.N; j++ {
			if !near(C.At(i, j), E.At(i, j)) {
				fail("Cross[%d,%d] = %v, Eval %v", i, j, C.At(i, j), E.At(i, j))
				return errs
			}
		}
	}

	if !cfg.NotPSD {
		var es mat.EigenSym
		if !es.Factorize(G, false) {
			return append(errs, fmt.Errorf("eigendecomposition of the Gram matrix failed"))
		}
		v := es.Values(nil)
		lo, hi := v[0], v[len(v)-1]
		if lo < -cfg.PSDTol*math.Max(hi, 0) {
			fail("Gram matrix not PSD: smallest eigenvalue %v, largest %v", lo, hi)
		}
	}
	return errs
}
