package modelselect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
)

// TestGrids: each family takes the settings it reads, as lists; unknown
// families, no family, bad lists and settings no family reads are
// settings errors naming the flag.
func TestGrids(t *testing.T) {
	g, err := Grids("svm, ,KNN", map[string]string{"C": "0.1,1", "k": "1-3"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Grid{
		{Learner: "svm", Params: map[string][]string{"C": {"0.1", "1"}}},
		{Learner: "knn", Params: map[string][]string{"k": {"1", "2", "3"}}},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("Grids = %+v, want %+v", g, want)
	}
	for _, c := range []struct {
		learners string
		settings map[string]string
		want     string
	}{
		{"svm,nosuch", nil, `--learner: unknown learner "nosuch" (`},
		{"linsvm", nil, `--learner: unknown learner "linsvm" (`},
		{" , ", nil, "--learner is empty"},
		{"knn", map[string]string{"k": "3-1"}, "--k: "},
		{"svm", map[string]string{"C": "1", "k": "3"}, "--k has no effect on --learner svm (it is for knn"},
	} {
		_, err := Grids(c.learners, c.settings)
		if !errors.Is(err, learner.ErrSettings) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Grids(%q, %v): %v, want %q…", c.learners, c.settings, err, c.want)
		}
	}
}

// TestWriteTable: a line per candidate in grid order with its rank,
// setting, mean and std, then the best candidate.
func TestWriteTable(t *testing.T) {
	ds, _ := dataset.Embedded("wine")
	folds, _ := StratifiedKFold(ds.Y, 3, false, 0)
	res, err := Search{Grids: []Grid{{Learner: "knn", Params: map[string][]string{"k": {"1", "15"}}, Kernels: []string{"linear"}}}, Folds: folds}.Run(context.Background(), ds)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if len(lines) != 6 || lines[3] != "" || lines[5] != "" {
		t.Fatalf("table:\n%s", buf.String())
	}
	for i, r := range res.Rows() {
		f := strings.Fields(lines[1+i])
		if want := []string{fmt.Sprint(r.Rank), r.Learner, "k=" + r.Params["k"], "kernel=linear", fmt.Sprintf("%.4f", float64(r.Mean)), fmt.Sprintf("%.4f", float64(r.Std))}; !reflect.DeepEqual(f, want) {
			t.Errorf("line %d: %q, want %q", 1+i, f, want)
		}
	}
	if b := res.Candidates[res.Best]; !strings.HasPrefix(lines[4], "best: "+b.String()+" (mean ") {
		t.Errorf("best line %q, want %s", lines[4], b)
	}
	buf.Reset()
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&buf)
	for i, r := range res.Rows() {
		var got struct {
			Learner string            `json:"learner"`
			Params  map[string]string `json:"params"`
			Rank    int               `json:"rank_test_score"`
		}
		if err := dec.Decode(&got); err != nil || got.Learner != r.Learner || got.Params["k"] != r.Params["k"] || got.Rank != r.Rank {
			t.Errorf("JSON object %d: %+v %v, want %+v", i, got, err, r)
		}
	}
	if dec.More() {
		t.Error("more JSON objects than candidates")
	}
}

// TestAddListFlags: a flag per learner setting, its default its text; the
// flags given (a bool one alone) are recorded for Grids, the others not.
func TestAddListFlags(t *testing.T) {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	given := AddListFlags(fs)
	flags, _ := learner.Flags()
	for _, f := range flags {
		if fl := fs.Lookup(f.Name); fl == nil || fl.DefValue != f.Default {
			t.Errorf("--%s: %v, want default %q", f.Name, fl, f.Default)
		}
	}
	if err := fs.Parse([]string{"--C", "0.1,1", "--k", "1-3", "--soft"}); err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"C": "0.1,1", "k": "1-3", "soft": "true"}; !reflect.DeepEqual(given, want) {
		t.Errorf("given %v, want %v", given, want)
	}
	grids, err := Grids("svm,knn", map[string]string{"C": given["C"], "k": given["k"]})
	if err != nil || len(grids) != 2 || !reflect.DeepEqual(grids[0].Params["C"], []string{"0.1", "1"}) || len(grids[1].Params["k"]) != 3 {
		t.Errorf("grids %+v, %v", grids, err)
	}
}

// TestSetKernels: every grid gets every kernel, in order, as spec text.
func TestSetKernels(t *testing.T) {
	grids, err := Grids("svm,knn", nil)
	if err != nil {
		t.Fatal(err)
	}
	specs, err := kernel.ParseSpecs("linear,rbf:0.5")
	if err != nil {
		t.Fatal(err)
	}
	SetKernels(grids, specs)
	for _, g := range grids {
		if !reflect.DeepEqual(g.Kernels, []string{"linear", "rbf:0.5"}) {
			t.Errorf("%s: kernels %q", g.Learner, g.Kernels)
		}
	}
}
