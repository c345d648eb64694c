package treelets

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// Gram is a kernel over n items (points, graph nodes, records with
// missing values) whose blocks are computed on demand: kernel.Points,
// kernel.GraphKernel and kernel.MissingGram satisfy it.
type Gram interface {
	Len() int
	// Sym returns K(rows, rows) with both triangles of the storage
	// written (Sample reads rows of it directly); a nil dst allocates.
	Sym(ctx context.Context, dst *mat.SymDense, rows []int) (*mat.SymDense, error)
	// Cross returns K(rows, cols); a nil dst allocates.
	Cross(ctx context.Context, dst *mat.Dense, rows, cols []int) (*mat.Dense, error)
	// Diag returns K(i, i) for each of rows.
	Diag(rows []int) []float64
}

// Extension names how Sample labels the points outside the sample.
type Extension int

const (
	// ExtendSVM: a C-SVC with the same kernel, trained on the sample's
	// cluster labels (paper 004 §3 step 3).
	ExtendSVM Extension = iota
	// ExtendKNN: kernel k-nearest neighbours with the distance the kernel
	// induces, d²(u, s) = K(u,u) + K(s,s) − 2K(u,s) (§2.4).
	ExtendKNN
)

// ParseExtension reads "svm" or "knn".
func ParseExtension(s string) (Extension, error) {
	switch s {
	case "svm":
		return ExtendSVM, nil
	case "knn":
		return ExtendKNN, nil
	}
	return 0, fmt.Errorf("%w: extension %q, want svm or knn", ErrBadParam, s)
}

func (e Extension) String() string {
	if e == ExtendKNN {
		return "knn"
	}
	return "svm"
}

// Sample is kernel treelets with sampling and extension (paper 004 §3): a
// seeded uniform sample S of M of the n items, treelets on K(S, S), the
// sample's hierarchy cut into Clusters clusters, and the other items
// labelled by the Extend classifier trained on the sample with the same
// kernel. M = 0 or M = n takes every item and skips the extension (one
// n×n buffer, FitInPlace).
type Sample struct {
	Settings
	// M is the sample size, 2..n (0: n).
	M int
	// Seed drives the sample: rand.New(rand.NewPCG(Seed, 0x74726565)),
	// M indices drawn without replacement, then sorted.
	Seed uint64
	// Clusters is the number of clusters the sample's hierarchy is cut into
	// for the labels (1..M; 0: the labels are not needed, only the
	// hierarchy, which requires M = n).
	Clusters int
	// Extend is the classifier that labels the unsampled items.
	Extend Extension
	// C is the SVM's penalty (0: 1, LIBSVM's default).
	C float64
	// KNN is the number of neighbours of ExtendKNN (0: 1).
	KNN int
}

// SampleModel is the result of Sample.Fit.
type SampleModel struct {
	// Rows are the sampled items, increasing; Model is the treelets
	// hierarchy over them (its index i is item Rows[i]).
	Rows  []int
	Model *Model
	// Labels has a cluster label for each of the n items (nil when
	// Clusters = 0): the cut of the sample's hierarchy for sampled items,
	// the extension's prediction for the others.
	Labels []int
}

// Validate checks the settings that do not depend on n.
func (s Sample) Validate() error {
	if err := s.Settings.Validate(); err != nil {
		return err
	}
	if s.M < 0 || s.M == 1 {
		return fmt.Errorf("%w: sample size m = %d, want m ≥ 2 (0: all)", ErrBadParam, s.M)
	}
	if s.Clusters < 0 {
		return fmt.Errorf("%w: clusters = %d", ErrBadParam, s.Clusters)
	}
	if s.Extend != ExtendSVM && s.Extend != ExtendKNN {
		return fmt.Errorf("%w: extension %d", ErrBadParam, int(s.Extend))
	}
	if s.C < 0 || s.KNN < 0 {
		return fmt.Errorf("%w: C = %v, KNN = %d", ErrBadParam, s.C, s.KNN)
	}
	return nil
}

// Draw returns the sorted sample of m indices of 0..n−1 for seed (the
// sample Fit uses).
func Draw(n, m int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x74726565))
	p := rng.Perm(n)[:m]
	slices.Sort(p)
	return p
}

// Fit runs kernel treelets on g. Errors: ErrBadParam (m > n, m < 2, ...),
// ErrK (Clusters > m), ErrMatrix (a non-positive diagonal), the kernel's
// errors, the extension's errors, ctx.Err().
func (s Sample) Fit(ctx context.Context, g Gram) (*SampleModel, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	n := g.Len()
	m := s.M
	if m == 0 {
		m = n
	}
	if m > n || m < 2 {
		return nil, fmt.Errorf("%w: sample size m = %d for n = %d items, want 2 ≤ m ≤ n", ErrBadParam, m, n)
	}
	if s.Clusters > m {
		return nil, fmt.Errorf("%w: %d clusters from a sample of %d", ErrK, s.Clusters, m)
	}
	if s.Clusters == 0 && m < n {
		return nil, fmt.Errorf("%w: a sample of %d < n = %d needs a number of clusters to extend", ErrBadParam, m, n)
	}
	progress := s.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	var rows []int
	if m == n {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	} else {
		rows = Draw(n, m, s.Seed)
	}
	progress("kernel", 0, 1)
	// the one m×m buffer, huge-page backed where the OS allows
	K, err := g.Sym(ctx, mat.NewSymDense(m, hugepage.Float64s(m*m)), rows)
	if err != nil {
		return nil, err
	}
	progress("kernel", 1, 1)
	out := &SampleModel{Rows: rows}
	if m == n {
		if out.Model, err = s.Settings.fitFull(ctx, K); err != nil {
			return nil, err
		}
		if s.Clusters > 0 {
			out.Labels, err = out.Model.CutK(s.Clusters)
		}
		return out, err
	}
	if out.Model, err = s.Settings.Fit(ctx, K); err != nil {
		return nil, err
	}
	lab, err := out.Model.CutK(s.Clusters)
	if err != nil {
		return nil, err
	}
	// the unsampled items and their kernel rows against the sample
	rest := make([]int, 0, n-m)
	in := make([]bool, n)
	for _, r := range rows {
		in[r] = true
	}
	for i := 0; i < n; i++ {
		if !in[i] {
			rest = append(rest, i)
		}
	}
	progress("extension", 0, len(rest))
	Kt, err := g.Cross(ctx, nil, rest, rows)
	if err != nil {
		return nil, err
	}
	var pred []int
	switch {
	case s.Clusters == 1:
		pred = make([]int, len(rest)) // one cluster: nothing to learn
	case s.Extend == ExtendSVM:
		c := svm.Classifier{C: s.C, AllowSingleton: true}
		sm, err := c.FitGram(ctx, K, lab)
		if err != nil {
			return nil, fmt.Errorf("treelets: SVM extension: %w", err)
		}
		if pred, err = sm.Predict(ctx, nil, Kt); err != nil {
			return nil, fmt.Errorf("treelets: SVM extension: %w", err)
		}
	default:
		k := s.KNN
		if k == 0 {
			k = 1
		}
		km, err := knn.Classifier{K: k}.FitGram(ctx, K, lab)
		if err != nil {
			return nil, fmt.Errorf("treelets: kNN extension: %w", err)
		}
		if pred, err = km.PredictDiag(ctx, nil, Kt, g.Diag(rest)); err != nil {
			return nil, fmt.Errorf("treelets: kNN extension: %w", err)
		}
	}
	progress("extension", len(rest), len(rest))
	out.Labels = make([]int, n)
	for i, r := range rows {
		out.Labels[r] = lab[i]
	}
	for i, r := range rest {
		out.Labels[r] = pred[i]
	}
	return out, nil
}
