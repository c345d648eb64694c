package main

import (
	"context"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Out-of-sample rules of the cluster kernels (classify --extension).
const (
	ruleTree   = "tree"   // kernel.TreeExtension: new points enter the dendrogram (default)
	ruleLinear = "linear" // kernel.Extension: paper 000 §3.5, linear in the features
)

// testKernel returns the kernel rows (t×n) of new points against the data
// and their self-similarities. Point kernels are evaluated directly; the
// cluster kernels use rule (ruleTree: kernel.TreeExtension, the default;
// ruleLinear: paper 000 §3.5); the ISOMAP kernel and multitype kernels
// always use §3.5 (two-step through the ISOMAP kernel for graph cluster
// kernels).
func testKernel(ctx context.Context, b kernel.Built, ds, test *dataset.Dataset, rule string) (*mat.Dense, []float64, error) {
	if b.Spec.Kind == kernel.KindPoint {
		k := b.Spec.Point
		if b.Spec.Scale {
			k = kernel.RBF{Gamma: b.Gamma}
		}
		Kt, err := kernel.Cross(ctx, nil, k, test.X, ds.X)
		if err != nil {
			return nil, nil, err
		}
		t := test.Len()
		diag := make([]float64, t)
		for i := range diag {
			r := test.X.RawRowView(i)
			diag[i] = k.Eval(r, r)
		}
		return Kt, diag, nil
	}
	if b.Spec.Kind == kernel.KindHCK && rule != ruleLinear && b.Info.Tree != nil {
		ext, err := kernel.NewTreeExtension(ds.X, kernel.HCK{Method: b.Spec.Method, Graph: b.Spec.Graph}, b.Info.Tree, nil)
		if err != nil {
			return nil, nil, err
		}
		Kt, err := ext.Rows(ctx, test.X)
		if err != nil {
			return nil, nil, err
		}
		diag, err := ext.Diag(ctx, test.X)
		return Kt, diag, err
	}
	opt := kernel.ExtendOptions{}
	if b.Spec.Kind == kernel.KindHCK && b.Spec.Graph != nil {
		iso, err := kernel.BuildAll(ctx, ds.X, []kernel.Spec{{Kind: kernel.KindISOMAP, Graph: b.Spec.Graph}}, kernel.BuildOptions{})
		if err != nil {
			return nil, nil, err
		}
		opt.Via = iso[0].K
	}
	ext, err := kernel.Extend(ctx, ds.X, b.K, opt)
	if err != nil {
		return nil, nil, err
	}
	Kt, err := ext.Rows(ctx, test.X)
	if err != nil {
		return nil, nil, err
	}
	diag, err := ext.Diag(ctx, test.X)
	if err != nil {
		return nil, nil, err
	}
	return Kt, diag, nil
}
