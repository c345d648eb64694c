package arborbeam_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// The fixture testdata/points.parquet and its CSV twin testdata/points.csv
// are written by testdata/gen_parquet.go (arrow-go's Parquet writer):
// three row groups of 100 rows; DOUBLE, FLOAT, INT64 and string columns;
// nulls in f2.
const fixture = "testdata/points.parquet"

// TestParquetValuesEqualCSVTwin: the Parquet reader gives, chunk by
// chunk over the row groups, the columns, IDs, values and missing cells
// the core's reader gives on the CSV twin.
func TestParquetValuesEqualCSVTwin(t *testing.T) {
	ctx := context.Background()
	opt := dataset.CSVOptions{ID: "name", Label: "label", Ignore: []string{"note"}, AllowMissing: true}
	want, err := dataset.Load("testdata/points.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(fixture)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := arborbeam.ParquetRowGroups(ctx, fixture, st.Size(), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 3 {
		t.Fatalf("%d row groups, want 3", len(groups))
	}
	row := 0
	for _, g := range groups {
		r, c, err := arborbeam.OpenParquet(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		err = arborbeam.ReadParquet(ctx, r, g, opt, 33, pipeline.StreamPart, func(ds *dataset.Dataset, first int64) error {
			if int(first) != row {
				t.Fatalf("chunk starts at row %d, want %d", first, row)
			}
			if strings.Join(ds.Features, ",") != strings.Join(want.Features, ",") {
				t.Fatalf("features %q, want %q", ds.Features, want.Features)
			}
			for i := 0; i < ds.Len(); i++ {
				if ds.IDs[i] != want.IDs[row+i] {
					t.Fatalf("row %d: ID %q, want %q", row+i, ds.IDs[i], want.IDs[row+i])
				}
				if ds.Classes[ds.Y[i]] != want.Classes[want.Y[row+i]] {
					t.Fatalf("row %d: label %q, want %q", row+i, ds.Classes[ds.Y[i]], want.Classes[want.Y[row+i]])
				}
				for j := 0; j < ds.Dim(); j++ {
					a, b := ds.X.At(i, j), want.X.At(row+i, j)
					if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
						t.Fatalf("row %d, %s: %v, want %v", row+i, ds.Features[j], a, b)
					}
				}
			}
			row += ds.Len()
			return nil
		})
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if row != want.Len() || len(want.Missing) == 0 {
		t.Fatalf("%d rows read, want %d (the twin has %d missing cells)", row, want.Len(), len(want.Missing))
	}
}

// TestParquetPredictEqualsArborPredict: arbor-beam predict and features
// on the Parquet file (chunks of 37 rows across row groups) write what
// they write for its CSV twin, which is arbor predict's output byte for
// byte; the Parquet part files hold the same labels; a null the model
// cannot fill is an error naming the file, the row group, the row and
// the column.
func TestParquetPredictEqualsArborPredict(t *testing.T) {
	dir := t.TempDir()
	train, _ := writeData(t, dir)
	model := filepath.Join(dir, "m.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--impute", "mean", "--kernel", "rbf:0.5", "--learner", "svm",
		"--landmarks", "30", "--seed", "2", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	for _, f := range []string{"points.parquet", "points.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(in, f), b, 0o644)
	}
	want := filepath.Join(dir, "want.csv")
	arbor(t, "predict", "--model", model, "--data", filepath.Join(in, "points.csv"), "--out", want, "--quiet")
	opt := arborbeam.ReadOptions{Chunk: 37, SplitBytes: 3000}
	opt.CSV.AllowMissing, opt.CSV.LabelOptional = true, true // as arbor-beam predict reads
	run := func(name string, features bool, src string, w arborbeam.WriteOptions) string {
		out := filepath.Join(dir, name)
		o := arborbeam.NewOutput(out)
		err := runPipeline(t, func(s beam.Scope) {
			if features {
				arborbeam.FeatureFiles(s, model, beam.Create(s, src), opt, o, w)
			} else {
				arborbeam.PredictFiles(s, model, beam.Create(s, src), opt, o, w)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ordered := arborbeam.WriteOptions{Ordered: true}
	labels := run("labels", false, filepath.Join(in, "points.parquet"), ordered)
	w, _ := os.ReadFile(want)
	g, err := os.ReadFile(filepath.Join(labels, "points.predictions.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w, g) || len(w) < 300*4 {
		t.Fatalf("arbor-beam predict on Parquet wrote\n%.300s\narbor predict on the CSV twin\n%.300s", g, w)
	}
	fromParquet := run("zp", true, filepath.Join(in, "points.parquet"), ordered)
	fromCSV := run("zc", true, filepath.Join(in, "points.csv"), ordered)
	zp, err := os.ReadFile(filepath.Join(fromParquet, "points.features.csv"))
	if err != nil {
		t.Fatal(err)
	}
	zc, _ := os.ReadFile(filepath.Join(fromCSV, "points.features.csv"))
	if !bytes.Equal(zp, zc) || len(zc) < 300*30 {
		t.Fatalf("features of the Parquet file differ from those of its CSV twin")
	}
	parts := run("parts", false, filepath.Join(in, "points.parquet"), arborbeam.WriteOptions{Shards: 2, Format: arborbeam.FormatParquet})
	// The parts, read back: file, row, name, label; the labels by row
	// are arbor predict's.
	wantLabel := map[string]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(w)), "\n")[1:] {
		f := strings.Split(line, ",")
		wantLabel[f[0]] = f[2]
		if f[0] != strconv.Itoa(i) {
			t.Fatalf("arbor predict's row %d is numbered %s", i, f[0])
		}
	}
	seen := 0
	for k := 0; k < 2; k++ {
		p := filepath.Join(parts, arborbeam.PartName(k, 2, ".parquet"))
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		groups, err := arborbeam.ParquetRowGroups(context.Background(), p, st.Size(), dataset.CSVOptions{NoLabel: true, Features: []string{"row"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, gr := range groups {
			if strings.Join(gr.Header, ",") != "file,row,name,label" {
				t.Fatalf("%s: columns %q", p, gr.Header)
			}
			r, c, err := arborbeam.OpenParquet(context.Background(), gr)
			if err != nil {
				t.Fatal(err)
			}
			err = arborbeam.ParquetText(context.Background(), r, gr, 1000, func(lines []byte, _ int64) error {
				for _, line := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
					f := strings.Split(line, ",")
					if !strings.HasSuffix(f[0], "points.parquet") || wantLabel[f[1]] != f[3] {
						t.Fatalf("%s: row %q, arbor predict labels row %s %q", p, line, f[1], wantLabel[f[1]])
					}
					seen++
				}
				return nil
			})
			c.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if seen != 300 {
		t.Fatalf("the Parquet parts hold %d rows, want 300", seen)
	}

	strict := filepath.Join(dir, "strict.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm",
		"--save-model", strict, "--quiet", "--out", filepath.Join(dir, "c2.csv"))
	o := arborbeam.NewOutput(filepath.Join(dir, "strict"))
	err = runPipeline(t, func(s beam.Scope) {
		arborbeam.PredictFiles(s, strict, beam.Create(s, filepath.Join(in, "points.parquet")), opt, o, arborbeam.WriteOptions{Ordered: true})
	})
	for _, want := range []string{"points.parquet", "row group 0", "row 5 (counting from 0 in the file)", `column "f2"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want one naming %s", err, want)
		}
	}
}
