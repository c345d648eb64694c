package pipeline_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestOutputColumns: p_CLASS per class, d_A_B per pair and d_A for one
// class against the rest; a class index out of range is written as a
// number.
func TestOutputColumns(t *testing.T) {
	P, D := mat.NewDense(1, 3, nil), mat.NewDense(1, 3, nil)
	pairs := []learner.Pair{{Pos: 0, Neg: 1}, {Pos: 2, Neg: learner.Unlabeled}, {Pos: 5, Neg: 0}}
	got := pipeline.OutputColumns([]string{"a", "b", "c"}, P, D, pairs)
	want := []string{"p_a", "p_b", "p_c", "d_a_b", "d_c", "d_5_a"}
	if !slices.Equal(got, want) {
		t.Errorf("OutputColumns = %q, want %q", got, want)
	}
	if got := pipeline.OutputColumns([]string{"a"}, nil, nil, pairs); got != nil {
		t.Errorf("OutputColumns without outputs = %q, want none", got)
	}
	// A row of zero probabilities (no label reaches it) is written empty;
	// values in the shortest form that reads back exactly.
	P = mat.NewDense(2, 2, []float64{0, 0, 0.1, 0.9})
	D = mat.NewDense(2, 1, []float64{-1.5, 1e-300})
	if got := pipeline.AppendOutputs([]string{"x"}, P, D, 0); !slices.Equal(got, []string{"x", "", "", "-1.5"}) {
		t.Errorf("row 0: %q", got)
	}
	if got := pipeline.AppendOutputs(nil, P, D, 1); !slices.Equal(got, []string{"0.1", "0.9", "1e-300"}) {
		t.Errorf("row 1: %q", got)
	}
}

// TestResultWriteCSV: one record per training row and then per test row,
// with the set, the row within it, the ID, the label's class name (the
// fit's Labels), whether the label was given, and the probabilities as
// Proba holds them (they read back exactly).
func TestResultWriteCSV(t *testing.T) {
	base, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	ds := *base
	n, d := ds.X.Dims()
	ds.Y = slices.Clone(base.Y)
	for i := range ds.Y {
		if i%10 != 0 {
			ds.Y[i] = dataset.Unlabeled
		}
	}
	ds.IDName = "name"
	ds.IDs = make([]string, n)
	for i := range ds.IDs {
		ds.IDs[i] = fmt.Sprintf("r%d", i)
	}
	test := &dataset.Dataset{X: mat.NewDense(4, d, nil), IDs: []string{"t0", "t1", "t2", "t3"}}
	for i := range 4 {
		test.X.SetRow(i, base.X.RawRowView(40*i+3))
	}
	res, err := pipeline.Fit(context.Background(), pipeline.Settings{Learner: "knn", Params: map[string]string{"k": "5"}, Proba: true}, &ds, test.X)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteCSV(&buf, test); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := []string{"set", "row", "name", "label", "given", "p_" + ds.Classes[0], "p_" + ds.Classes[1], "p_" + ds.Classes[2]}
	if !slices.Equal(recs[0], head) {
		t.Fatalf("header %q, want %q", recs[0], head)
	}
	if len(recs) != 1+n+4 {
		t.Fatalf("%d records, want %d", len(recs), 1+n+4)
	}
	for i, rec := range recs[1:] {
		set, row, id, given := "data", i, ds.IDs[min(i, n-1)], "0"
		if i >= n {
			set, row, id = "test", i-n, test.IDs[i-n]
		} else if ds.Y[i] != dataset.Unlabeled {
			given = "1"
		}
		want := []string{set, strconv.Itoa(row), id, ds.Classes[res.Labels[i]], given}
		if !slices.Equal(rec[:5], want) {
			t.Fatalf("record %d: %q, want %q…", i, rec, want)
		}
		for c, s := range rec[5:] {
			if v, err := strconv.ParseFloat(s, 64); err != nil || v != res.Proba.At(i, c) {
				t.Fatalf("record %d: p_%s = %q, want %v", i, ds.Classes[c], s, res.Proba.At(i, c))
			}
		}
	}
}

// TestPredictionWriter: predictions written a chunk at a time as Stream
// reads the file are one header and one record per row, rows numbered
// over the chunks, IDs and labels as Predict gives them for the whole
// file at once.
func TestPredictionWriter(t *testing.T) {
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Fit(context.Background(), pipeline.Settings{Kernel: "rbf:0.5"}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	var file strings.Builder
	file.WriteString("id," + strings.Join(p.Features, ",") + "\n")
	n := 23
	X := mat.NewDense(n, len(p.Features), nil)
	for i := range n {
		row := ds.X.RawRowView(6*i + 1)
		X.SetRow(i, row)
		file.WriteString("p" + strconv.Itoa(i))
		for _, v := range row {
			file.WriteString("," + strconv.FormatFloat(v, 'g', -1, 64))
		}
		file.WriteString("\n")
	}
	want, err := p.Predict(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	pw := p.NewPredictionWriter(&buf)
	err = p.Stream(context.Background(), strings.NewReader(file.String()), "new.csv", dataset.CSVOptions{ID: "id"}, 5, func(ds *dataset.Dataset) error {
		got, err := p.PredictWant(context.Background(), ds.X, pipeline.Want{})
		if err != nil {
			return err
		}
		return pw.Write(ds, got)
	})
	if err != nil {
		t.Fatal(err)
	}
	if pw.Rows() != n {
		t.Errorf("Rows = %d, want %d", pw.Rows(), n)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n+1 || !slices.Equal(recs[0], []string{"row", "id", "label"}) {
		t.Fatalf("%d records, header %q", len(recs), recs[0])
	}
	for i, rec := range recs[1:] {
		if w := []string{strconv.Itoa(i), "p" + strconv.Itoa(i), p.Classes[want[i]]}; !slices.Equal(rec, w) {
			t.Errorf("record %d: %q, want %q", i, rec, w)
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestWritePredictions: the file's predictions as PredictionWriter writes
// them with progress after each chunk and once done; a bad row in a later
// chunk stops the stream with the earlier chunks' rows written (Flush) and
// counted; an error of the writer is a *WriteError.
func TestWritePredictions(t *testing.T) {
	ctx := context.Background()
	ds, p := irisKNN(t)
	file := strings.Join(p.Features, ",") + "\n"
	for i := range 7 {
		file += strings.Trim(strings.Join(strings.Fields(fmt.Sprint(ds.X.RawRowView(20*i))), ","), "[]") + "\n"
	}
	var progress []string
	s := pipeline.PredictStream{Chunk: 3, Flush: true, Progress: func(rows int, done bool) { progress = append(progress, fmt.Sprint(rows, done)) }}
	var buf bytes.Buffer
	rows, err := p.WritePredictions(ctx, &buf, strings.NewReader(file), "new.csv", dataset.CSVOptions{}, s)
	if err != nil || rows != 7 || strings.Count(buf.String(), "\n") != 8 {
		t.Fatalf("%d rows, %v:\n%s", rows, err, buf.String())
	}
	if want := []string{"3 false", "6 false", "7 false", "7 true"}; !slices.Equal(progress, want) {
		t.Errorf("progress %q, want %q", progress, want)
	}
	lines := strings.SplitAfter(file, "\n")
	bad := strings.Join(lines[:5], "") + "x,1,2,3\n" + strings.Join(lines[5:], "") // line 6: the second chunk
	buf.Reset()
	rows, err = p.WritePredictions(ctx, &buf, strings.NewReader(bad), "new.csv", dataset.CSVOptions{}, s)
	var we *pipeline.WriteError
	if err == nil || errors.As(err, &we) || rows != 3 || strings.Count(buf.String(), "\n") != 4 {
		t.Errorf("bad row: %d rows, %v:\n%s", rows, err, buf.String())
	}
	if _, err := p.WritePredictions(ctx, failWriter{}, strings.NewReader(file), "new.csv", dataset.CSVOptions{}, s); !errors.As(err, &we) || err.Error() != "disk full" {
		t.Errorf("failing writer: %v, want a WriteError", err)
	}
}

// TestWriteSummary: the data's sizes, the kernel with the gamma rbf:scale
// resolved to, the learner, the labels per class (Tally; no such line when
// every row is labelled) and the test accuracy (TestCorrect).
func TestWriteSummary(t *testing.T) {
	ds := &dataset.Dataset{Name: "d", X: mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2}), Y: []int{0, -1, -1, 1, -1, -1}, Features: []string{"x"}, Classes: []string{"a", "b"}}
	test := &dataset.Dataset{X: mat.NewDense(3, 1, []float64{0.05, 5.05, 4.9}), Y: []int{0, 0, 1}, Classes: []string{"a", "b"}}
	res, err := pipeline.Fit(context.Background(), pipeline.Settings{Kernel: "rbf:scale", Scale: "none"}, ds, test.X)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteSummary(&buf, test); err != nil {
		t.Fatal(err)
	}
	want := "data     d (6 rows, 2 labelled, 1 features, 2 classes)\n" +
		fmt.Sprintf("kernel   rbf:scale (gamma %.6g)\n", res.Gamma) +
		"learner  svm\n" +
		"predicted 4 unlabelled rows: a=2 b=2\n" +
		"test     3 points, accuracy 66.67% on the 3 with labels\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	if res.Gamma <= 0 {
		t.Errorf("gamma %v: rbf:scale not resolved", res.Gamma)
	}
	// Every row labelled: no line of predictions.
	ds.Y = []int{0, 0, 0, 1, 1, 1}
	if res, err = pipeline.Fit(context.Background(), pipeline.Settings{Kernel: "rbf:1", Scale: "none"}, ds, nil); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := res.WriteSummary(&buf, nil); err != nil {
		t.Fatal(err)
	}
	want = "data     d (6 rows, 6 labelled, 1 features, 2 classes)\n" +
		"kernel   rbf:1\n" +
		"learner  svm\n"
	if buf.String() != want {
		t.Errorf("every row labelled: got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestPredictFile: a regular file gets WritePredictions's records, whole;
// with a bad row in a later chunk no file is left and the error is the
// points' as explain makes it, while standard output keeps the earlier
// chunks' rows and the error counts them.
func TestPredictFile(t *testing.T) {
	ctx := context.Background()
	ds, p := irisKNN(t)
	lines := []string{strings.Join(p.Features, ",") + "\n"}
	for i := range 7 {
		lines = append(lines, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(ds.X.RawRowView(20*i))), ","), "[]")+"\n")
	}
	file := strings.Join(lines, "")
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "new.csv"), filepath.Join(dir, "bad.csv")
	os.WriteFile(good, []byte(file), 0o644)
	os.WriteFile(bad, []byte(strings.Join(lines[:5], "")+"x,1,2,3\n"+strings.Join(lines[5:], "")), 0o644) // the second chunk
	s := pipeline.PredictStream{Chunk: 3}
	var want bytes.Buffer
	if _, err := p.WritePredictions(ctx, &want, strings.NewReader(file), good, dataset.CSVOptions{}, s); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "pred.csv")
	if err := p.PredictFile(ctx, good, out, nil, nil, dataset.CSVOptions{}, s, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); string(got) != want.String() {
		t.Errorf("file:\n%s\nwant\n%s", got, want.String())
	}
	explain := func(err error) error { return fmt.Errorf("explained: %w", err) }
	os.Remove(out)
	err := p.PredictFile(ctx, bad, out, nil, nil, dataset.CSVOptions{}, s, explain)
	if err == nil || !strings.HasPrefix(err.Error(), "explained: "+bad+":6") || strings.Contains(err.Error(), "already written") {
		t.Errorf("regular file: %v", err)
	}
	if _, serr := os.Stat(out); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("regular file left after the error: %v", serr)
	}
	var stdout bytes.Buffer
	err = p.PredictFile(ctx, bad, "-", nil, &stdout, dataset.CSVOptions{}, s, explain)
	if err == nil || !strings.HasSuffix(err.Error(), "; 3 rows were already written to standard output") || strings.Count(stdout.String(), "\n") != 4 {
		t.Errorf("standard output: %v:\n%s", err, stdout.String())
	}
}

// irisKNN returns iris and the kNN pipeline fitted on it.
func irisKNN(t *testing.T) (*dataset.Dataset, *pipeline.Pipeline) {
	t.Helper()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Fit(context.Background(), pipeline.Settings{Learner: "knn"}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	return ds, p
}
