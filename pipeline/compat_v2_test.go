package pipeline_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/pipeline"
)

// savedIrisLandmarks is the version 2 fixture's pipeline: hck:average on
// 30 k-means landmarks (seed 1) of scaled iris with every fifth row
// labelled, linear SVM (C = 1, seed 1) on the Nyström features.
func savedIrisLandmarks(t *testing.T) *pipeline.Pipeline {
	t.Helper()
	ctx := context.Background()
	ds, sc, y, _ := fixture(t)
	lm, err := landmark.Choose(ctx, ds.X, 30, landmark.KMeans, 1)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := kernel.ParseSpec("hck:average")
	// The tree on the landmarks alone, as FitMap built hck:average when the
	// fixture was written (it now uses the tree of all rows' cells).
	fm, Z, err := landmark.Settings{Kernel: spec, Tree: landmark.TreeLandmarks}.Fit(ctx, ds.X, lm)
	if err != nil {
		t.Fatal(err)
	}
	gamma := 0.0
	m, err := linsvm.Classifier{C: 1, Seed: 1}.Fit(ctx, Z, y)
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.NewLandmarks(ds, sc, spec, gamma, fm, m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVersion2File: a landmark pipeline written by format version 2 (made
// by TestWriteV2Fixture with ARBOR_WRITE_FIXTURE=1) still loads and labels
// new points as the same pipeline fitted now.
func TestVersion2File(t *testing.T) {
	f, err := os.ReadFile("testdata/iris_hck_linsvm_v2.arbor")
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.Load(bytes.NewReader(f), "iris_hck_linsvm_v2.arbor")
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, newX := fixture(t)
	got, err := p.Predict(context.Background(), newX)
	if err != nil {
		t.Fatal(err)
	}
	want, err := savedIrisLandmarks(t).Predict(context.Background(), newX)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("version 2 file: %v, fitted now: %v", got, want)
	}
}

// TestWriteV2Fixture rewrites testdata/iris_hck_linsvm_v2.arbor when
// ARBOR_WRITE_FIXTURE=1: the current file without its checksum line, as
// version 2.
func TestWriteV2Fixture(t *testing.T) {
	if os.Getenv("ARBOR_WRITE_FIXTURE") != "1" {
		t.Skip("set ARBOR_WRITE_FIXTURE=1 to rewrite the version 2 fixture")
	}
	var buf bytes.Buffer
	if err := savedIrisLandmarks(t).Save(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/iris_hck_linsvm_v2.arbor", asVersion(t, buf.Bytes(), 2), 0o644); err != nil {
		t.Fatal(err)
	}
}
