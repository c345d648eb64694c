package arborbeam_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/npy"
)

// readParquetRows returns the columns of a Parquet file and its rows, each
// cell as ParquetText gives it (a DOUBLE in the shortest form that reads
// back to it, as arbor features prints it).
func readParquetRows(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	ctx := context.Background()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := arborbeam.ParquetRowGroups(ctx, path, st.Size(), dataset.CSVOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 1 {
		t.Fatalf("%s: %d row groups, want one", path, len(groups))
	}
	g := groups[0]
	r, c, err := arborbeam.OpenParquet(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = arborbeam.ParquetText(ctx, r, g, 1000, func(lines []byte, _ int64) error {
		recs, err := csv.NewReader(strings.NewReader(string(lines))).ReadAll()
		rows = append(rows, recs...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return g.Header, rows
}

// wantRows returns, for each input in order, the rows of the CSV text
// out (arbor predict's or arbor features' output: row[,ID],values), each
// as file,row,ID,values (an empty ID for a file without one).
func wantRows(t *testing.T, dir string, inputs []string, out func(in string) string) []string {
	t.Helper()
	var all []string
	for i, in := range inputs {
		f := filepath.Join(dir, fmt.Sprintf("want%d.csv", i))
		os.WriteFile(f, []byte(out(in)), 0o644)
		recs := readCSV(t, f)
		withID := recs[0][1] == "name"
		for _, r := range recs[1:] {
			if !withID {
				r = append([]string{r[0], ""}, r[1:]...)
			}
			all = append(all, in+","+strings.Join(r, ","))
		}
	}
	return all
}

// checkSpread checks that part k of shards holds rows ⌈k·N/shards⌉ to
// ⌈(k+1)·N/shards⌉−1 of the N rows: sizes[k] rows each.
func checkSpread(t *testing.T, what string, sizes []int) {
	t.Helper()
	n := 0
	for _, s := range sizes {
		n += s
	}
	for k, s := range sizes {
		lo, hi := (k*n+len(sizes)-1)/len(sizes), ((k+1)*n+len(sizes)-1)/len(sizes)
		if s != hi-lo {
			t.Fatalf("%s: part %d of %d holds %d of %d rows, want %d", what, k, len(sizes), s, n, hi-lo)
		}
	}
}

// onlyFiles checks that dir holds exactly names (no temporary directory).
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}

// TestPartFormatsEqualArbor: PredictFiles and FeatureFiles on prism write
// Parquet and .npy parts from the ranges their reading tasks wrote (byte
// ranges of 300 bytes, rows counted in blocks of 70, chunks of 37 rows, a
// gzip file, a file without the ID column), three parts assembled by
// three tasks: the parts, one after the other, hold arbor predict's labels
// and arbor features' values of every row in file and row order, with the
// file, the row and the ID (empty for the file without one), and part k
// holds rows ⌈k·N/3⌉ … ⌈(k+1)·N/3⌉−1.
func TestPartFormatsEqualArbor(t *testing.T) {
	dir := t.TempDir()
	train, inputs := writeData(t, dir)
	var d strings.Builder
	d.WriteString("f1,f2,f3,f4\n")
	for i := 0; i < 300; i++ {
		v := point(5000 + i)
		fmt.Fprintf(&d, "%.4f,%.4f,%.4f,%.4f\n", v[0], v[1], v[2], v[3])
	}
	inputs = append(inputs, filepath.Join(dir, "in", "d.csv"))
	os.WriteFile(inputs[3], []byte(d.String()), 0o644)
	model := filepath.Join(dir, "lm.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm", "--landmarks", "30", "--seed", "2",
		"--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	labels := wantRows(t, dir, inputs, func(in string) string { return arbor(t, "predict", "--model", model, "--data", in, "--quiet") })
	features := wantRows(t, dir, inputs, func(in string) string {
		out := filepath.Join(dir, filepath.Base(in)+".z.csv")
		arbor(t, "features", "--model", model, "--data", in, "--out", out)
		b, _ := os.ReadFile(out)
		return string(b)
	})
	opt := arborbeam.ReadOptions{Chunk: 37, SplitBytes: 300, CountBytes: 70}
	lpq := arborbeam.NewOutput(filepath.Join(dir, "labels"))
	znpy := arborbeam.NewOutput(filepath.Join(dir, "znpy"))
	zpq := arborbeam.NewOutput(filepath.Join(dir, "zpq"))
	err := runPipeline(t, func(s beam.Scope) {
		files := beam.Create(s, filepath.Join(dir, "in", "*"))
		arborbeam.PredictFiles(s, model, files, opt, lpq, arborbeam.WriteOptions{Shards: 3, Format: arborbeam.FormatParquet})
		arborbeam.FeatureFiles(s, model, files, opt, znpy, arborbeam.WriteOptions{Shards: 3, Format: arborbeam.FormatNpy})
		arborbeam.FeatureFiles(s, model, files, opt, zpq, arborbeam.WriteOptions{Shards: 3, Format: arborbeam.FormatParquet})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out  arborbeam.Output
		want []string
		head string
	}{{lpq, labels, "file,row,name,label"}, {zpq, features, "file,row,name,z1"}} {
		var got []string
		var sizes []int
		var names []string
		for k := 0; k < 3; k++ {
			names = append(names, arborbeam.PartName(k, 3, ".parquet"))
			header, rows := readParquetRows(t, filepath.Join(c.out.Dir, names[k]))
			if h := strings.Join(header, ","); !strings.HasPrefix(h, c.head) {
				t.Fatalf("%s: columns %s, want %s…", names[k], h, c.head)
			}
			for _, r := range rows {
				got = append(got, strings.Join(r, ","))
			}
			sizes = append(sizes, len(rows))
		}
		onlyFiles(t, c.out.Dir, names...)
		if len(got) != len(c.want) {
			t.Fatalf("%s: %d rows in the parts, want %d", c.out.Dir, len(got), len(c.want))
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%s: row %d of the parts %s, want %s", c.out.Dir, i, got[i], c.want[i])
			}
		}
		checkSpread(t, c.out.Dir, sizes)
	}

	var got []string
	var sizes []int
	var names []string
	for k := 0; k < 3; k++ {
		base := filepath.Join(znpy.Dir, arborbeam.PartName(k, 3, ""))
		names = append(names, filepath.Base(base)+".npy", filepath.Base(base)+".rows.csv")
		recs := readCSV(t, base+".rows.csv")
		if h := strings.Join(recs[0], ","); h != "file,row,name" {
			t.Fatalf("%s.rows.csv: header %s", base, h)
		}
		f, err := os.Open(base + ".npy")
		if err != nil {
			t.Fatal(err)
		}
		Z, err := npy.Read(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		r, c := Z.Dims()
		if r != len(recs)-1 || c != 30 {
			t.Fatalf("%s.npy: %d × %d, want %d × 30", base, r, c, len(recs)-1)
		}
		for i, rec := range recs[1:] {
			for j := 0; j < c; j++ {
				rec = append(rec, strconv.FormatFloat(Z.At(i, j), 'g', -1, 64))
			}
			got = append(got, strings.Join(rec, ","))
		}
		sizes = append(sizes, r)
	}
	onlyFiles(t, znpy.Dir, names...)
	if strings.Join(got, "\n") != strings.Join(features, "\n") {
		t.Fatalf("the .npy parts' %d rows differ from arbor features' %d rows", len(got), len(features))
	}
	checkSpread(t, "npy", sizes)
}

// TestPartsAllOrNothing: when the task of one part fails (its file cannot
// be written: a directory stands in its place), the job fails and no part
// is in the output directory, although the other parts' tasks may have
// written theirs.
func TestPartsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	train, _ := writeData(t, dir)
	model := filepath.Join(dir, "m.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	for _, f := range []arborbeam.Format{arborbeam.FormatCSV, arborbeam.FormatParquet} {
		ext := map[arborbeam.Format]string{arborbeam.FormatCSV: ".csv", arborbeam.FormatParquet: ".parquet"}[f]
		out := arborbeam.NewOutput(filepath.Join(dir, "out"+ext))
		if err := os.MkdirAll(filepath.Join(out.Temp, arborbeam.PartName(1, 3, ext)), 0o755); err != nil {
			t.Fatal(err)
		}
		err := runPipeline(t, func(s beam.Scope) {
			arborbeam.PredictFiles(s, model, beam.Create(s, filepath.Join(dir, "in", "*")),
				arborbeam.ReadOptions{Chunk: 50, SplitBytes: 1000}, out, arborbeam.WriteOptions{Shards: 3, Format: f})
		})
		if want := arborbeam.PartName(1, 3, ext); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want one naming %s", err, want)
		}
		onlyFiles(t, out.Dir, filepath.Base(out.Temp))
	}
}
