package arborbeam_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
)

// twinOptions read the Parquet fixture's numeric columns without nulls
// (f2 has some; note is text), the ID and the label.
func twinOptions() dataset.CSVOptions {
	return dataset.CSVOptions{ID: "name", Label: "label", Ignore: []string{"note", "f2"}}
}

// TestLoadParquetEqualsTwin: LoadParquet reads the fixture as
// dataset.Load reads its CSV twin: the same features, values, IDs,
// classes and labels; a null is a missing value: an error naming its
// row and column, or with AllowMissing a missing cell.
func TestLoadParquetEqualsTwin(t *testing.T) {
	ctx := t.Context()
	got, err := arborbeam.LoadParquet(ctx, "testdata/points.parquet", twinOptions())
	if err != nil {
		t.Fatal(err)
	}
	want, err := dataset.Load("testdata/points.csv", twinOptions())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Features, ",") != strings.Join(want.Features, ",") || strings.Join(got.IDs, ",") != strings.Join(want.IDs, ",") ||
		strings.Join(got.Classes, ",") != strings.Join(want.Classes, ",") || got.LabelName != want.LabelName || got.IDName != want.IDName {
		t.Fatalf("Parquet: features %v, classes %v, label %q, ID %q; twin %v, %v, %q, %q", got.Features, got.Classes, got.LabelName, got.IDName,
			want.Features, want.Classes, want.LabelName, want.IDName)
	}
	g, w := got.X.RawMatrix().Data, want.X.RawMatrix().Data
	if len(g) != len(w) || len(g) != 300*3 {
		t.Fatalf("%d values, twin %d", len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("value %d: %v, twin %v", i, g[i], w[i])
		}
	}
	for i := range got.Y {
		if got.Y[i] != want.Y[i] {
			t.Fatalf("row %d: class %d, twin %d", i, got.Y[i], want.Y[i])
		}
	}
	opt := twinOptions()
	opt.Ignore = []string{"note"}
	_, err = arborbeam.LoadParquet(ctx, "testdata/points.parquet", opt)
	if want := `points.parquet: row 5 (counting from 0 in the file), column "f2"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("f2's nulls: error %v, want one naming %q", err, want)
	}
	opt.AllowMissing = true
	ds, err := arborbeam.LoadParquet(ctx, "testdata/points.parquet", opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Missing) == 0 || ds.Missing[0].Row != 5 {
		t.Fatalf("missing values %v, want the first in row 5 (f2's nulls)", ds.Missing)
	}
}

// TestKNNGraphParquet: the graph of the Parquet fixture is the graph of
// its CSV twin, line for line (blocks of 70 rows: 5 × 5 tasks).
func TestKNNGraphParquet(t *testing.T) {
	dir := t.TempDir()
	graph := func(data, name string) []string {
		opt := arborbeam.GraphOptions{Data: data, K: 5, Block: 70, CSV: twinOptions()}
		out := arborbeam.NewOutput(filepath.Join(dir, name))
		nb := (300 + 69) / 70
		if err := runPipeline(t, func(s beam.Scope) {
			arborbeam.Finalize(s, arborbeam.WriteGraph(s, arborbeam.KNNGraph(s, opt, 300), out, nb), out)
		}); err != nil {
			t.Fatal(err)
		}
		var lines []string
		for q := 0; q < nb; q++ {
			text, err := os.ReadFile(filepath.Join(out.Dir, arborbeam.GraphPartName(q, nb)))
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, strings.Split(strings.TrimSpace(string(text)), "\n")...)
		}
		return lines
	}
	want, got := graph(abs(t, "testdata/points.csv"), "csv"), graph(abs(t, "testdata/points.parquet"), "parquet")
	if len(want) < 300*5 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the Parquet file's graph (%d lines) differs from its twin's (%d lines)", len(got), len(want))
	}
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestFitParquet: arbor-beam fit on the Parquet fixture (three row
// groups, chunks of 40 rows) writes the model arbor classify writes on
// its CSV twin, byte for byte; a null among the features fails the job
// naming the file, the row group, the row and the column.
func TestFitParquet(t *testing.T) {
	dir := t.TempDir()
	want := filepath.Join(dir, "classify.arbor")
	arbor(t, "classify", "--data", "testdata/points.csv", "--id", "name", "--label", "label", "--ignore", "note,f2",
		"--learner", "lp", "--affinity", "rbf:2", "--landmarks", "25", "--seed", "2", "--save-model", want, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	fit := func(opt dataset.CSVOptions, model string) error {
		out, name := arborbeam.ModelOutput(model)
		ro := arborbeam.ReadOptions{Chunk: 40, CSV: opt}
		return runPipeline(t, func(s beam.Scope) {
			written, err := arborbeam.Fit(s, beam.Create(s, abs(t, "testdata/points.parquet")), ro,
				arborbeam.FitSettings{Learner: "lp", Landmarks: 25, Seed: 2, Params: map[string]string{"affinity": "rbf:2"}}, out, name)
			if err != nil {
				t.Fatal(err)
			}
			arborbeam.Finalize(s, written, out)
		})
	}
	got := filepath.Join(dir, "beam", "beam.arbor")
	if err := fit(twinOptions(), got); err != nil {
		t.Fatal(err)
	}
	w, _ := os.ReadFile(want)
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if len(w) == 0 || !bytes.Equal(w, g) {
		t.Fatalf("the model fitted on the Parquet file (%d bytes) differs from arbor classify's on its twin (%d bytes)", len(g), len(w))
	}
	opt := twinOptions()
	opt.Ignore = []string{"note"}
	err = fit(opt, filepath.Join(dir, "null", "m.arbor"))
	for _, s := range []string{"points.parquet", "row group 0", "row 5 ", `"f2"`} {
		if err == nil || !strings.Contains(err.Error(), s) {
			t.Fatalf("a null feature: error %v, want one naming %s", err, s)
		}
	}
}
