package svm

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestFitGramSym32: trained on the float32 Gram matrix (kernel.Gram32),
// every LIBSVM fixture gives the fixture's support vectors and
// predictions. With the RBF kernel the coefficients are within 1e-5·C and
// ρ within 1e-5 of the float64 fit: the solver's column cache is float32
// either way and K_ii = 1 is exact, so the two solves see the same
// numbers. With the linear kernel K_ii = ‖x‖² is rounded too (relative
// 6·10⁻⁸), which moves LIBSVM's path; both solutions meet the stopping
// tolerance 1e-3 on the KKT violation, and they agree within 5e-3·C
// (coefficients) and 1e-2 (ρ).
func TestFitGramSym32(t *testing.T) {
	fx := loadFixtures(t)
	ctx := context.Background()
	for i := range fx.SVC {
		f := &fx.SVC[i]
		t.Run(f.Name, func(t *testing.T) {
			k := f.kernel()
			if f.Kernel == "precomputed" {
				k = kernel.RBF{Gamma: f.Gamma}
			}
			X, Xt := dense(f.X), dense(f.Xt)
			K64, err := kernel.Gram(ctx, nil, k, X)
			if err != nil {
				t.Fatal(err)
			}
			K32, err := kernel.Gram32(ctx, nil, k, X)
			if err != nil {
				t.Fatal(err)
			}
			Kt, err := kernel.Cross(ctx, nil, k, Xt, X)
			if err != nil {
				t.Fatal(err)
			}
			c := f.classifier()
			m64, err := c.FitGram(ctx, K64, f.Y)
			if err != nil {
				t.Fatal(err)
			}
			m32, err := c.FitGram(ctx, K32, f.Y)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m32.SV, f.Support) || !slices.Equal(m32.SV, m64.SV) {
				t.Fatalf("support vectors\n got %v\nwant %v", m32.SV, f.Support)
			}
			tolC, tolRho := 1e-5*f.C, 1e-5
			if f.Kernel == "linear" {
				tolC, tolRho = 5e-3*f.C, 1e-2
			}
			for p := range m64.Machines {
				a, b := m32.Machines[p], m64.Machines[p]
				for q := range b.Coef {
					if math.Abs(a.Coef[q]-b.Coef[q]) > tolC {
						t.Errorf("machine %d coef[%d] = %.9g (float32), %.9g (float64)", p, q, a.Coef[q], b.Coef[q])
					}
				}
				if math.Abs(a.Rho-b.Rho) > tolRho {
					t.Errorf("machine %d rho = %.9g (float32), %.9g (float64)", p, a.Rho, b.Rho)
				}
			}
			pred, err := m32.Predict(ctx, nil, Kt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pred, f.Predict) {
				t.Errorf("predictions\n got %v\nwant %v", pred, f.Predict)
			}
		})
	}
}
