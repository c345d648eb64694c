package main

import (
	"context"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/metrics"
)

// TestAgglomerativeEqualsSKLearn: Arbor's agglomerative trees cut into K
// clusters give scikit-learn 1.2.1's AgglomerativeClustering partitions
// (testdata/sklearn_labels.csv.gz, made by sklearn_labels.py) on the six
// z-scored toy sets: adjusted Rand index 1 between the label vectors.
func TestAgglomerativeEqualsSKLearn(t *testing.T) {
	sk, err := readSKLabels("testdata/sklearn_labels.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(sk.labels) != len(toys) || len(sk.methods) != 10 {
		t.Fatalf("fixture: %d sets, methods %v", len(sk.labels), sk.methods)
	}
	for _, name := range toys {
		X, _, k := load("", name)
		for _, m := range []hclust.Method{hclust.Single, hclust.Average, hclust.Complete, hclust.Ward} {
			lab, err := agglo(m)(context.Background(), X, k)
			if err != nil {
				t.Fatal(err)
			}
			want := sk.labels[name]["agglo_"+m.String()]
			ari, err := metrics.ARI(lab, want)
			if err != nil {
				t.Fatal(err)
			}
			if ari != 1 {
				t.Errorf("%s %s: ARI %.6f between Arbor's and scikit-learn's labels, want 1", name, m, ari)
			}
		}
	}
}
