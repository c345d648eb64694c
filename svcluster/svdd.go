package svcluster

import (
	"context"
	"fmt"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// solveSVDD fits the minimal enclosing sphere of eq. (2)-(5) with svm.SVDD.
func solveSVDD(ctx context.Context, x []float64, n, d int, c Clusterer) (svddSolution, error) {
	var k kernel.Kernel = kernel.RBF{Gamma: c.Q}
	if c.Kernel == Exponential {
		k = kernel.Exponential{Gamma: c.Q}
	}
	X := mat.NewDense(n, d, x)
	m, err := svm.SVDD{C: c.C, Kernel: k, Tol: c.Tol, CacheMB: c.CacheMB, MaxIter: c.MaxIter}.Fit(ctx, X)
	if err != nil {
		return svddSolution{}, fmt.Errorf("svcluster: SVDD at q = %g, C = %g: %w", c.Q, c.C, err)
	}
	return svddSolution{
		beta: m.Beta, r2: m.R2, bKb: m.BetaKBeta, sv: m.SV, bsv: m.BSV,
		iter: m.Iter, converged: m.Converged, warnings: m.Warnings,
	}, nil
}
