package hibust

import (
	"context"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// NodeLearner labels the unlabelled rows of the binary problem at one
// internal node of the tree (paper 003 Fig. 4 line 10, an S4VM in the
// paper). K is the m×m kernel block over the node's rows; y[i] is 0 (a
// labelled row of the left subtree), 1 (of the right subtree) or
// Unlabeled. The result has a side, 0 or 1, for every row; labelled rows
// keep theirs.
type NodeLearner interface {
	Transduce(ctx context.Context, K mat.Symmetric, y []int) ([]int, error)
}

// S4VM is the default node learner (its Transduce method).
var _ NodeLearner = s4vm.S4VM{}

// SVMNode is the inductive C-SVC as node learner: trained on the node's
// labelled rows, applied to its unlabelled rows. It is HiBUST with the
// S4VM's fallback at every node, and the node learner of tests.
type SVMNode struct {
	// C is the soft-margin penalty (0 = 100, S4VM's C1).
	C float64
}

// Transduce implements NodeLearner.
func (s SVMNode) Transduce(ctx context.Context, K mat.Symmetric, y []int) ([]int, error) {
	C := s.C
	if C == 0 {
		C = 100
	}
	m, err := svm.Classifier{C: C, AllowSingleton: true}.FitGram(ctx, K, y)
	if err != nil {
		return nil, err
	}
	return m.Transduction(), nil
}

// LearnerNode adapts any learner of the Arbor contract (for example
// s4vm's) to a NodeLearner: FitGram on the block, then Transduction.
type LearnerNode struct {
	Learner learner.Learner
}

// Transduce implements NodeLearner.
func (l LearnerNode) Transduce(ctx context.Context, K mat.Symmetric, y []int) ([]int, error) {
	m, err := l.Learner.FitGram(ctx, K, y)
	if err != nil {
		return nil, err
	}
	t := m.Transduction()
	if len(t) != len(y) {
		return nil, fmt.Errorf("hibust: node learner %s returned %d labels for %d rows", l.Learner.Name(), len(t), len(y))
	}
	for i, c := range t {
		if c != 0 && c != 1 {
			return nil, fmt.Errorf("hibust: node learner %s labelled row %d with %d, want side 0 or 1", l.Learner.Name(), i, c)
		}
	}
	return t, nil
}

// subBlock copies K[rows, rows] from the gram.
func (g *gram) subBlock(rows []int) *mat.SymDense {
	m := len(rows)
	data := make([]float64, m*m)
	for a, i := range rows {
		ri := g.row(i)
		o := data[a*m : (a+1)*m]
		for b, j := range rows {
			o[b] = ri[j]
		}
	}
	return mat.NewSymDense(m, data)
}

// router fits the C-SVC that sends new points down from one node: rows
// with their final sides (0 left, 1 right). It returns training rows,
// coefficients and ρ with f(x) = Σ coef·k(x, sv) − ρ > 0 meaning right.
func router(ctx context.Context, g *gram, C float64, rows, side []int) ([]int, []float64, float64, error) {
	right := 0
	for _, s := range side {
		right += s
	}
	switch right {
	case 0:
		return nil, nil, 1, nil // every row went left: f ≡ −1
	case len(side):
		return nil, nil, -1, nil // every row went right: f ≡ +1
	}
	K := g.subBlock(rows)
	m, err := svm.Classifier{C: C, AllowSingleton: true}.FitGram(ctx, K, side)
	if err != nil {
		return nil, nil, 0, err
	}
	mc := m.Machines[0]
	sign := 1.0
	if m.Classes()[mc.Pos] != 1 {
		sign = -1
	}
	sv := make([]int, len(mc.SV))
	coef := make([]float64, len(mc.SV))
	for s, pos := range mc.SV {
		sv[s] = rows[m.SV[pos]]
		coef[s] = sign * mc.Coef[s]
	}
	rho := sign * mc.Rho
	if math.IsNaN(rho) {
		return nil, nil, 0, fmt.Errorf("%w: router ρ is NaN", ErrNonFinite)
	}
	return sv, coef, rho, nil
}
