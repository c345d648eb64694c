package main

import (
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/ssl"
)

// propagationBytes is pipeline's estimate of lp and spreading on a kNN
// affinity (a sparse graph); false for the dense affinities.
func propagationBytes(ln learner.Learner, ds *dataset.Dataset) (float64, string, bool) {
	return pipeline.PropagationBytes(ln, pipeline.ShapeOf(ds, nil))
}

// evalBytes is eval's kernel matrices: kernel.BuildAll returns all of
// them and eval keeps them for every split (8N² each), plus the largest
// transient of one build (pdist, a linkage's working matrix, geodesics).
// With --float32 eval builds one at a time (evalNeed32).
func evalBytes(specs []kernel.Spec, n int) float64 {
	nn := 8 * float64(n) * float64(n)
	held, transient := 0.0, 0.0
	for _, s := range specs {
		held += nn
		transient = max(transient, kernel.Bytes(s, n)-nn)
	}
	return held + transient
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
