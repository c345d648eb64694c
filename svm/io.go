package svm

import (
	"fmt"
	"io"
	"slices"

	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

const modelFormat = "arbor-svm"
const modelVersion = 1

type kernelJSON struct {
	Type   string  `json:"type"`
	Gamma  float64 `json:"gamma,omitempty"`
	A      float64 `json:"a,omitempty"`
	B      float64 `json:"b,omitempty"`
	Degree int     `json:"degree,omitempty"`
}

type machineJSON struct {
	Pos       int       `json:"pos"`
	Neg       int       `json:"neg"`
	SV        []int     `json:"sv"`
	Coef      []float64 `json:"coef"`
	Rho       float64   `json:"rho"`
	Objective float64   `json:"objective"`
	NBSV      int       `json:"nbsv"`
	Iter      int       `json:"iter"`
	Converged bool      `json:"converged"`
	ProbA     float64   `json:"prob_a"`
	ProbB     float64   `json:"prob_b"`
}

type modelJSON struct {
	Format      string        `json:"format"`
	Version     int           `json:"version"`
	Classes     []int         `json:"classes"`
	Kernel      kernelJSON    `json:"kernel"`
	OneVsRest   bool          `json:"one_vs_rest"`
	NTrain      int           `json:"n_train"`
	SV          []int         `json:"sv"`
	NSV         []int         `json:"nsv"`
	SVX         [][]float64   `json:"sv_x,omitempty"`
	Probability bool          `json:"probability"`
	Iter        int           `json:"iter"`
	Converged   bool          `json:"converged"`
	Machines    []machineJSON `json:"machines"`
	// Transduction (optional, absent from files of older versions) labels
	// the n_train rows.
	Transduction []int `json:"transduction,omitempty"`
	// CouplingOrder (optional) is Model.CouplingOrder.
	CouplingOrder []int `json:"coupling_order,omitempty"`
}

func encodeKernel(k kernel.Kernel) (kernelJSON, error) {
	switch k := k.(type) {
	case nil:
		return kernelJSON{Type: "precomputed"}, nil
	case kernel.Linear:
		return kernelJSON{Type: "linear"}, nil
	case kernel.Poly:
		return kernelJSON{Type: "poly", A: k.A, B: k.B, Degree: k.Degree}, nil
	case kernel.RBF:
		return kernelJSON{Type: "rbf", Gamma: k.Gamma}, nil
	case kernel.Laplacian:
		return kernelJSON{Type: "laplacian", Gamma: k.Gamma}, nil
	case kernel.Exponential:
		return kernelJSON{Type: "exponential", Gamma: k.Gamma}, nil
	}
	return kernelJSON{}, fmt.Errorf("%w: cannot save kernel of type %T (supported: linear, poly, rbf, laplacian, exponential, precomputed)", ErrFormat, k)
}

func (kj kernelJSON) decode() (kernel.Kernel, error) {
	var k kernel.Kernel
	switch kj.Type {
	case "precomputed":
		return nil, nil
	case "linear":
		k = kernel.Linear{}
	case "poly":
		k = kernel.Poly{A: kj.A, B: kj.B, Degree: kj.Degree}
	case "rbf":
		k = kernel.RBF{Gamma: kj.Gamma}
	case "laplacian":
		k = kernel.Laplacian{Gamma: kj.Gamma}
	case "exponential":
		k = kernel.Exponential{Gamma: kj.Gamma}
	default:
		return nil, fmt.Errorf("%w: unknown kernel type %.40q", ErrFormat, kj.Type)
	}
	if err := kernel.Check(k); err != nil {
		return nil, fmt.Errorf("%w: kernel: %w", ErrFormat, err)
	}
	return k, nil
}

// Save writes m as one JSON object:
//
//	{
//	  "format": "arbor-svm",          // fixed
//	  "version": 1,                   // schema version; Load rejects others
//	  "classes": [0, 1, 2],           // sorted labels
//	  "kernel": {"type": "rbf", "gamma": 0.5},
//	      // "linear" | "poly" (a, b, degree) | "rbf" | "laplacian" |
//	      // "exponential" (gamma) | "precomputed" (FitGram: predict with
//	      // PredictGram on t×n_train kernel rows)
//	  "one_vs_rest": false,
//	  "n_train": 150,                 // training rows (columns of Kt)
//	  "sv": [3, 17, ...],             // training rows of the support vectors
//	  "nsv": [2, 5, 4],               // support vectors per class
//	  "sv_x": [[5.1, 3.5, ...], ...], // support vector points (point kernels)
//	  "probability": false,
//	  "iter": 123, "converged": true,
//	  "machines": [{"pos": 0, "neg": 1, "sv": [0, 4], "coef": [0.5, -0.5],
//	                "rho": 0.1, "objective": -1.2, "nbsv": 0, "iter": 40,
//	                "converged": true, "prob_a": 0, "prob_b": 0}, ...],
//	  "transduction": [0, 1, 1, ...]  // label of each training row (optional)
//	}
//
// Machine "sv" entries index the top-level "sv" list; "neg" is -1 for
// one-vs-rest machines. Numbers are written with Go's shortest round-trip
// formatting, so Load(Save(m)) predicts bit-identically.
//
// Errors: ErrFormat for a kernel type it cannot describe (kernels from
// other packages), or the writer's error.
func (m *Model) Save(w io.Writer) error {
	kj, err := encodeKernel(m.Kernel)
	if err != nil {
		return err
	}
	out := modelJSON{
		Format: modelFormat, Version: modelVersion, Classes: m.classes, Kernel: kj,
		OneVsRest: m.OneVsRest, NTrain: m.NTrain, SV: m.SV, NSV: m.NSV,
		Probability: m.Probability, Iter: m.Iter, Converged: m.Converged,
		Transduction: m.transduction, CouplingOrder: m.CouplingOrder,
	}
	if out.SV == nil {
		out.SV = []int{}
	}
	if m.svX != nil {
		for s := range m.SV {
			out.SVX = append(out.SVX, m.svX.RawRowView(s))
		}
	}
	for _, mc := range m.Machines {
		mj := machineJSON{Pos: mc.Pos, Neg: mc.Neg, SV: mc.SV, Coef: mc.Coef, Rho: mc.Rho,
			Objective: mc.Objective, NBSV: mc.NBSV, Iter: mc.Iter, Converged: mc.Converged,
			ProbA: mc.ProbA, ProbB: mc.ProbB}
		if mj.SV == nil {
			mj.SV, mj.Coef = []int{}, []float64{}
		}
		out.Machines = append(out.Machines, mj)
	}
	return modelio.Encode(w, out)
}

// Load reads a model written by Save and checks its consistency. Errors:
// ErrFormat (wrong format or version, inconsistent sizes, indices out of
// range, non-finite numbers, bad kernel parameters) or the reader's error.
func Load(r io.Reader) (*Model, error) {
	var in modelJSON
	if err := modelio.Decode(r, &in, modelFormat, modelVersion, ErrFormat); err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, args...))
	}
	k := len(in.Classes)
	if k < 2 || !slices.IsSorted(in.Classes) || len(slices.Compact(slices.Clone(in.Classes))) != k {
		return nil, bad("classes %v: want ≥ 2 sorted distinct labels", in.Classes)
	}
	kern, err := in.Kernel.decode()
	if err != nil {
		return nil, err
	}
	if in.NTrain < 1 {
		return nil, bad("n_train = %d", in.NTrain)
	}
	for _, r := range in.SV {
		if r < 0 || r >= in.NTrain {
			return nil, bad("support vector row %d outside [0, %d)", r, in.NTrain)
		}
	}
	if len(in.NSV) != k {
		return nil, bad("nsv has %d entries for %d classes", len(in.NSV), k)
	}
	total := 0
	for _, c := range in.NSV {
		if c < 0 {
			return nil, bad("negative nsv")
		}
		total += c
	}
	if total != len(in.SV) {
		return nil, bad("nsv sums to %d, sv has %d rows", total, len(in.SV))
	}
	want := k * (k - 1) / 2
	if in.OneVsRest {
		want = k
	}
	if len(in.Machines) != want {
		return nil, bad("%d machines, want %d", len(in.Machines), want)
	}
	m := &Model{classes: in.Classes, Kernel: kern, OneVsRest: in.OneVsRest, NTrain: in.NTrain,
		SV: in.SV, NSV: in.NSV, Probability: in.Probability, Iter: in.Iter, Converged: in.Converged}
	p := 0
	for q, mj := range in.Machines {
		var wp, wn int
		if in.OneVsRest {
			wp, wn = q, -1
		} else {
			wp, wn = pairAt(k, p)
			p++
		}
		if mj.Pos != wp || mj.Neg != wn {
			return nil, bad("machine %d is (%d,%d), want (%d,%d)", q, mj.Pos, mj.Neg, wp, wn)
		}
		if len(mj.SV) != len(mj.Coef) {
			return nil, bad("machine %d: %d sv, %d coef", q, len(mj.SV), len(mj.Coef))
		}
		for t, s := range mj.SV {
			if s < 0 || s >= len(in.SV) {
				return nil, bad("machine %d: sv position %d outside [0, %d)", q, s, len(in.SV))
			}
			if !finite(mj.Coef[t]) {
				return nil, bad("machine %d: non-finite coefficient", q)
			}
		}
		if !finite(mj.Rho) || !finite(mj.ProbA) || !finite(mj.ProbB) {
			return nil, bad("machine %d: non-finite rho or Platt parameter", q)
		}
		m.Machines = append(m.Machines, Machine{Pos: mj.Pos, Neg: mj.Neg, SV: mj.SV, Coef: mj.Coef,
			Rho: mj.Rho, Objective: mj.Objective, NBSV: mj.NBSV, Iter: mj.Iter, Converged: mj.Converged,
			ProbA: mj.ProbA, ProbB: mj.ProbB})
	}
	if in.CouplingOrder != nil {
		seen := make([]bool, k)
		for _, c := range in.CouplingOrder {
			if c < 0 || c >= k || seen[c] {
				return nil, bad("coupling_order %v: want a permutation of 0..%d", in.CouplingOrder, k-1)
			}
			seen[c] = true
		}
		if len(in.CouplingOrder) != k || in.OneVsRest {
			return nil, bad("coupling_order %v for %d classes (one-vs-rest %v)", in.CouplingOrder, k, in.OneVsRest)
		}
		m.CouplingOrder = in.CouplingOrder
	}
	if in.Transduction != nil {
		if len(in.Transduction) != in.NTrain {
			return nil, bad("transduction has %d labels for %d training rows", len(in.Transduction), in.NTrain)
		}
		for i, c := range in.Transduction {
			if _, ok := slices.BinarySearch(in.Classes, c); !ok {
				return nil, bad("transduction[%d] = %d is not a class", i, c)
			}
		}
		m.transduction = in.Transduction
	}
	if kern != nil && len(in.SV) > 0 {
		if len(in.SVX) != len(in.SV) {
			return nil, bad("sv_x has %d rows for %d support vectors", len(in.SVX), len(in.SV))
		}
		d := len(in.SVX[0])
		if d == 0 {
			return nil, bad("sv_x rows are empty")
		}
		m.svX = mat.NewDense(len(in.SVX), d, nil)
		for s, row := range in.SVX {
			if len(row) != d {
				return nil, bad("sv_x row %d has %d values, want %d", s, len(row), d)
			}
			for _, v := range row {
				if !finite(v) {
					return nil, bad("sv_x row %d: non-finite value", s)
				}
			}
			m.svX.SetRow(s, row)
		}
	} else if len(in.SVX) > 0 {
		return nil, bad("sv_x given for a precomputed-kernel model")
	}
	return m, nil
}

// pairAt returns the p-th one-vs-one pair (a, b) of k classes in LIBSVM
// order.
func pairAt(k, p int) (int, int) {
	for a := range k {
		for b := a + 1; b < k; b++ {
			if p == 0 {
				return a, b
			}
			p--
		}
	}
	return -1, -1
}
