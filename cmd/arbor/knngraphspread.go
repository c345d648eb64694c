package main

import (
	"fmt"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"

	"github.com/arbor-ml/arbor/dataset"
)

// landmarkNeed is the memory estimate of eval --landmarks: the N×M
// features and M×M blocks for the learners that use the landmarks, the
// sparse graph (propagationBytes) for spreading on the kNN graph.
// It returns the largest, what it is for, and the hint for the error.
func landmarkNeed(learners []learner.Learner, ds *dataset.Dataset, m int) (float64, string, string) {
	need, what, hint := 0.0, "", ""
	for _, l := range learners {
		b, w, h := landmarkBytes(ds.Len(), ds.Dim(), m), fmt.Sprintf("%d landmarks for %d rows", m, ds.Len()), "use fewer --landmarks"
		if _, ok := pipeline.KNNGraphSpreading(l, ds.Len(), ds.Dim()); ok {
			b, w, _ = propagationBytes(l, ds)
			h = "use fewer neighbours (--affinity knn:K)"
		}
		if b > need {
			need, what, hint = b, w, h
		}
	}
	return need, what, hint
}
