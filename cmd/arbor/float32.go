package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/kernel"
)

// --float32: the N×N kernel matrix in float32 storage (kernel.Build32:
// kernel.Sym32), half the memory of the float64 matrix.

const float32Usage = "store the N×N kernel matrix in float32: half the memory, entries rounded to float32 (relative error ≤ 6e-8); point kernels and the cluster kernels hck, hckg, connectivity (their linkage also runs in float32; not isomap or multitype, whose eigendecomposition needs float64); the svm and knn on a point kernel need no N×N matrix at all"

// kernelFloat32 is arbor kernel --float32: the float32 kernel matrix of a
// point kernel, written as CSV or a '<f4' .npy file.
func kernelFloat32(ctx context.Context, e *env, mf memFlags, ds *dataset.Dataset, spec kernel.Spec, out string, quiet bool) error {
	n := ds.Len()
	if err := mf.check(kernel.Bytes32(spec, n), fmt.Sprintf("the %s kernel matrix of %d rows (--float32)", spec, n), ""); err != nil {
		return err
	}
	start := time.Now()
	e.announceSpecs(quiet, []kernel.Spec{spec}, n)
	if kernel.Bytes32(spec, 2) == 0 {
		return usageError("--float32 takes a point kernel or hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix; use --landmarks)", spec)
	}
	b, K, err := kernel.Build32(ctx, ds.X, spec, kernel.BuildOptions{})
	if err != nil {
		return err
	}
	return writeKernelOutput(e, ds, kernel.Built{Spec: b.Spec, Gamma: b.Gamma}, fmt.Sprintf("size    %d×%d float32, built in %.2fs", n, n, time.Since(start).Seconds()), out, matrixWriter(ctx, out, K))
}

// writeKernelOutput prints the data, the kernel (with the gamma rbf:scale
// resolved to) and what is written, then writes out with write, whole or
// not at all.
func writeKernelOutput(e *env, ds *dataset.Dataset, b kernel.Built, what, out string, write func(f *os.File) error) error {
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, ds.Len(), ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s\n%s\n", b.Describe(), what)
	if err := atomicfile.Write(out, write); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", out)
	return nil
}
