package main

import (
	"context"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
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

func (l *landmarkFlags) register(fs interface {
	IntVar(p *int, name string, value int, usage string)
	StringVar(p *string, name, value, usage string)
	Uint64Var(p *uint64, name string, value uint64, usage string)
}) {
	fs.IntVar(&l.m, "landmarks", 0, "use M landmark points instead of the N×N kernel matrix: Nyström features (point kernels; cluster kernels through the tree on the landmarks) and a learner on them in O(N·M) memory (svm: linear SVM by dual coordinate descent; knn: kNN on the features; lp: label propagation on the anchor graph of the landmarks); 0 = exact")
	fs.StringVar(&l.method, "landmark-method", kernel.LandmarkKMeans, "how --landmarks are chosen: random or kmeans (rows nearest the k-means centres)")
	if l.sharedSeed {
		return // the command's own --seed sets l.seed
	}
	fs.Uint64Var(&l.seed, "seed", 0, "seed of the landmark choice and of the linear SVM's coordinate order")
}

// featureMap maps new points to the landmark features.
type featureMap interface {
	Features(ctx context.Context, Xt mat.Matrix) (*mat.Dense, error)
}

// features fits the landmark feature map of spec on M landmarks of X and
// returns it with the features of X and a description for stderr.
func (l landmarkFlags) features(ctx context.Context, X *mat.Dense, spec kernel.Spec) (featureMap, *mat.Dense, float64, string, error) {
	n, _ := X.Dims()
	if l.m > n {
		return nil, nil, 0, "", usageError("--landmarks %d: more than the %d rows", l.m, n)
	}
	lm, err := kernel.ChooseLandmarks(ctx, X, l.m, l.method, l.seed)
	if err != nil {
		return nil, nil, 0, "", err
	}
	var ny *kernel.Nystrom
	gamma := 0.0
	switch spec.Kind {
	case kernel.KindPoint:
		k := spec.Point
		if spec.Scale {
			gamma = kernel.GammaScale(X)
			k = kernel.RBF{Gamma: gamma}
		}
		ny, err = kernel.NewNystrom(ctx, X, k, lm, 0)
	case kernel.KindHCK:
		ny, err = kernel.NewNystromHCK(ctx, X, kernel.HCK{Method: spec.Method, Graph: spec.Graph}, lm, 0)
	case kernel.KindISOMAP:
		g := kernel.DefaultGraph()
		if spec.Graph != nil {
			g = *spec.Graph
		}
		iso, err := kernel.NewLandmarkISOMAP(ctx, X, g, lm, 0)
		if err != nil {
			return nil, nil, 0, "", err
		}
		desc := fmt.Sprintf("landmarks %d (%s, seed %d): landmark ISOMAP (shortest paths from the landmarks, landmark MDS), rank %d (%d eigenvalues clipped)",
			len(lm), l.method, l.seed, iso.Rank, iso.Clipped)
		return iso, iso.Train(), 0, desc, nil
	default:
		return nil, nil, 0, "", usageError("--landmarks works with point kernels, the cluster kernels (hck, hckg, connectivity) and isomap, not %s", spec)
	}
	if err != nil {
		return nil, nil, 0, "", err
	}
	Z, err := ny.Features(ctx, X)
	desc := fmt.Sprintf("landmarks %d (%s, seed %d): Nyström rank %d (%d eigenvalues clipped)", len(ny.Landmarks), l.method, l.seed, ny.Rank, ny.Clipped)
	return ny, Z, gamma, desc, err
}

// anchorLP is label propagation on the anchor graph of the M landmarks
// (propagate.AnchorGraph, Liu, He & Chang 2010; 3 nearest anchors).
func anchorLP(ctx context.Context, stderr io.Writer, l landmarkFlags, ds, test *dataset.Dataset) ([]int, float64, error) {
	if l.m > ds.Len() {
		return nil, 0, usageError("--landmarks %d: more than the %d rows", l.m, ds.Len())
	}
	lm, err := kernel.ChooseLandmarks(ctx, ds.X, l.m, l.method, l.seed)
	if err != nil {
		return nil, 0, err
	}
	anchors := mat.NewDense(len(lm), ds.Dim(), nil)
	for r, i := range lm {
		anchors.SetRow(r, ds.X.RawRowView(i))
	}
	g := propagate.AnchorGraph{}
	m, err := g.Fit(ctx, ds.X, anchors, ds.Y)
	if err != nil {
		return nil, 0, err
	}
	fmt.Fprintf(stderr, "landmarks %d (%s, seed %d): anchor graph, each point tied to its 3 nearest anchors\n", len(lm), l.method, l.seed)
	pred := m.Transduction()
	if test != nil {
		pt, err := m.Predict(ctx, nil, test.X)
		if err != nil {
			return nil, 0, err
		}
		pred = append(pred, pt...)
	}
	return pred, 0, nil
}

// classifyLandmarks labels every row of ds (and of test) with a learner on
// Nyström features: "svm" → linsvm (L2 loss, C), "knn" → majority vote of
// the k nearest labelled rows in feature space (ties to the lower class).
func classifyLandmarks(ctx context.Context, stderr io.Writer, l landmarkFlags, ds, test *dataset.Dataset, spec kernel.Spec, learner string, C float64, k int) ([]int, float64, error) {
	if learner == "lp" {
		return anchorLP(ctx, stderr, l, ds, test)
	}
	fm, Z, gamma, desc, err := l.features(ctx, ds.X, spec)
	if err != nil {
		return nil, 0, err
	}
	fmt.Fprintln(stderr, desc)
	_, r := Z.Dims()
	all := Z
	if test != nil {
		Zt, err := fm.Features(ctx, test.X)
		if err != nil {
			return nil, 0, err
		}
		all = mat.NewDense(ds.Len()+test.Len(), r, nil)
		all.Slice(0, ds.Len(), 0, r).(*mat.Dense).Copy(Z)
		all.Slice(ds.Len(), ds.Len()+test.Len(), 0, r).(*mat.Dense).Copy(Zt)
	}
	n, _ := all.Dims()
	switch learner {
	case "svm":
		m, err := linsvm.Classifier{C: C, Seed: l.seed}.Fit(ctx, Z, ds.Y)
		if err != nil {
			return nil, 0, err
		}
		if !m.Converged {
			fmt.Fprintf(stderr, "warning: linear SVM: not converged in %v passes\n", m.Iter)
		}
		pred, err := m.Predict(ctx, nil, all)
		if err != nil {
			return nil, 0, err
		}
		keepGiven(pred, ds.Y)
		return pred, gamma, nil
	case "knn":
		lab := ds.Labeled()
		if k > len(lab) {
			return nil, 0, usageError("--k %d: only %d labelled rows", k, len(lab))
		}
		pts := make([]float64, len(lab)*r)
		for a, i := range lab {
			copy(pts[a*r:], Z.RawRowView(i))
		}
		idx := make([]int32, n*k)
		if err := neighbors.New(pts, len(lab), r).Search(ctx, all.RawMatrix().Data, k, idx, nil); err != nil {
			return nil, 0, err
		}
		pred := make([]int, n)
		votes := make([]int, len(ds.Classes))
		for i := range pred {
			clear(votes)
			for _, a := range idx[i*k : i*k+k] {
				votes[ds.Y[lab[a]]]++
			}
			best := 0
			for c, v := range votes {
				if v > votes[best] {
					best = c
				}
			}
			pred[i] = best
		}
		keepGiven(pred, ds.Y)
		return pred, gamma, nil
	}
	return nil, 0, usageError("--landmarks works with --learner svm, knn or lp so far, not %s", learner)
}

// keepGiven gives labelled rows their own labels (as ssl.Transduce does).
func keepGiven(pred, y []int) {
	for i, c := range y {
		if c >= 0 {
			pred[i] = c
		}
	}
}

// kernelLandmarks is arbor kernel --landmarks M: the N×r landmark features
// Z of the rows, written to out (K ≈ Z·Zᵀ), in O(N·M) memory.
func kernelLandmarks(ctx context.Context, e *env, l landmarkFlags, mf memFlags, ds *dataset.Dataset, spec kernel.Spec, out string) error {
	if err := mf.check(landmarkBytes(ds.Len(), ds.Dim(), l.m), fmt.Sprintf("%d landmarks for %d rows", l.m, ds.Len()), "use fewer --landmarks"); err != nil {
		return err
	}
	_, Z, gamma, desc, err := l.features(ctx, ds.X, spec)
	if err != nil {
		return err
	}
	n, r := Z.Dims()
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s", spec)
	if gamma > 0 {
		fmt.Fprintf(e.stdout, " (gamma %.6g)", gamma)
	}
	fmt.Fprintf(e.stdout, "\n%s\nsize    %d×%d features Z, K ≈ Z·Zᵀ\n", desc, n, r)
	var batch outputBatch
	defer batch.abort()
	if err := batch.write(out, matrixWriter(ctx, out, Z)); err != nil {
		return err
	}
	if err := batch.commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", out)
	return nil
}
