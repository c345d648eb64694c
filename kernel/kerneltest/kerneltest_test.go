package kerneltest_test

import (
	"math"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/kernel/kerneltest"
)

func TestBuiltins(t *testing.T) {
	for _, k := range []kernel.Kernel{
		kernel.Linear{},
		kernel.Poly{A: 1, B: 1, Degree: 3},
		kernel.Poly{A: 0.0041, B: 1, Degree: 3},
		kernel.RBF{Gamma: 0.5},
		kernel.RBFSigma(4.082),
		kernel.Laplacian{Gamma: 1},
		kernel.Exponential{Gamma: 2},
	} {
		kerneltest.Run(t, k, kerneltest.Config{})
		kerneltest.Run(t, k, kerneltest.Config{N: 41, D: 13, Scale: 3, Seed: 7})
	}
}

// asym is not symmetric; sigmoid is symmetric but not PSD; the checker
// must catch both.
type asym struct{}

func (asym) Eval(x, y []float64) float64 { return x[0] + 2*y[0] }

type sigmoid struct{}

func (sigmoid) Eval(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += x[i] * y[i]
	}
	return math.Tanh(3*s - 1)
}

func TestCheckCatches(t *testing.T) {
	if errs := kerneltest.Check(asym{}, kerneltest.Config{}); len(errs) == 0 {
		t.Error("asymmetric kernel passed")
	}
	if errs := kerneltest.Check(sigmoid{}, kerneltest.Config{}); len(errs) == 0 {
		t.Error("non-PSD sigmoid kernel passed")
	}
	if errs := kerneltest.Check(sigmoid{}, kerneltest.Config{NotPSD: true}); len(errs) != 0 {
		t.Errorf("sigmoid with NotPSD: %v", errs)
	}
	if errs := kerneltest.Check(kernel.RBF{}, kerneltest.Config{}); len(errs) == 0 {
		t.Error("RBF with Gamma 0 passed")
	}
}
