package main

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/learner"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/ssl"
	"gonum.org/v1/gonum/mat"
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
func gram32(ctx context.Context, spec kernel.Spec, X *mat.Dense) (kernel.Built, *kernel.Sym32, error) {
	if kernel.Bytes32(spec, 2) == 0 {
		return kernel.Built{}, nil, usageError("--float32 takes a point kernel or hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix; use --landmarks)", spec)
	}
	return kernel.Build32(ctx, X, spec, kernel.BuildOptions{})
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

// evalNeed32 is evalNeed with --float32: one float32 kernel matrix at a
// time (ssl.Eval.Float32), plus the dense float32 affinity of lp and
// spreading on the kernel; 0 when a kernel learner meets a kernel without
// float32 storage (isomap, multitype): then --float32 is not an option.
func evalNeed32(learners []learner.Learner, specs []kernel.Spec, ds *dataset.Dataset) float64 {
	n := float64(ds.Len())
	k32 := 0.0
	for _, s := range specs {
		b := kernel.Bytes32(s, ds.Len())
		if b == 0 {
			k32 = -1
			break
		}
		k32 = max(k32, b)
	}
	need := 0.0
	for _, l := range learners {
		switch b, _, sparse := propagationBytes(l, ds); {
		case ssl.UsesKernel(l):
			if k32 < 0 {
				return 0
			}
			need = max(need, k32+affinityBytes(l, n))
		case sparse:
			need = max(need, b)
		default:
			need = max(need, 2*8*n*n)
		}
	}
	return need
}

// affinityBytes is the dense affinity that lp and spreading copy from the
// float32 kernel matrix (4N², kept in float32 by propagate), 0 for the
// other learners.
func affinityBytes(l learner.Learner, n float64) float64 {
	if _, ok := learner.As[learner.Transductive](l); ok {
		return 4 * n * n // label propagation and spreading
	}
	return 0
}

// evalFloat32Check refuses eval --float32 where it cannot apply: with
// --landmarks, --metric bep, or a kernel without float32 storage.
func evalFloat32Check(specs []kernel.Spec, landmarks int, metric string) error {
	if landmarks > 0 {
		return usageError("--float32 and --landmarks: the landmark features are N×M, not an N×N matrix; leave out --float32")
	}
	if metric == "bep" {
		return usageError("--float32 is not available with --metric bep (its scorers take float64 kernels)")
	}
	for _, s := range specs {
		if kernel.Bytes32(s, 2) == 0 {
			return usageError("--float32 takes point kernels and hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix; use --landmarks)", s)
		}
	}
	return nil
}

// evalHint32 is the memory --float32 would need where it is an option for
// this eval (0 otherwise: no kernel learner, a kernel without float32
// storage, --metric bep, or no saving over need).
func evalHint32(learners []learner.Learner, specs []kernel.Spec, ds *dataset.Dataset, need float64, metric string) float64 {
	if metric == "bep" || !anyUsesKernel(learners) {
		return 0
	}
	if n32 := evalNeed32(learners, specs, ds); n32 < need {
		return n32
	}
	return 0
}

func anyUsesKernel(learners []learner.Learner) bool {
	for _, l := range learners {
		if ssl.UsesKernel(l) {
			return true
		}
	}
	return false
}
