package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/svm"
)

// TestStreamMagnitude: Pipeline.Stream holds new points to the training
// rule: a value whose squares overflow float64, before the model's
// scaling (1e300) or after it (1e-140 in a column whose training spread
// is 1e-300), is an error naming the file's line and the feature, for
// any chunk size, and fn never sees its chunk.
func TestStreamMagnitude(t *testing.T) {
	p, err := pipeline.Load(bytes.NewReader(savedIris(t)), "iris.arbor")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(strings.Join(p.Features, ",") + "\n")
	for i := 0; i < 9; i++ {
		sb.WriteString("5.1,3.5,1.4,0.2\n")
	}
	good := sb.String()
	bad := good + "5.1,3.5,1e300,0.2\n"
	for _, chunk := range []int{1, 4, 100} {
		seen := 0
		err := p.Stream(context.Background(), strings.NewReader(bad), "new.csv", dataset.CSVOptions{}, chunk, func(ds *dataset.Dataset) error {
			seen += ds.Len()
			return nil
		})
		want := `new.csv:11: column "` + p.Features[2] + `": value too large: 1e+300: sums of squares of such values overflow float64`
		if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, dataset.ErrMagnitude) {
			t.Errorf("chunk %d: %v, want %s…", chunk, err, want)
		}
		if seen != 9-9%chunk && !(chunk == 1 && seen == 9) {
			t.Errorf("chunk %d: fn saw %d rows", chunk, seen)
		}
	}
	// a column the training rows barely spread: tiny raw values scale past the limit
	ds, _, y, _ := fixture(t)
	m, err := svm.Classifier{C: 1, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(context.Background(), ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := kernel.ParseSpec("rbf:0.5")
	narrow := &dataset.Scaler{How: "std", Shift: make([]float64, 4), Factor: []float64{1, 1, 1e-300, 1}}
	q, err := pipeline.New(ds, narrow, kernel.Built{Spec: sp}, kernel.RuleTree, m)
	if err != nil {
		t.Fatal(err)
	}
	err = q.Stream(context.Background(), strings.NewReader(strings.ReplaceAll(good, ",1.4,", ",0,")+"5.1,3.5,1e-140,0.2\n"), "new.csv", dataset.CSVOptions{}, 4, func(*dataset.Dataset) error { return nil })
	want := `new.csv:11: column "` + p.Features[2] + `": value too large: 1e-140 is 1e+160 after the model's scaling (std)`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("scaled: %v, want %s…", err, want)
	}
	if err := p.Stream(context.Background(), strings.NewReader(good), "new.csv", dataset.CSVOptions{}, 4, func(*dataset.Dataset) error { return nil }); err != nil {
		t.Errorf("good rows: %v", err)
	}
}
