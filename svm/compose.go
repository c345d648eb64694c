package svm

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/kernel"
)

// Compose returns, for a model fitted on points with the linear kernel,
// the same classifier on inputs u whose points are x = u·A (A is d'×d, d
// the model's features). With the linear kernel each machine is
// f_p(x) = w_p·x − Rho_p, w_p = Σ_s Coef_s·x_s, so on u it is
// (A·w_p)·u − Rho_p: the returned model holds one pseudo support vector
// A·w_p (coefficient 1) per machine, and PredictPoints on u votes as m does
// on u·A (up to rounding: the sums are taken in another order) with d'·P
// instead of d'·d + d·nSV work per point; its Decision and, for a model
// fitted with Probability (the same Platt sigmoids and coupling order),
// Probabilities are m's on u·A up to that rounding. Landmark features z = k_L(x)·W
// are labelled this way from the kernel rows k_L(x) (package pipeline).
// The result is for prediction only (no training rows, not saved).
// Errors: ErrNoKernel (a FitGram model), ErrBadParam (another kernel),
// ErrShape (A has not d columns).
func (m *Model) Compose(A mat.Matrix) (*Model, error) {
	if m.Kernel == nil {
		return nil, fmt.Errorf("%w: Compose needs a model fitted on points", ErrNoKernel)
	}
	if _, ok := m.Kernel.(kernel.Linear); !ok {
		return nil, fmt.Errorf("%w: Compose needs the linear kernel, not %T", ErrBadParam, m.Kernel)
	}
	r, c := A.Dims()
	if m.svX != nil {
		if _, d := m.svX.Dims(); d != c {
			return nil, fmt.Errorf("%w: composing with a %d×%d map, the model has %d features", ErrShape, r, c, d)
		}
	}
	P := len(m.Machines)
	out := &Model{classes: m.classes, Kernel: kernel.Linear{}, OneVsRest: m.OneVsRest, NTrain: P,
		Probability: m.Probability, CouplingOrder: m.CouplingOrder,
		Iter: m.Iter, Converged: m.Converged, svX: mat.NewDense(max(P, 1), r, nil)}
	w := mat.NewVecDense(c, nil)
	v := mat.NewVecDense(r, nil)
	for p, mc := range m.Machines {
		w.Zero()
		for q, s := range mc.SV {
			w.AddScaledVec(w, mc.Coef[q], mat.NewVecDense(c, m.svX.RawRowView(s)))
		}
		v.MulVec(A, w)
		copy(out.svX.RawRowView(p), v.RawVector().Data)
		out.SV = append(out.SV, p)
		out.Machines = append(out.Machines, Machine{Pos: mc.Pos, Neg: mc.Neg, SV: []int{p}, Coef: []float64{1}, Rho: mc.Rho,
			Iter: mc.Iter, Converged: mc.Converged, ProbA: mc.ProbA, ProbB: mc.ProbB})
	}
	out.NSV = []int{P}
	return out, nil
}
