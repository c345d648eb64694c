package main

import (
	"context"
	"fmt"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/kernel"
)

// --float32: the N×N kernel matrix in float32 storage (kernel.Build32:
// kernel.Sym32), half the memory of the float64 matrix, for the point
// kernels and the cluster kernels (hck, hckg, connectivity: their linkage
// runs on a float32 working matrix too, hclust.FromPoints32). ISOMAP and
// multitype need a float64 eigendecomposition of the N×N matrix and refuse
// it. The SVM and kNN on a point kernel form no N×N matrix at all
// (svmpoints.go, knnpoints.go), so there the option changes nothing.

const float32Usage = "store the N×N kernel matrix in float32: half the memory, entries rounded to float32 (relative error ≤ 6e-8); point kernels and the cluster kernels hck, hckg, connectivity (their linkage also runs in float32; not isomap or multitype, whose eigendecomposition needs float64); the svm and knn on a point kernel need no N×N matrix at all"

// gram32 computes the float32 kernel matrix of spec over X
// (kernel.Build32; rbf:scale resolved on X as the float64 path does).
func gram32(ctx context.Context, spec kernel.Spec, ds *dataset.Dataset) (kernel.Built, *kernel.Sym32, error) {
	if kernel.Bytes32(spec, 2) == 0 {
		return kernel.Built{}, nil, usageError("--float32 takes a point kernel or hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix; use --landmarks)", spec)
	}
	return kernel.Build32(ctx, ds.X, spec, kernel.BuildOptions{})
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
	b, K, err := gram32(ctx, spec, ds)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s", b.Spec)
	if b.Gamma > 0 {
		fmt.Fprintf(e.stdout, " (gamma %.6g)", b.Gamma)
	}
	fmt.Fprintf(e.stdout, "\nsize    %d×%d float32, built in %.2fs\n", n, n, time.Since(start).Seconds())
	var batch atomicfile.Batch
	defer batch.Abort()
	if err := batch.Write(out, matrixWriter(ctx, out, K)); err != nil {
		return err
	}
	if err := batch.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", out)
	return nil
}
