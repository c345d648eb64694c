package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalParquet: arbor-beam eval on the Parquet fixture prints the
// table it prints on the fixture's CSV twin (which is arbor eval's:
// TestEvalEqualsArborEval), the measured seconds aside.
func TestEvalParquet(t *testing.T) {
	dir := t.TempDir()
	tables := map[string]string{}
	for _, ext := range []string{"csv", "parquet"} {
		out := filepath.Join(dir, ext+".txt")
		args := []string{"eval", "--quiet", "--out", out, "--data", filepath.Join("..", "..", "arborbeam", "testdata", "points."+ext),
			"--id", "name", "--label", "label", "--ignore", "note,f2", "--kernel", "rbf:0.5", "--learner", "svm,knn",
			"--labeled-per-class", "5", "--repeats", "2", "--seed", "4"}
		var stderr bytes.Buffer
		if code := run(context.Background(), args, &stderr); code != 0 {
			t.Fatalf("arbor-beam eval on the %s file: exit %d\n%s", ext, code, stderr.String())
		}
		text, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		// The table may name its data file.
		tables[ext] = untimed(t, strings.ReplaceAll(string(text), "points."+ext, "points.DATA"), false)
	}
	if tables["csv"] == "" || tables["parquet"] != tables["csv"] {
		t.Fatalf("on the Parquet file\n%s\non its CSV twin\n%s", tables["parquet"], tables["csv"])
	}
}
