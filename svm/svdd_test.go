package svm

import (
	"context"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestSVDDOneClass checks SVDD against LIBSVM's one-class SVM with
// ν = 1/(N·C) (fixtures from gen_fixtures.py). With a Gaussian kernel
// (K_ii = 1) both problems have the same variables up to scale: β = C·α.
// Tolerances: β within 1e-6 (same SMO path; kernel values may differ in
// the last bits), the same SV/BSV split, and the identity
// R²(x) − R² = −2C·f(x) between paper 001's distance (eq. 10) and LIBSVM's
// decision value within 1e-6. Proposition 2.1: n_bsv < 1/C ≤ n_sv + n_bsv.
func TestSVDDOneClass(t *testing.T) {
	fx := loadFixtures(t)
	ctx := context.Background()
	for _, f := range fx.Oneclass {
		t.Run(f.Name, func(t *testing.T) {
			X, Xt := dense(f.X), dense(f.Xt)
			k := kernel.RBF{Gamma: f.Gamma}
			m, err := SVDD{C: f.C, Kernel: k}.Fit(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Converged {
				t.Fatal("not converged")
			}
			nsv, nbsv := 0, 0
			for i, a := range f.Alpha {
				if d := math.Abs(m.Beta[i] - f.C*a); d > 1e-6 {
					t.Errorf("beta[%d] = %.9g, want C·alpha = %.9g", i, m.Beta[i], f.C*a)
				}
				switch {
				case a >= 1:
					nbsv++
				case a > 0:
					nsv++
				}
			}
			if len(m.SV) != nsv || len(m.BSV) != nbsv {
				t.Errorf("n_sv, n_bsv = %d, %d; LIBSVM %d, %d", len(m.SV), len(m.BSV), nsv, nbsv)
			}
			invC := 1 / f.C
			if !(float64(len(m.BSV)) < invC && invC <= float64(len(m.SV)+len(m.BSV))+1e-9) {
				t.Errorf("Proposition 2.1 fails: n_bsv = %d, 1/C = %g, n_sv + n_bsv = %d", len(m.BSV), invC, len(m.SV)+len(m.BSV))
			}
			sum := 0.0
			for _, b := range m.Beta {
				sum += b
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("Σβ = %.15g, want 1", sum)
			}
			for i, fv := range f.Decision {
				x := Xt.RawRowView(i)
				got := m.Dist2(x) - m.R2
				if d := math.Abs(got - (-2 * f.C * fv)); d > 1e-6 {
					t.Errorf("x%d: R²(x) − R² = %.9g, want −2C·f(x) = %.9g", i, got, -2*f.C*fv)
				}
			}
			// FitGram on kernel.Gram gives the same sphere.
			K, err := kernel.Gram(ctx, nil, k, X)
			if err != nil {
				t.Fatal(err)
			}
			mg, err := SVDD{C: f.C}.FitGram(ctx, K)
			if err != nil {
				t.Fatal(err)
			}
			if mg.R2 != m.R2 || mg.Iter != m.Iter {
				t.Errorf("FitGram R² = %v (iter %d), Fit R² = %v (iter %d)", mg.R2, mg.Iter, m.R2, m.Iter)
			}
			n, _ := X.Dims()
			kx := make([]float64, n)
			for i := range Xt.RawMatrix().Rows {
				for j := range n {
					kx[j] = k.Eval(Xt.RawRowView(i), X.RawRowView(j))
				}
				if a, b := mg.Dist2Gram(kx, 1), m.Dist2(Xt.RawRowView(i)); math.Abs(a-b) > 1e-12 {
					t.Errorf("Dist2Gram = %v, Dist2 = %v", a, b)
				}
			}
		})
	}
}
