package s4vm

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/internal/modelio"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted S4VM: the transductive labels of the n training rows
// and, for new points, one SVM per class pair trained on all of that
// pair's rows with their final (transductive) labels. It is immutable.
type Model struct {
	// Pairs reports each binary S4VM (one for two classes; one per pair
	// a < b of class indices for more), in the order of Machines.
	Pairs []Pair
	// Machines are the inductive predictors: f(x) = Σ_s Coef[s]·K(x, x_SV[s]) − Rho,
	// f > 0 votes for class index Pos, else Neg.
	Machines []Machine
	// Iter is the total number of SMO iterations; Converged is false
	// when some SVM fit stopped at its limit (see Warnings).
	Iter      int
	Converged bool
	Warnings  []error

	classes []int
	n       int
	trans   []int
}

// Pair describes one binary S4VM between class indices Pos (+1) and Neg.
type Pair struct {
	Pos, Neg int
	// Theta is the optimal worst-case gain θ of the safe combination;
	// Fallback is true when θ < −1e-5 and the labels are the inductive
	// SVM's (or when no row is unlabelled).
	Theta    float64
	Fallback bool
	// Inductive holds the inductive SVM's labels (±1) of the unlabelled
	// rows.
	Inductive []int8
	// Candidates is the number of local descents run, Groups the number
	// of k-medoids groups, Steps and Fits the refits of all descents
	// (Fits counts solves actually run), Iter the SMO iterations.
	Candidates, Groups, Steps, Fits, Iter int
	Converged                             bool
}

// Machine is one pairwise decision function over training rows SV.
type Machine struct {
	Pos, Neg int
	SV       []int
	Coef     []float64
	Rho      float64
}

// Classes returns the sorted class labels.
func (m *Model) Classes() []int { return slices.Clone(m.classes) }

// Transduction returns the label of every training row: labelled rows
// keep theirs, unlabelled rows get S4VM's (max-wins vote over pairs).
func (m *Model) Transduction() []int { return slices.Clone(m.trans) }

// Predict labels t new points from their t×n kernel rows against the
// training rows: each pairwise SVM (trained on the final transductive
// labels) votes, ties to the lower class. dst of length t is filled.
func (m *Model) Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error) {
	if Kt == nil {
		return nil, fmt.Errorf("%w: nil Kt", ErrShape)
	}
	t, n := Kt.Dims()
	if n != m.n {
		return nil, fmt.Errorf("%w: Kt is %d×%d, want t×%d (columns = the training rows)", ErrShape, t, n, m.n)
	}
	if len(dst) != t {
		dst = make([]int, t)
	}
	votes := make([]int, len(m.classes))
	for i := range t {
		if i&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		clear(votes)
		for _, mc := range m.Machines {
			s := 0.0
			for k, r := range mc.SV {
				v := Kt.At(i, r)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("%w: Kt[%d][%d] = %v", ErrNonFinite, i, r, v)
				}
				s += mc.Coef[k] * v
			}
			if s-mc.Rho > 0 {
				votes[mc.Pos]++
			} else {
				votes[mc.Neg]++
			}
		}
		dst[i] = m.classes[argmax(votes)]
	}
	return dst, nil
}

// Decision returns the pairwise decision values of the t new points (t ×
// len(Machines)).
func (m *Model) Decision(Kt mat.Matrix) (*mat.Dense, error) {
	t, n := Kt.Dims()
	if n != m.n {
		return nil, fmt.Errorf("%w: Kt is %d×%d, want t×%d", ErrShape, t, n, m.n)
	}
	d := mat.NewDense(t, len(m.Machines), nil)
	for i := range t {
		for p, mc := range m.Machines {
			s := 0.0
			for k, r := range mc.SV {
				s += mc.Coef[k] * Kt.At(i, r)
			}
			d.Set(i, p, s-mc.Rho)
		}
	}
	return d, nil
}

const (
	modelFormat  = "arbor-s4vm"
	modelVersion = 1
)

type modelJSON struct {
	Format    string        `json:"format"`
	Version   int           `json:"version"`
	Classes   []int         `json:"classes"`
	N         int           `json:"n_train"`
	Trans     []int         `json:"transduction"`
	Machines  []machineJSON `json:"machines"`
	Pairs     []pairJSON    `json:"pairs"`
	Iter      int           `json:"iter"`
	Converged bool          `json:"converged"`
	Warnings  []string      `json:"warnings"`
}

type machineJSON struct {
	Pos  int       `json:"pos"`
	Neg  int       `json:"neg"`
	SV   []int     `json:"sv"`
	Coef []float64 `json:"coef"`
	Rho  float64   `json:"rho"`
}

type pairJSON struct {
	Pos        int     `json:"pos"`
	Neg        int     `json:"neg"`
	Theta      float64 `json:"theta"`
	Fallback   bool    `json:"fallback"`
	Inductive  []int8  `json:"inductive"`
	Candidates int     `json:"candidates"`
	Groups     int     `json:"groups"`
	Steps      int     `json:"steps"`
	Fits       int     `json:"fits"`
	Iter       int     `json:"iter"`
	Converged  bool    `json:"converged"`
}

// Save writes the model as JSON (format "arbor-s4vm", version 1): classes,
// n_train, transduction, the pairwise machines, the pair reports, and the
// warnings as text.
func (m *Model) Save(w io.Writer) error {
	out := modelJSON{Format: modelFormat, Version: modelVersion, Classes: m.classes, N: m.n, Trans: m.trans,
		Iter: m.Iter, Converged: m.Converged, Warnings: []string{}}
	for _, mc := range m.Machines {
		mj := machineJSON{Pos: mc.Pos, Neg: mc.Neg, SV: mc.SV, Coef: mc.Coef, Rho: mc.Rho}
		if mj.SV == nil {
			mj.SV, mj.Coef = []int{}, []float64{}
		}
		out.Machines = append(out.Machines, mj)
	}
	for _, p := range m.Pairs {
		out.Pairs = append(out.Pairs, pairJSON{Pos: p.Pos, Neg: p.Neg, Theta: p.Theta, Fallback: p.Fallback,
			Inductive: p.Inductive, Candidates: p.Candidates, Groups: p.Groups, Steps: p.Steps, Fits: p.Fits,
			Iter: p.Iter, Converged: p.Converged})
	}
	for _, e := range m.Warnings {
		out.Warnings = append(out.Warnings, e.Error())
	}
	return modelio.Encode(w, out)
}

// savedWarning is a warning read back by Load (its text only).
type savedWarning string

func (e savedWarning) Error() string { return string(e) }

// Load reads a model written by Save. Errors wrap ErrFormat.
func Load(r io.Reader) (*Model, error) {
	var in modelJSON
	if err := modelio.Decode(r, &in, modelFormat, modelVersion, ErrFormat); err != nil {
		return nil, err
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
	}
	k := len(in.Classes)
	if k < 2 || !slices.IsSorted(in.Classes) || len(slices.Compact(slices.Clone(in.Classes))) != k {
		return nil, bad("classes %v: want ≥ 2 sorted distinct labels", in.Classes)
	}
	if in.N < 1 || len(in.Trans) != in.N {
		return nil, bad("n_train = %d with %d transduction labels", in.N, len(in.Trans))
	}
	for i, v := range in.Trans {
		if _, ok := slices.BinarySearch(in.Classes, v); !ok {
			return nil, bad("transduction[%d] = %d is not a class", i, v)
		}
	}
	if len(in.Machines) != k*(k-1)/2 || len(in.Pairs) != len(in.Machines) {
		return nil, bad("%d machines and %d pairs for %d classes, want %d", len(in.Machines), len(in.Pairs), k, k*(k-1)/2)
	}
	m := &Model{classes: in.Classes, n: in.N, trans: in.Trans, Iter: in.Iter, Converged: in.Converged}
	for p, mj := range in.Machines {
		if mj.Pos < 0 || mj.Neg <= mj.Pos || mj.Neg >= k {
			return nil, bad("machine %d: classes %d, %d", p, mj.Pos, mj.Neg)
		}
		if len(mj.SV) != len(mj.Coef) {
			return nil, bad("machine %d: %d support vectors, %d coefficients", p, len(mj.SV), len(mj.Coef))
		}
		for _, r := range mj.SV {
			if r < 0 || r >= in.N {
				return nil, bad("machine %d: support vector row %d outside [0, %d)", p, r, in.N)
			}
		}
		for _, c := range append(slices.Clone(mj.Coef), mj.Rho) {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return nil, bad("machine %d: non-finite coefficient", p)
			}
		}
		m.Machines = append(m.Machines, Machine{Pos: mj.Pos, Neg: mj.Neg, SV: mj.SV, Coef: mj.Coef, Rho: mj.Rho})
		pj := in.Pairs[p]
		m.Pairs = append(m.Pairs, Pair{Pos: pj.Pos, Neg: pj.Neg, Theta: pj.Theta, Fallback: pj.Fallback,
			Inductive: pj.Inductive, Candidates: pj.Candidates, Groups: pj.Groups, Steps: pj.Steps, Fits: pj.Fits,
			Iter: pj.Iter, Converged: pj.Converged})
	}
	for _, w := range in.Warnings {
		m.Warnings = append(m.Warnings, savedWarning(w))
	}
	return m, nil
}
