package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/svm"
)

// fixture is iris with every fifth row labelled, scaled (std), and 60 new
// raw points near the training rows.
func fixture(t *testing.T) (ds *dataset.Dataset, sc *dataset.Scaler, y []int, newX *mat.Dense) {
	t.Helper()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	n, d := ds.X.Dims()
	y = make([]int, n)
	for i := range y {
		y[i] = learner.Unlabeled
		if i%5 == 0 {
			y[i] = ds.Y[i]
		}
	}
	newX = mat.NewDense(60, d, nil)
	for i := 0; i < 60; i++ {
		for j := 0; j < d; j++ {
			newX.Set(i, j, ds.X.At((i*7)%n, j)+0.07*float64((i+j)%5-2))
		}
	}
	sc, err = dataset.FitScaler(ds.X, "std")
	if err != nil {
		t.Fatal(err)
	}
	if ds.X, err = sc.Transform(nil, ds.X); err != nil {
		t.Fatal(err)
	}
	ds.Y = y
	return ds, sc, y, newX
}

// TestRoundTrip: for each kernel × learner, the labels of new points
// computed in the fitting process (kernel rows by kernel.Built.Extend, as
// arbor classify --test) equal those of save → load → Predict.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	ds, sc, y, newX := fixture(t)
	Xt, err := sc.Transform(nil, newX)
	if err != nil {
		t.Fatal(err)
	}
	kernels := []string{"linear", "rbf:0.5", "rbf:scale", "poly:0.5:1:3", "laplacian:0.5", "exponential:0.5",
		"hck:average", "hck:single", "hckg:average", "connectivity", "isomap"}
	nonNegative := map[string]bool{"rbf:0.5": true, "rbf:scale": true, "laplacian:0.5": true, "exponential:0.5": true}
	slowOK := map[string]bool{"rbf:0.5": true, "hck:average": true, "hckg:average": true}
	learners := []struct {
		name string
		l    learner.Learner
	}{
		{"svm", learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true})},
		{"knn3", learner.Adapt("knn3", knn.Classifier{K: 3})},
		{"knn3-distance", learner.Adapt("knn3", knn.Classifier{K: 3, Weights: "distance"})},
		{"lp", learner.Adapt("lp", propagate.Propagation{})},
		{"s4vm", learner.Adapt("s4vm", s4vm.S4VM{Seed: 1})},
		{"hibust", learner.Adapt("hibust", hibust.Classifier{})},
	}
	for _, ks := range kernels {
		spec, err := kernel.ParseSpec(ks)
		if err != nil {
			t.Fatal(err)
		}
		bs, err := kernel.BuildAll(ctx, ds.X, []kernel.Spec{spec}, kernel.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := bs[0]
		rules := []string{kernel.RuleTree}
		if ks == "hck:average" {
			rules = append(rules, kernel.RuleLinear)
		}
		for _, rule := range rules {
			Kt, diag, err := b.Extend(ctx, ds.X, Xt, rule)
			if err != nil {
				t.Fatal(err)
			}
			for _, lc := range learners {
				if lc.name == "lp" && !nonNegative[ks] {
					continue // label propagation needs W ≥ 0
				}
				if (lc.name == "s4vm" || lc.name == "hibust") && !slowOK[ks] {
					continue // the slow learners on three kernels keep the test fast
				}
				t.Run(ks+"/"+rule+"/"+lc.name, func(t *testing.T) {
					m, err := lc.l.FitGram(ctx, b.K, y)
					if err != nil {
						t.Fatal(err)
					}
					var want []int
					if dp, ok := m.(learner.DiagPredictor); ok {
						want, err = dp.PredictDiag(ctx, nil, Kt, diag)
					} else {
						want, err = m.Predict(ctx, nil, Kt)
					}
					if err != nil {
						t.Fatal(err)
					}
					checkRoundTrip(t, ds, sc, b, rule, m, newX, want)
				})
			}
		}
		if spec.Kind == kernel.KindPoint {
			// classify's SVM on the points (svmpoints.go).
			t.Run(ks+"/svm-points", func(t *testing.T) {
				m, err := svm.Classifier{C: 1, Kernel: b.Kernel()}.Fit(ctx, ds.X, y)
				if err != nil {
					t.Fatal(err)
				}
				want, err := m.PredictPoints(ctx, nil, Xt)
				if err != nil {
					t.Fatal(err)
				}
				// The point kernel's Gram path agrees too.
				Kt, _, err := b.Extend(ctx, ds.X, Xt, "")
				if err != nil {
					t.Fatal(err)
				}
				gram, err := m.Predict(ctx, nil, Kt)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(gram) != fmt.Sprint(want) {
					t.Fatalf("Predict(Kt) %v != PredictPoints %v", gram, want)
				}
				checkRoundTrip(t, ds, sc, kernel.Built{Spec: b.Spec, Gamma: b.Gamma}, kernel.RuleTree, m, newX, want)
			})
		}
	}
}

func checkRoundTrip(t *testing.T, ds *dataset.Dataset, sc *dataset.Scaler, b kernel.Built, rule string, m learner.Model, newX *mat.Dense, want []int) {
	t.Helper()
	ctx := context.Background()
	p, err := pipeline.New(ds, sc, b, rule, m)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := p.Predict(ctx, newX)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(direct) != fmt.Sprint(want) {
		t.Fatalf("pipeline before saving:\n got %v\nwant %v", direct, want)
	}
	var buf bytes.Buffer
	if err := p.Save(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := pipeline.Load(bytes.NewReader(buf.Bytes()), "m.arbor")
	if err != nil {
		t.Fatal(err)
	}
	got, err := q.Predict(ctx, newX)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("save → load → predict:\n got %v\nwant %v", got, want)
	}
	// Chunks of new points give the same labels as one batch.
	got2, err := q.Predict(ctx, mat.DenseCopyOf(newX.Slice(0, 7, 0, len(p.Features))))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got2) != fmt.Sprint(want[:7]) {
		t.Fatalf("first 7 alone: got %v want %v", got2, want[:7])
	}
}

func savedIris(t *testing.T) []byte {
	ds, sc, y, _ := fixture(t)
	m, err := svm.Classifier{C: 1, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(context.Background(), ds.X, y)
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := kernel.ParseSpec("rbf:0.5")
	p, err := pipeline.New(ds, sc, kernel.Built{Spec: sp}, kernel.RuleTree, m)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestLoadErrors: cut files, foreign files and newer versions are errors
// naming the file.
func TestLoadErrors(t *testing.T) {
	full := savedIris(t)
	if _, err := pipeline.Load(bytes.NewReader(full), "m.arbor"); err != nil {
		t.Fatal(err)
	}
	nl := bytes.IndexByte(full, '\n')
	nl2 := nl + 1 + bytes.IndexByte(full[nl+1:], '\n')
	for _, cut := range []int{len("ARBOR-PIPELINE"), nl + 1, nl + 40, nl2, nl2 + 1, nl2 + 30, len(full) - 1} {
		_, err := pipeline.Load(bytes.NewReader(full[:cut]), "m.arbor")
		if !errors.Is(err, pipeline.ErrTruncated) || !strings.HasPrefix(err.Error(), "m.arbor: ") {
			t.Errorf("cut at %d of %d: %v, want ErrTruncated naming m.arbor", cut, len(full), err)
		}
	}
	damaged := bytes.Clone(full)
	damaged[len(damaged)-5] ^= 1
	if _, err := pipeline.Load(bytes.NewReader(damaged), "m.arbor"); !errors.Is(err, pipeline.ErrTruncated) {
		t.Errorf("flipped bit: %v, want ErrTruncated", err)
	}
	for _, foreign := range []string{"", "f1,f2,label\n1,2,a\n", "{\"format\": \"arbor-svm\"}", "\x1f\x8b\x08\x00"} {
		_, err := pipeline.Load(strings.NewReader(foreign), "x.csv")
		if !errors.Is(err, pipeline.ErrForeign) || !strings.HasPrefix(err.Error(), "x.csv: ") {
			t.Errorf("foreign %q: %v, want ErrForeign naming x.csv", foreign, err)
		}
	}
	newer := append([]byte(fmt.Sprintf("ARBOR-PIPELINE %d", pipeline.Version+1)), full[nl:]...)
	if _, err := pipeline.Load(bytes.NewReader(newer), "m.arbor"); !errors.Is(err, pipeline.ErrVersion) {
		t.Errorf("newer version: %v, want ErrVersion", err)
	}
}

// TestColumns: new points are matched to the model's features by name, in
// any order; a missing or renamed feature is an error naming it.
func TestColumns(t *testing.T) {
	p, err := pipeline.Load(bytes.NewReader(savedIris(t)), "m.arbor")
	if err != nil {
		t.Fatal(err)
	}
	read := func(text string) *dataset.Dataset {
		ds, err := dataset.ReadCSV(strings.NewReader(text), "new.csv", dataset.CSVOptions{NoLabel: true, OneRow: true})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	a, err := p.Columns(read("f1,f2,f3,f4\n5.1,3.5,1.4,0.2\n6.7,3.0,5.2,2.3\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Columns(read("f4,extra,f3,f1,f2\n0.2,9,1.4,5.1,3.5\n2.3,9,5.2,6.7,3.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a, b) {
		t.Fatalf("reordered columns: %v != %v", mat.Formatted(b), mat.Formatted(a))
	}
	// A file without a header and as many features is matched by position.
	nh, err := dataset.ReadCSV(strings.NewReader("5.1,3.5,1.4,0.2\n6.7,3.0,5.2,2.3\n"), "new.csv", dataset.CSVOptions{NoLabel: true, NoHeader: true, OneRow: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Columns(nh)
	if err != nil || !mat.Equal(a, c) {
		t.Fatalf("no header: %v %v", err, c)
	}
	for _, text := range []string{"f1,f2,f3\n5.1,3.5,1.4\n", "f1,f2,f3,petal\n5.1,3.5,1.4,0.2\n"} {
		_, err := p.Columns(read(text))
		if !errors.Is(err, pipeline.ErrColumns) || !strings.Contains(err.Error(), `"f4"`) || !strings.HasPrefix(err.Error(), "new.csv: ") {
			t.Errorf("%q: %v, want ErrColumns naming f4 and new.csv", text, err)
		}
	}
}

// TestStream: chunks of any size give the rows of one whole read, in
// order; a bad cell is reported at its physical line.
func TestStream(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("id;a;b\n")
	for i := 0; i < 23; i++ {
		fmt.Fprintf(&sb, "r%d;%d;%d.5\n", i, i, 2*i)
		if i == 10 {
			sb.WriteString("\n") // blank lines are skipped
		}
	}
	text := sb.String()
	opt := dataset.CSVOptions{ID: "id", LabelOptional: true}
	whole, err := dataset.ReadCSV(strings.NewReader(text), "s.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{1, 4, 22, 23, 100} {
		var ids []string
		var vals []float64
		calls := 0
		err := pipeline.Stream(context.Background(), strings.NewReader(text), "s.csv", opt, chunk, func(ds *dataset.Dataset) error {
			calls++
			if fmt.Sprint(ds.Features) != "[a b]" {
				return fmt.Errorf("features %v", ds.Features)
			}
			ids = append(ids, ds.IDs...)
			vals = append(vals, ds.X.RawMatrix().Data...)
			return nil
		})
		if err != nil {
			t.Fatalf("chunk %d: %v", chunk, err)
		}
		if fmt.Sprint(ids) != fmt.Sprint(whole.IDs) || fmt.Sprint(vals) != fmt.Sprint(whole.X.RawMatrix().Data) {
			t.Fatalf("chunk %d: ids %v vals %v, want %v %v", chunk, ids, vals, whole.IDs, whole.X.RawMatrix().Data)
		}
		if want := (23 + chunk - 1) / chunk; chunk > 1 && calls > want {
			t.Fatalf("chunk %d: %d calls, want ≤ %d", chunk, calls, want)
		}
	}
	bad := strings.Replace(text, "r20;20;", "r20;x;", 1) // physical line 23 (header, 21 rows before, one blank line)
	err = pipeline.Stream(context.Background(), strings.NewReader(bad), "s.csv", opt, 4, func(*dataset.Dataset) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "s.csv:23: ") {
		t.Fatalf("bad cell: %v, want an error at s.csv:23", err)
	}
}

// TestStreamPart: a file read in parts (the header in front of each, the
// separator and header decision of the file's head) gives the rows of
// the whole file, and an error in a part names the file's own line.
func TestStreamPart(t *testing.T) {
	f, err := os.Open("testdata/iris_rbf_svm_v1.arbor")
	if err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.Load(f, "m.arbor")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	header := "id;f4;f2;extra;f1;f3\n"
	lines := []string{"\n", header} // physical lines 1 and 2
	for i := 0; i < 30; i++ {
		lines = append(lines, fmt.Sprintf("r%d;%g;3;x;%g;1.5\n", i, 0.1*float64(i), 5+0.1*float64(i)))
		if i == 12 {
			lines = append(lines, "\n")
		}
	}
	text := strings.Join(lines, "")
	ctx := context.Background()
	read := func(ds *dataset.Dataset, ids *[]string, vals *[]float64) error {
		X, err := p.Columns(ds)
		if err != nil {
			return err
		}
		*ids = append(*ids, ds.IDs...)
		*vals = append(*vals, X.RawMatrix().Data...)
		return nil
	}
	var wantIDs []string
	var want []float64
	var src *dataset.Source
	err = p.Stream(ctx, strings.NewReader(text), "s.csv", dataset.CSVOptions{ID: "id"}, 4, func(ds *dataset.Dataset) error {
		if src == nil {
			src = ds.Source
		}
		return read(ds, &wantIDs, &want)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(wantIDs) != 30 || !src.Header || src.Sep != ";" {
		t.Fatalf("whole file: %d rows, source %+v", len(wantIDs), src)
	}
	opt := dataset.CSVOptions{ID: "id", Sep: src.Sep, Header: true}
	for _, cuts := range [][]int{{2, 33}, {2, 9, 15, 17, 33}, {2, 3, 4, 20, 31, 32, 33}} {
		var ids []string
		var vals []float64
		for k := 0; k+1 < len(cuts); k++ {
			part := strings.Join(lines[cuts[k]:cuts[k+1]], "")
			err := p.StreamPart(ctx, []byte(header), strings.NewReader(part), cuts[k]+1, "s.csv", opt, 4, func(ds *dataset.Dataset) error {
				return read(ds, &ids, &vals)
			})
			if err != nil {
				t.Fatalf("cuts %v: %v", cuts, err)
			}
		}
		if fmt.Sprint(ids) != fmt.Sprint(wantIDs) || fmt.Sprint(vals) != fmt.Sprint(want) {
			t.Fatalf("cuts %v: ids %v vals %v, want %v %v", cuts, ids, vals, wantIDs, want)
		}
	}
	// Row r20 is physical line 24: two lines before the first row, one
	// blank line among the rows.
	bad := strings.Replace(strings.Join(lines[20:28], ""), "r20;2;", "r20;two;", 1)
	err = p.StreamPart(ctx, []byte(header), strings.NewReader(bad), 21, "s.csv", opt, 4, func(*dataset.Dataset) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "s.csv:24: ") {
		t.Fatalf("bad cell: %v, want an error at s.csv:24", err)
	}
}
