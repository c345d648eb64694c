package main

import (
	"context"
	"fmt"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// --float32: the N×N kernel matrix in float32 storage (kernel.Sym32), half
// the memory of the float64 matrix, for the point kernels. The SVM and kNN
// on a point kernel form no N×N matrix at all (svmpoints.go,
// knnpoints.go), so the option matters for the learners that read K:
// label propagation and spreading, S4VM, HiBUST, and kernel itself.

const float32Usage = "store the N×N kernel matrix in float32: half the memory, entries rounded to float32 (relative error ≤ 6e-8); point kernels (linear, poly, rbf, laplacian, exponential); the svm and knn on a point kernel need no N×N matrix at all"

// gram32 computes the float32 kernel matrix of a point kernel over X
// (rbf:scale resolved on X as the float64 path does).
func gram32(ctx context.Context, spec kernel.Spec, X *mat.Dense) (kernel.Built, *kernel.Sym32, error) {
	if spec.Kind != kernel.KindPoint {
		return kernel.Built{}, nil, usageError("--float32 takes a point kernel (linear, poly, rbf, laplacian, exponential), not %s", spec)
	}
	b := kernel.Built{Spec: spec}
	_, b.Gamma = spec.Resolve(X)
	K, err := kernel.Gram32(ctx, nil, b.Kernel(), X)
	if err != nil {
		return kernel.Built{}, nil, err
	}
	return b, K, nil
}

// kernelBytes32 estimates the peak memory of spec's kernel matrix with
// --float32 (0: not available for this kernel).
func kernelBytes32(spec kernel.Spec, n int) float64 {
	if spec.Kind != kernel.KindPoint {
		return 0
	}
	return kernel.Sym32Bytes(n)
}

// float32Hint names --float32 with the memory it needs when it is an
// option for spec and fits the budget; need32 is that memory.
func (m memFlags) float32Hint(need32 float64) string {
	if need32 <= 0 {
		return ""
	}
	b, _, _ := m.budget()
	if b > 0 && need32 > float64(b) {
		return ""
	}
	return fmt.Sprintf("--float32 needs about %s", humanBytes(need32))
}

// joinHints joins the non-empty hints with "; ".
func joinHints(hints ...string) string {
	out := ""
	for _, h := range hints {
		if h == "" {
			continue
		}
		if out != "" {
			out += "; "
		}
		out += h
	}
	return out
}

// kernelFloat32 is arbor kernel --float32: the float32 kernel matrix of a
// point kernel, written as CSV or a '<f4' .npy file.
func kernelFloat32(ctx context.Context, e *env, mf memFlags, ds *dataset.Dataset, spec kernel.Spec, out string, quiet bool) error {
	n := ds.Len()
	if err := mf.check(kernelBytes32(spec, n), fmt.Sprintf("the %s kernel matrix of %d rows (--float32)", spec, n), ""); err != nil {
		return err
	}
	start := time.Now()
	e.announceSpecs(quiet, []kernel.Spec{spec}, n)
	b, K, err := gram32(ctx, spec, ds.X)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s", b.Spec)
	if b.Gamma > 0 {
		fmt.Fprintf(e.stdout, " (gamma %.6g)", b.Gamma)
	}
	fmt.Fprintf(e.stdout, "\nsize    %d×%d float32, built in %.2fs\n", n, n, time.Since(start).Seconds())
	var batch outputBatch
	defer batch.abort()
	if err := batch.write(out, matrixWriter(ctx, out, K)); err != nil {
		return err
	}
	if err := batch.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", out)
	return nil
}
