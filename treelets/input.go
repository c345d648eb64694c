package treelets

import (
	"fmt"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// ParseSample is the Sample of M items (0: every item) that the text
// settings of arbor treelets and arbor cluster --method treelets name:
// the pair rule (ParseSimilarity), the extension (ParseExtension) and λ.
// Its errors name those settings as the commands' flags.
func ParseSample(similarity, extend string, lambda float64, m int) (Sample, error) {
	rule, err := ParseSimilarity(similarity)
	if err != nil {
		return Sample{}, fmt.Errorf("--similarity: %w", err)
	}
	ext, err := ParseExtension(extend)
	if err != nil {
		return Sample{}, fmt.Errorf("--extend: %w", err)
	}
	if lambda < 0 {
		return Sample{}, fmt.Errorf("--lambda must be ≥ 0, got %v", lambda)
	}
	if m < 0 || m == 1 {
		return Sample{}, fmt.Errorf("--sample must be ≥ 2 (or 0 for every row), got %d", m)
	}
	return Sample{Settings: Settings{Lambda: lambda, Similarity: rule}, M: m, Extend: ext}, nil
}

// RowKernel is a kernel on the rows of a data set that treelets take: a
// point kernel (kernel.ParseSpec) or rbf-missing:GAMMA, which takes rows
// with missing cells (kernel.RBFMissing).
type RowKernel struct {
	spec    kernel.Spec
	missing *kernel.RBFMissing
	text    string
}

// ParseKernel reads the kernel spec of RowKernel. Its errors name the
// spec as the flag --kernel. Missing reports on the returned RowKernel
// whether spec names rbf-missing, also when the spec is in error.
func ParseKernel(spec string) (RowKernel, error) {
	rk := RowKernel{text: spec}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(spec)), "rbf-missing") {
		k, err := kernel.ParseRBFMissing(spec)
		rk.missing = &k
		if err != nil {
			return rk, fmt.Errorf("--kernel: %w", err)
		}
		return rk, nil
	}
	sp, err := kernel.ParseSpec(spec)
	if err != nil {
		return rk, fmt.Errorf("--kernel: %w", err)
	}
	if sp.Kind != kernel.KindPoint {
		return rk, fmt.Errorf("--kernel %s: treelets take a point kernel (linear, poly, rbf, laplacian, exponential) or rbf-missing:GAMMA", spec)
	}
	rk.spec = sp
	return rk, nil
}

// Missing reports whether the kernel is rbf-missing:GAMMA.
func (k RowKernel) Missing() bool { return k.missing != nil }

// Gram is the kernel on the rows of X as on-demand blocks, and the kernel
// as resolved on X (rbf:scale's γ). With rbf-missing, NaN cells of X are
// missing; kernel.RBFMissing.Prepare's errors are returned.
func (k RowKernel) Gram(X *mat.Dense) (Gram, string, error) {
	if k.missing != nil {
		g, err := k.missing.Prepare(X)
		if err != nil {
			return nil, "", err
		}
		return g, k.missing.String(), nil
	}
	pk, _ := k.spec.Resolve(X)
	return kernel.Points{K: pk, X: X}, kernel.Spec{Kind: kernel.KindPoint, Point: pk}.String(), nil
}

// LeafNames names the hierarchy's leaves, the sampled items Rows, by
// name(item).
func (r *SampleModel) LeafNames(name func(item int) string) []string {
	out := make([]string, len(r.Rows))
	for i, item := range r.Rows {
		out[i] = name(item)
	}
	return out
}
