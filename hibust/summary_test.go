package hibust_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/ssl"
)

// TestWriteSummary: one line on the partition, then WriteTree's lines.
func TestWriteSummary(t *testing.T) {
	ds, _ := dataset.Embedded("iris")
	X := dataset.MinMax(ds.X)
	labelled, _ := ssl.PerClass(ds.Y, 10, 0)
	y := make([]int, ds.Len())
	for i := range y {
		y[i] = hibust.Unlabeled
	}
	for _, i := range labelled {
		y[i] = ds.Y[i]
	}
	m, err := hibust.Classifier{Seed: 0}.Fit(context.Background(), X, y)
	if err != nil {
		t.Fatal(err)
	}
	var got, tree bytes.Buffer
	if err := m.WriteSummary(&got, ds.Classes); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteTree(&tree, ds.Classes); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("hibust   %d MCCK clusters (silhouette %.3f), %d confidence-labelled rows; tree:\n", m.Clusters, m.Silhouette, len(m.Confident())) + tree.String()
	if got.String() != want || m.Clusters != 12 {
		t.Errorf("WriteSummary:\n%s\nwant (12 clusters):\n%s", got.String(), want)
	}
}
