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
			// KKT in paper 001's terms (with the solver's slack 2·C·Tol):
			// β = 0 inside, 0 < β < C on the sphere, β = C outside.
			slack := 2 * m.C * m.Tol
			for i := range f.X {
				d2 := m.Dist2(f.X[i])
				b := m.Beta[i]
				switch {
				case b == 0 && d2 > m.R2+slack:
					t.Errorf("row %d: β = 0 but R²(x) − R² = %g", i, d2-m.R2)
				case b >= m.C && d2 < m.R2-slack:
					t.Errorf("row %d: β = C but R²(x) − R² = %g", i, d2-m.R2)
				case b > 0 && b < m.C && math.Abs(d2-m.R2) > slack:
					t.Errorf("row %d: support vector with R²(x) − R² = %g", i, d2-m.R2)
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

// TestSVDDLinearTerm exercises p ≠ 0 (a kernel with varying K_ii, the
// linear kernel: SVDD is then the classic minimal enclosing ball of the
// points). Checks: Σβ = 1, 0 ≤ β ≤ C, Proposition 2.1 and the KKT
// conditions in paper 001's terms, R²(x_i) computed independently by eq. 10.
func TestSVDDLinearTerm(t *testing.T) {
	ctx := context.Background()
	fx := loadFixtures(t)
	X := dense(fx.Oneclass[0].X)
	for _, C := range []float64{1, 0.1, 0.03} {
		m, err := SVDD{C: C, Kernel: kernel.Linear{}, Tol: 1e-6}.Fit(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, b := range m.Beta {
			sum += b
			if b < 0 || b > C {
				t.Errorf("C=%g: β = %g outside [0, C]", C, b)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("C=%g: Σβ = %v", C, sum)
		}
		if !(float64(len(m.BSV)) < 1/C && 1/C <= float64(len(m.SV)+len(m.BSV))+1e-9) {
			t.Errorf("C=%g: Proposition 2.1 fails (n_bsv %d, n_sv %d)", C, len(m.BSV), len(m.SV))
		}
		// centre a = Σβ_i x_i, R²(x) = ‖x − a‖².
		r, d := X.Dims()
		a := make([]float64, d)
		for i := range r {
			for j := range d {
				a[j] += m.Beta[i] * X.At(i, j)
			}
		}
		slack := 2 * C * m.Tol * 10
		for i := range r {
			d2 := 0.0
			for j := range d {
				d2 += (X.At(i, j) - a[j]) * (X.At(i, j) - a[j])
			}
			if math.Abs(d2-m.Dist2(X.RawRowView(i))) > 1e-9 {
				t.Fatalf("Dist2 = %v, ‖x − a‖² = %v", m.Dist2(X.RawRowView(i)), d2)
			}
			b := m.Beta[i]
			switch {
			case b == 0 && d2 > m.R2+slack:
				t.Errorf("C=%g row %d: β = 0 but outside by %g", C, i, d2-m.R2)
			case b >= C && d2 < m.R2-slack:
				t.Errorf("C=%g row %d: β = C but inside by %g", C, i, m.R2-d2)
			case b > 0 && b < C && math.Abs(d2-m.R2) > slack:
				t.Errorf("C=%g row %d: support vector off the sphere by %g", C, i, d2-m.R2)
			}
		}
	}
}
