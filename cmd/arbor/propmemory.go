package main

import (
	"fmt"
	"github.com/arbor-ml/arbor/learner"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
)

// propagationBytes estimates lp and spreading on a kNN affinity (the
// default, knn:10), which is a sparse graph of about 2·N·K edges, not an
// N×N matrix: the points, the graph (index and weight per edge, the
// symmetrised copy and the solver's), and a few N×C label matrices. It
// reports false for the dense affinities (rbf, --affinity kernel), which
// classifyMemory estimates. Before, 30,000 rows were estimated at 13.4 GiB
// (2·8N²) and refused under a smaller budget; the run takes 35 MB.
func propagationBytes(ln learner.Learner, ds *dataset.Dataset) (float64, string, bool) {
	aff, ok := propagationAffinity(ln)
	if !ok || aff.Kind != propagate.KNN {
		return 0, "", false
	}
	k := aff.K
	if k <= 0 {
		k = 7
	}
	n, c := float64(ds.Len()), float64(max(len(ds.Classes), 1))
	need := 8*n*float64(ds.Dim()) + 3*2*n*float64(k)*16 + 6*8*n*c
	return need, fmt.Sprintf("%s on the %d-NN graph of %d rows", ln.Name(), k, ds.Len()), true
}

// evalNeed is eval's largest allocation: the largest kernel matrix when a
// learner takes one, lp/spreading's kNN graph (sparse), and 2·8N² for a
// dense affinity. eval --learner lp on the default knn:10 builds no kernel
// matrix and was refused at 30,000 rows under a budget the run never
// approaches.
func evalNeed(learners []learner.Learner, specs []kernel.Spec, ds *dataset.Dataset) float64 {
	if len(learners) == 0 { // --metric bep: its scorers take the kernels
		return evalBytes(specs, ds.Len())
	}
	need := 0.0
	n := float64(ds.Len())
	for _, l := range learners {
		switch b, _, sparse := propagationBytes(l, ds); {
		case ssl.UsesKernel(l):
			need = max(need, evalBytes(specs, ds.Len()))
		case sparse:
			need = max(need, b)
		default:
			need = max(need, 2*8*n*n)
		}
	}
	return need
}

// propagationAffinity returns the affinity of label propagation or
// spreading (Precomputed for the kernel matrix); false for other learners.
func propagationAffinity(ln learner.Learner) (propagate.Affinity, bool) {
	if p, ok := learner.As[propagate.Propagation](ln); ok {
		return p.Affinity, true
	}
	if s, ok := learner.As[propagate.Spreading](ln); ok {
		return s.Affinity, true
	}
	return propagate.Affinity{}, false
}
