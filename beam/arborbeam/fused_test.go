package arborbeam_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

// TestPredictFilesEqualsArborPredict: PredictFiles on prism, over files
// split into byte ranges of 300 bytes whose rows are counted in blocks of
// 70 bytes (so that a range starts inside a counted block), chunks of 37
// rows, gives every row arbor predict's label and row number: the part
// files hold the rows in file and row order, the rows of a file without
// an ID column with an empty ID, and the ordered files are byte for byte
// arbor predict's output.
func TestPredictFilesEqualsArborPredict(t *testing.T) {
	dir := t.TempDir()
	train, inputs := writeData(t, dir)
	// A file without the ID column.
	var d strings.Builder
	d.WriteString("f1,f2,f3,f4\n")
	for i := 0; i < 300; i++ {
		v := point(5000 + i)
		fmt.Fprintf(&d, "%.4f,%.4f,%.4f,%.4f\n", v[0], v[1], v[2], v[3])
	}
	inputs = append(inputs, filepath.Join(dir, "in", "d.csv"))
	os.WriteFile(inputs[3], []byte(d.String()), 0o644)
	for _, m := range []struct {
		name string
		args []string
	}{
		{"svm", []string{"--kernel", "rbf:0.5", "--learner", "svm"}},
		{"anchor-graph", []string{"--learner", "lp", "--affinity", "rbf:2", "--landmarks", "40", "--seed", "3"}},
	} {
		t.Run(m.name, func(t *testing.T) {
			mdir := filepath.Join(dir, m.name)
			model := filepath.Join(mdir, "m.arbor")
			os.MkdirAll(mdir, 0o755)
			arbor(t, append([]string{"classify", "--data", train, "--id", "name", "--save-model", model, "--quiet", "--out", filepath.Join(mdir, "c.csv")}, m.args...)...)
			want := map[string]string{} // file → arbor predict's output
			for _, in := range inputs {
				want[in] = arbor(t, "predict", "--model", model, "--data", in, "--quiet")
			}
			opt := arborbeam.ReadOptions{Chunk: 37, SplitBytes: 300, CountBytes: 70}
			parts := arborbeam.NewOutput(filepath.Join(mdir, "parts"))
			ordered := arborbeam.NewOutput(filepath.Join(mdir, "ordered"))
			err := runPipeline(t, func(s beam.Scope) {
				files := beam.Create(s, filepath.Join(dir, "in", "*.csv"), filepath.Join(dir, "in", "*.gz"))
				arborbeam.PredictFiles(s, model, files, opt, parts, arborbeam.WriteOptions{Shards: 3})
				arborbeam.PredictFiles(s, model, files, opt, ordered, arborbeam.WriteOptions{Ordered: true})
			})
			if err != nil {
				t.Fatal(err)
			}
			// The parts, one after the other, are the files' outputs in
			// the order of their names, each row with its file.
			var got [][]string
			for k := 0; k < 3; k++ {
				recs := readCSV(t, filepath.Join(parts.Dir, arborbeam.PartName(k, 3, ".csv")))
				if strings.Join(recs[0], ",") != "file,row,name,label" {
					t.Fatalf("part %d header %v", k, recs[0])
				}
				if len(recs) < 2 {
					t.Fatalf("part %d holds no rows", k)
				}
				got = append(got, recs[1:]...)
			}
			var all [][]string
			for _, in := range []string{inputs[0], inputs[1], inputs[2], inputs[3]} {
				f := filepath.Join(mdir, "want.csv")
				os.WriteFile(f, []byte(want[in]), 0o644)
				recs := readCSV(t, f)
				for _, r := range recs[1:] {
					if len(r) == 2 { // no ID column
						r = []string{r[0], "", r[1]}
					}
					all = append(all, append([]string{in}, r...))
				}
			}
			// inputs are a.csv, b.csv, c.csv.gz, d.csv: in name order.
			if len(got) != len(all) {
				t.Fatalf("%d rows in the parts, arbor predict labelled %d", len(got), len(all))
			}
			for i := range all {
				if strings.Join(got[i], ",") != strings.Join(all[i], ",") {
					t.Fatalf("row %d of the parts %v, arbor predict %v", i, got[i], all[i])
				}
			}
			for _, in := range inputs {
				b, err := os.ReadFile(filepath.Join(ordered.Dir, arborbeam.OrderedName(in, false)))
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != want[in] {
					t.Fatalf("%s: ordered output differs from arbor predict's (%d vs %d bytes)", in, len(b), len(want[in]))
				}
			}
			for _, d := range []string{parts.Dir, ordered.Dir} {
				entries, _ := os.ReadDir(d)
				for _, e := range entries {
					if strings.HasPrefix(e.Name(), ".arbor-beam-tmp-") {
						t.Fatalf("%s: temporary directory %s left", d, e.Name())
					}
				}
			}
		})
	}
}

// TestPredictFilesBadCell: a bad cell deep in one file fails a
// PredictFiles job writing CSV or Parquet parts with the file's name and
// its own line number, and no output is final.
func TestPredictFilesBadCell(t *testing.T) {
	for _, f := range []arborbeam.Format{arborbeam.FormatCSV, arborbeam.FormatParquet} {
		dir := t.TempDir()
		train, inputs := writeData(t, dir)
		model := filepath.Join(dir, "m.arbor")
		arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
		line := spoilRow(t, inputs[1], ",b700,")
		out := arborbeam.NewOutput(filepath.Join(dir, "out"))
		err := runPipeline(t, func(s beam.Scope) {
			arborbeam.PredictFiles(s, model, beam.Create(s, filepath.Join(dir, "in", "*")),
				arborbeam.ReadOptions{Chunk: 50, SplitBytes: 1000}, out, arborbeam.WriteOptions{Shards: 2, Format: f})
		})
		want := inputs[1] + ":" + strconv.Itoa(line) + `: column "f2"`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("format %v: error %v, want one containing %q", f, err, want)
		}
		entries, _ := os.ReadDir(out.Dir)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".arbor-beam-tmp-") {
				t.Fatalf("format %v: a failed job left output file %s", f, e.Name())
			}
		}
	}
}

// TestFeatureFilesEqualsArborFeatures: FeatureFiles on prism with
// --ordered writes, for each input, the bytes arbor features writes, and
// its parts hold the same rows and values in file and row order.
func TestFeatureFilesEqualsArborFeatures(t *testing.T) {
	dir := t.TempDir()
	train, inputs := writeData(t, dir)
	model := filepath.Join(dir, "lm.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm", "--landmarks", "30", "--seed", "2",
		"--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	opt := arborbeam.ReadOptions{Chunk: 41, SplitBytes: 500, CountBytes: 130}
	parts := arborbeam.NewOutput(filepath.Join(dir, "parts"))
	ordered := arborbeam.NewOutput(filepath.Join(dir, "ordered"))
	err := runPipeline(t, func(s beam.Scope) {
		files := beam.Create(s, filepath.Join(dir, "in", "*"))
		arborbeam.FeatureFiles(s, model, files, opt, parts, arborbeam.WriteOptions{Shards: 2})
		arborbeam.FeatureFiles(s, model, files, opt, ordered, arborbeam.WriteOptions{Ordered: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []string // file,row,name,z… of every row, the files in order
	for _, in := range inputs {
		out := filepath.Join(dir, filepath.Base(in)+".z.csv")
		arbor(t, "features", "--model", model, "--data", in, "--out", out)
		w, _ := os.ReadFile(out)
		got, err := os.ReadFile(filepath.Join(ordered.Dir, arborbeam.OrderedName(in, true)))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(w) {
			t.Fatalf("%s: ordered features differ from arbor features' (%d vs %d bytes)", in, len(got), len(w))
		}
		for _, r := range readCSV(t, out)[1:] {
			want = append(want, in+","+strings.Join(r, ","))
		}
	}
	var got []string
	for k := 0; k < 2; k++ {
		recs := readCSV(t, filepath.Join(parts.Dir, arborbeam.PartName(k, 2, ".csv")))
		if h := strings.Join(recs[0][:4], ","); h != "file,row,name,z1" {
			t.Fatalf("part %d header %v", k, recs[0])
		}
		for _, r := range recs[1:] {
			got = append(got, strings.Join(r, ","))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the parts' %d rows differ from arbor features' %d rows", len(got), len(want))
	}
}

// TestPredictFilesFirstDataError: bad cells in two files, and a file with
// a header only, fail a PredictFiles job with the first error in file
// order, whichever task met its error first; no output is final.
func TestPredictFilesFirstDataError(t *testing.T) {
	dir := t.TempDir()
	train, inputs := writeData(t, dir)
	model := filepath.Join(dir, "m.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	lineA := spoilRow(t, inputs[0], "a800,")
	spoilRow(t, inputs[1], ",b30,")
	for _, c := range []struct {
		name string
		want string
	}{
		{"two bad cells", inputs[0] + ":" + strconv.Itoa(lineA) + `: column "f2"`},
		{"a header only first", filepath.Join(dir, "in", "0.csv") + ":2: header only, no data rows"},
	} {
		if c.name == "a header only first" {
			if err := os.WriteFile(filepath.Join(dir, "in", "0.csv"), []byte("name,f1,f2,f3,f4\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := arborbeam.NewOutput(filepath.Join(dir, "out"+strconv.Itoa(len(c.name))))
		err := runPipeline(t, func(s beam.Scope) {
			arborbeam.PredictFiles(s, model, beam.Create(s, filepath.Join(dir, "in", "*")),
				arborbeam.ReadOptions{Chunk: 50, SplitBytes: 1000}, out, arborbeam.WriteOptions{Shards: 2})
		})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Count(err.Error(), `"oops"`) > 1 {
			t.Fatalf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		entries, _ := os.ReadDir(out.Dir)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), ".arbor-beam-tmp-") {
				t.Fatalf("%s: a failed job left output file %s", c.name, e.Name())
			}
		}
	}
}
