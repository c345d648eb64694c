package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/pipeline"
)

// landmarkFlags are --landmarks M, --landmark-method and --seed.
type landmarkFlags struct {
	m      int
	method string
	seed   uint64
	// sharedSeed: the command has its own --seed (eval's split seed), which
	// also seeds the landmarks.
	sharedSeed bool
}

func (l *landmarkFlags) register(fs *flag.FlagSet) {
	fs.Func("landmarks", "use M landmark points instead of the N×N kernel matrix: Nyström features (point kernels; cluster kernels through the tree on the landmarks) and a learner on them in O(N·M) memory (svm: the C-SVC with the linear kernel on the features; knn: kNN on the features; lp: label propagation on the anchor graph of the landmarks; spreading: on the kNN graph of all rows with --affinity knn:K, which needs no N×N matrix, else on the anchor graph); 0 = exact", func(s string) (err error) {
		l.m, err = landmark.ParseCount(s)
		return err
	})
	fs.StringVar(&l.method, "landmark-method", landmark.KMeans, "how --landmarks are chosen besides the labelled rows (which are landmarks when fewer than M): random or kmeans (rows nearest the k-means centres)")
	if l.sharedSeed {
		return // the command's own --seed sets l.seed
	}
	fs.Uint64Var(&l.seed, "seed", 0, "seed of the landmark choice")
}

// kernelLandmarks is arbor kernel --landmarks M: the N×r landmark features
// Z of the rows, written to out (K ≈ Z·Zᵀ) a block at a time.
func kernelLandmarks(ctx context.Context, e *env, l landmarkFlags, mf memFlags, ds *dataset.Dataset, spec kernel.Spec, out string) error {
	if err := mf.check(pipeline.KernelLandmarkBytes(spec, ds.Len(), ds.Dim(), l.m), fmt.Sprintf("%d landmarks for %d rows", l.m, ds.Len()), "use fewer --landmarks"); err != nil {
		return err
	}
	_, tr, gamma, desc, err := pipeline.LandmarkChoice{M: l.m, Method: l.method, Seed: l.seed}.Training(ctx, ds.X, spec, nil, false)
	if err != nil {
		return err
	}
	format, _ := dataset.MatrixFormatOf(out, false) // checkMatrixExt: .csv or .npy
	what := fmt.Sprintf("%s\nsize    %d×%d features Z, K ≈ Z·Zᵀ", desc, tr.Len(), tr.Rank())
	return writeKernelOutput(e, ds, kernel.Built{Spec: spec, Gamma: gamma}, what, out, func(f *os.File) error {
		return pipeline.WriteFeatures(ctx, f, tr, format)
	})
}
