package svcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/internal/modelio"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// ErrNeedDiag: Predict was given kernel rows of a model whose kernel is not
// known to have k(x, x) = 1 (a model fitted by FitGram); use PredictDiag.
var ErrNeedDiag = errors.New("svcluster: kernel rows need the self-similarities k(x, x) (use PredictDiag)")

// ErrFormat: Load met a file that is not a saved svcluster model.
var ErrFormat = errors.New("svcluster: not a saved svcluster model")

// Model is a fitted support vector clustering in the form of Arbor's
// learner contract (package learner): indexed by its n training rows, it
// labels new points given their kernel rows against those rows.
//
// Prediction rule (documented here because support vector clustering,
// paper 001, defines clusters only for the training points). For a new
// point x with kernel row k_x (len n) and self-similarity k(x, x):
//
//	R²(x) = k(x, x) − 2 Σ_i β_i k_x[i] + βᵀKβ          (eq. 10)
//
// x gets the cluster of its nearest non-outlier training row by the
// kernel-induced distance ‖Φ(x) − Φ(x_i)‖² = k(x, x) − 2 k_x[i] + K_ii
// (ties to the lower row). Inside the sphere (R²(x) ≤ R², with the slack of
// Clustering) this is the paper's rule for points of a cluster; outside, it
// is the paper's rule for outliers ("the cluster to which it is closest"),
// and Outlier reports true. Predict always returns a cluster id 0 ≤ c <
// NClusters, as scikit-learn users expect of predict; Outlier tells which
// points lie outside every cluster contour. For the Gaussian and
// exponential kernels the kernel-induced distance is a monotone function of
// the Euclidean distance, so a training row's own kernel row predicts its
// own cluster (outliers: the cluster Fit assigned them, unless Unassigned).
type Model struct {
	// Kernel and Q are the kernel the model was fitted with (Fit); a model
	// from FitGram (cone labelling on a kernel matrix) has Gram set and Q = 0.
	Kernel KernelKind
	Q      float64
	Gram   bool
	C      float64
	// Labels is the cluster of every training row (Clustering.Labels:
	// Noise for unassigned outliers).
	Labels    []int
	NClusters int
	// Beta (one per training row), R2 and BetaKBeta (βᵀKβ) define the sphere.
	Beta      []float64
	R2        float64
	BetaKBeta float64
	// Inside lists the non-outlier training rows (increasing): the rows new
	// points are matched to.
	Inside []int
	// TrainDiag holds K_ii of the training rows; nil means all 1 (the
	// Gaussian and exponential kernels).
	TrainDiag []float64
	Iter      int
	Converged bool
	Warnings  []error
}

var _ learner.DiagPredictor = (*Model)(nil)

// Model returns the fitted clustering as a learner-contract Model. The
// clustering's kernel has k(x, x) = 1, so Model.Predict needs no diagonal.
func (c *Clustering) Model() *Model {
	return &Model{
		Kernel: c.Kernel, Q: c.Q, C: c.C,
		Labels: slices.Clone(c.Labels), NClusters: c.NClusters,
		Beta: slices.Clone(c.Beta), R2: c.R2, BetaKBeta: c.ball.bKb,
		Inside: insideRows(len(c.Labels), c.BSV),
		Iter:   c.Iter, Converged: c.Converged, Warnings: slices.Clone(c.Warnings),
	}
}

// FitModel runs Fit on the rows of X and returns the contract model.
func (c Clusterer) FitModel(ctx context.Context, X mat.Matrix) (*Model, error) {
	cl, err := c.Fit(ctx, X)
	if err != nil {
		return nil, err
	}
	return cl.Model(), nil
}

func insideRows(n int, bsv []int) []int {
	out := make([]int, 0, n-len(bsv))
	p := 0
	for i := 0; i < n; i++ {
		if p < len(bsv) && bsv[p] == i {
			p++
			continue
		}
		out = append(out, i)
	}
	return out
}

// Classes returns the cluster ids 0..NClusters−1.
func (m *Model) Classes() []int {
	out := make([]int, m.NClusters)
	for i := range out {
		out[i] = i
	}
	return out
}

// Transduction returns the cluster of every training row (a copy of Labels;
// Noise = learner.Unlabeled for outliers left unassigned).
func (m *Model) Transduction() []int { return slices.Clone(m.Labels) }

// Predict labels new points from their t×n kernel rows, with k(x, x) = 1
// (the Gaussian and exponential kernels of Fit and FitGram). A model whose
// training diagonal is not all 1 (TrainDiag set) returns ErrNeedDiag: use
// PredictDiag.
func (m *Model) Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error) {
	if m.TrainDiag != nil {
		return nil, ErrNeedDiag
	}
	return m.PredictDiag(ctx, dst, Kt, nil)
}

// PredictDiag labels new points from their t×n kernel rows Kt and
// self-similarities diag (len t; nil means all 1). See Model for the rule;
// k(x, x) is common to every training row, so it does not change the label
// (it is checked here and used by Dist2 and Outlier).
func (m *Model) PredictDiag(ctx context.Context, dst []int, Kt mat.Matrix, diag []float64) ([]int, error) {
	t, err := m.checkRows(Kt, diag)
	if err != nil {
		return nil, err
	}
	if dst == nil || len(dst) != t {
		dst = make([]int, t)
	}
	err = parallel.For(ctx, t, func(r int) {
		// k(x, x) is the same for every i: the argmin of
		// ‖Φ(x) − Φ(x_i)‖² is that of K_ii − 2 k_x[i] (of −k_x[i] when every
		// K_ii = 1, which keeps the order of tiny kernel values exact).
		best, bd := -1, math.Inf(1)
		for _, i := range m.Inside {
			dd := -Kt.At(r, i)
			if m.TrainDiag != nil {
				dd = m.TrainDiag[i] - 2*Kt.At(r, i)
			}
			if dd < bd {
				best, bd = i, dd
			}
		}
		dst[r] = m.Labels[best]
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// Dist2 returns R²(x) of eq. (10) for new points from their kernel rows Kt
// and self-similarities diag (nil: all 1). A nil dst allocates.
func (m *Model) Dist2(ctx context.Context, dst []float64, Kt mat.Matrix, diag []float64) ([]float64, error) {
	t, err := m.checkRows(Kt, diag)
	if err != nil {
		return nil, err
	}
	if dst == nil || len(dst) != t {
		dst = make([]float64, t)
	}
	err = parallel.For(ctx, t, func(r int) {
		kxx := 1.0
		if diag != nil {
			kxx = diag[r]
		}
		f := 0.0
		for i, b := range m.Beta {
			if b != 0 {
				f += b * Kt.At(r, i)
			}
		}
		dst[r] = kxx - 2*f + m.BetaKBeta
	})
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// Outlier reports, for each new point, whether it lies outside the sphere
// (R²(x) > R² + 1e-9·max(1, R²), the slack of Clustering): a point Predict
// assigned to its nearest cluster although it is in no cluster's contour.
func (m *Model) Outlier(ctx context.Context, dst []bool, Kt mat.Matrix, diag []float64) ([]bool, error) {
	d2, err := m.Dist2(ctx, nil, Kt, diag)
	if err != nil {
		return nil, err
	}
	if dst == nil || len(dst) != len(d2) {
		dst = make([]bool, len(d2))
	}
	lim := m.R2 + 1e-9*max(1, m.R2)
	for i, v := range d2 {
		dst[i] = v > lim
	}
	return dst, nil
}

func (m *Model) checkRows(Kt mat.Matrix, diag []float64) (int, error) {
	if Kt == nil {
		return 0, fmt.Errorf("%w: nil kernel rows", ErrEmpty)
	}
	t, n := Kt.Dims()
	if n != len(m.Labels) {
		return 0, fmt.Errorf("%w: kernel rows have %d columns, model has %d training rows", ErrBadParam, n, len(m.Labels))
	}
	if diag != nil && len(diag) != t {
		return 0, fmt.Errorf("%w: %d self-similarities for %d kernel rows", ErrBadParam, len(diag), t)
	}
	for r := 0; r < t; r++ {
		for j := 0; j < n; j++ {
			if v := Kt.At(r, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("%w: kernel row %d, column %d is %v", ErrNonFinite, r, j, v)
			}
		}
		if diag != nil && (math.IsNaN(diag[r]) || math.IsInf(diag[r], 0)) {
			return 0, fmt.Errorf("%w: self-similarity %d is %v", ErrNonFinite, r, diag[r])
		}
	}
	return t, nil
}

// File format of Save: JSON with these fields.
const (
	formatName    = "arbor-svcluster"
	formatVersion = 1
)

type modelFile struct {
	Format    string    `json:"format"`
	Version   int       `json:"version"`
	Kernel    string    `json:"kernel"`
	Q         float64   `json:"q"`
	Gram      bool      `json:"gram,omitempty"`
	C         float64   `json:"c"`
	Labels    []int     `json:"labels"`
	NClusters int       `json:"n_clusters"`
	Beta      []float64 `json:"beta"`
	R2        float64   `json:"r2"`
	BetaKBeta float64   `json:"beta_k_beta"`
	Inside    []int     `json:"inside"`
	TrainDiag []float64 `json:"train_diag,omitempty"`
	Iter      int       `json:"iter"`
	Converged bool      `json:"converged"`
	Warnings  []string  `json:"warnings,omitempty"`
}

// Save writes the model as JSON ("format": "arbor-svcluster", "version": 1;
// floats in Go's shortest round-trip form, so Load restores them exactly).
func (m *Model) Save(w io.Writer) error {
	f := modelFile{
		Format: formatName, Version: formatVersion, Kernel: m.Kernel.String(), Q: m.Q, Gram: m.Gram, C: m.C,
		Labels: m.Labels, NClusters: m.NClusters, Beta: m.Beta, R2: m.R2, BetaKBeta: m.BetaKBeta,
		Inside: m.Inside, TrainDiag: m.TrainDiag, Iter: m.Iter, Converged: m.Converged,
	}
	for _, e := range m.Warnings {
		f.Warnings = append(f.Warnings, e.Error())
	}
	return modelio.Encode(w, f)
}

// Load reads a model written by Save and checks its consistency.
func Load(r io.Reader) (*Model, error) {
	var f modelFile
	if err := modelio.Decode(r, &f, formatName, formatVersion, ErrFormat); err != nil {
		return nil, err
	}
	k, err := ParseKernel(f.Kernel)
	if err != nil {
		return nil, fmt.Errorf("%w: field kernel: %v", ErrFormat, err)
	}
	n := len(f.Labels)
	switch {
	case n < 2:
		return nil, fmt.Errorf("%w: field labels has %d rows", ErrFormat, n)
	case len(f.Beta) != n:
		return nil, fmt.Errorf("%w: field beta has %d entries for %d rows", ErrFormat, len(f.Beta), n)
	case f.TrainDiag != nil && len(f.TrainDiag) != n:
		return nil, fmt.Errorf("%w: field train_diag has %d entries for %d rows", ErrFormat, len(f.TrainDiag), n)
	case len(f.Inside) == 0 || f.NClusters < 1:
		return nil, fmt.Errorf("%w: fields inside/n_clusters are empty", ErrFormat)
	}
	for p, i := range f.Inside {
		if i < 0 || i >= n || (p > 0 && i <= f.Inside[p-1]) {
			return nil, fmt.Errorf("%w: field inside, entry %d (%d) out of range or not increasing", ErrFormat, p, i)
		}
		if l := f.Labels[i]; l < 0 || l >= f.NClusters {
			return nil, fmt.Errorf("%w: field labels, row %d has cluster %d, want 0..%d", ErrFormat, i, l, f.NClusters-1)
		}
	}
	for i, l := range f.Labels {
		if l < Noise || l >= f.NClusters {
			return nil, fmt.Errorf("%w: field labels, row %d has cluster %d", ErrFormat, i, l)
		}
	}
	m := &Model{
		Kernel: k, Q: f.Q, Gram: f.Gram, C: f.C, Labels: f.Labels, NClusters: f.NClusters,
		Beta: f.Beta, R2: f.R2, BetaKBeta: f.BetaKBeta, Inside: f.Inside, TrainDiag: f.TrainDiag,
		Iter: f.Iter, Converged: f.Converged,
	}
	for _, w := range f.Warnings {
		m.Warnings = append(m.Warnings, errors.New(w))
	}
	return m, nil
}
