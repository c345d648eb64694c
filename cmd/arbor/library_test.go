package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestLibraryEqualsCommandLine: a Go program using only library packages
// (dataset, pipeline) reads the training CSV, fits hck:average with an SVM
// on 100 landmarks, saves, loads and labels new rows, and gets the labels
// of arbor classify … --save-model followed by arbor predict; for the exact
// kernel matrix too.
func TestLibraryEqualsCommandLine(t *testing.T) {
	ctx := context.Background()
	train, newPoints := "../../examples/two_moons_10_labels.csv", "../../examples/new_points.csv"
	for _, landmarks := range []string{"100", "0"} {
		dir := t.TempDir()
		model, out := filepath.Join(dir, "m.arbor"), filepath.Join(dir, "pred.csv")
		var so, se bytes.Buffer
		if err := run(ctx, []string{"classify", "--data", train, "--label", "moon", "--id", "id", "--kernel", "hck:average",
			"--learner", "svm", "--landmarks", landmarks, "--save-model", model, "--out", filepath.Join(dir, "fit.csv"), "--quiet"}, &so, &se); err != nil {
			t.Fatalf("classify: %v\n%s", err, se.String())
		}
		if err := run(ctx, []string{"predict", "--model", model, "--data", newPoints, "--id", "id", "--out", out}, &so, &se); err != nil {
			t.Fatalf("predict: %v\n%s", err, se.String())
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(recs[0], "label")
		var cli []string
		for _, r := range recs[1:] {
			cli = append(cli, r[col])
		}

		// The library alone.
		ds, err := dataset.Load(train, dataset.CSVOptions{Label: "moon", ID: "id"})
		if err != nil {
			t.Fatal(err)
		}
		m := 100
		if landmarks == "0" {
			m = 0
		}
		fit, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "hck:average", Learner: "svm", Landmarks: m}, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := fit.Pipeline()
		if err != nil {
			t.Fatal(err)
		}
		var file bytes.Buffer
		if err := p.Save(&file); err != nil {
			t.Fatal(err)
		}
		q, err := pipeline.Load(&file, "m.arbor")
		if err != nil {
			t.Fatal(err)
		}
		pts, err := dataset.Load(newPoints, dataset.CSVOptions{NoLabel: true, ID: "id"})
		if err != nil {
			t.Fatal(err)
		}
		X, err := q.Columns(pts)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := q.Predict(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		var lib []string
		for _, c := range pred {
			lib = append(lib, q.Classes[c])
		}
		if !slices.Equal(lib, cli) || len(lib) != 6 {
			t.Errorf("--landmarks %s: library %v, command line %v", landmarks, lib, cli)
		}
	}
}
