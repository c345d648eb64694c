package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/svm"
)

// TestVersion1File: a pipeline file written by format version 1 (made by
// TestWriteV1Fixture with ARBOR_WRITE_FIXTURE=1: rbf:0.5 SVM on iris with
// every fifth row labelled, scaled with std) still loads, and labels new
// points as an SVM fitted now on the same data does.
func TestVersion1File(t *testing.T) {
	f, err := os.Open("testdata/iris_rbf_svm_v1.arbor")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := pipeline.Load(f, "iris_rbf_svm_v1.arbor")
	if err != nil {
		t.Fatal(err)
	}
	ds, sc, y, newX := fixture(t)
	m, err := svm.Classifier{C: 1, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(context.Background(), ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	Xt, _ := sc.Transform(nil, newX)
	want, err := m.PredictPoints(context.Background(), nil, Xt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Predict(context.Background(), newX)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("version 1 file: %v, fitted now: %v", got, want)
	}
}

// TestWriteV1Fixture rewrites testdata/iris_rbf_svm_v1.arbor when
// ARBOR_WRITE_FIXTURE=1: the current file without its checksum line, as
// version 1.
func TestWriteV1Fixture(t *testing.T) {
	if os.Getenv("ARBOR_WRITE_FIXTURE") != "1" {
		t.Skip("set ARBOR_WRITE_FIXTURE=1 to rewrite the version 1 fixture")
	}
	b := asVersion(t, savedIris(t), 1)
	if err := os.WriteFile("testdata/iris_rbf_svm_v1.arbor", b, 0o644); err != nil {
		t.Fatal(err)
	}
}
