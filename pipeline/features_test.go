package pipeline_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/npy"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/pipeline"
)

// featuresFile is a training file of n rows (an ID column, 3 features with
// a few empty cells, every 7th row labelled "a" or "b", the others "?").
func featuresFile(n int) string {
	rng := rand.New(rand.NewPCG(7, 1))
	var b strings.Builder
	b.WriteString("id,x1,x2,x3,y\n")
	for i := 0; i < n; i++ {
		c := i % 2
		fmt.Fprintf(&b, "r%d", i)
		for j := 0; j < 3; j++ {
			if (i*3+j)%97 == 5 {
				b.WriteString(",")
				continue
			}
			fmt.Fprintf(&b, ",%s", strconv.FormatFloat(float64(3*c+j)+rng.NormFloat64(), 'g', -1, 64))
		}
		switch {
		case i%7 != 0:
			b.WriteString(",?\n")
		case c == 0:
			b.WriteString(",a\n")
		default:
			b.WriteString(",b\n")
		}
	}
	return b.String()
}

// TestLandmarkFeaturesOfTrainingRows: the features WriteLandmarkFeatures
// writes for the rows of the training file are, bit for bit, those the
// fitted map gave the training rows inside the fit (the features the SVM
// was trained on): the landmark choice and the map's training features
// recomputed on the fit's scaled and imputed rows. The file has more than
// landmark.BlockRows rows, read in chunks that do not divide it.
func TestLandmarkFeaturesOfTrainingRows(t *testing.T) {
	ctx := context.Background()
	n := landmark.BlockRows + 900
	text := featuresFile(n)
	ds, err := dataset.ReadCSV(strings.NewReader(text), "train.csv", dataset.CSVOptions{Label: "y", ID: "id", AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	fit, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "rbf:0.3", Learner: "svm", Landmarks: 30, Impute: "mean", Scale: "std"}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := fit.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := saved.Save(&buf); err != nil {
		t.Fatal(err)
	}
	p, err := pipeline.Load(&buf, "lm.arbor")
	if err != nil {
		t.Fatal(err)
	}

	// The fit's training features, recomputed: the rows imputed and scaled
	// as the fit did (the saved scaler), the landmarks chosen as the fit
	// chose them, the map's training features.
	Xs, err := p.Scaler.Transform(nil, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := kernel.ParseSpec("rbf:0.3")
	if err != nil {
		t.Fatal(err)
	}
	lmc := pipeline.LandmarkChoice{M: 30, Method: landmark.KMeans}
	lm, _, err := lmc.Choose(ctx, Xs, ds.Y)
	if err != nil {
		t.Fatal(err)
	}
	ny, ok := p.Landmarks.Map.(*landmark.Nystrom)
	if !ok {
		t.Fatalf("map %T, want *landmark.Nystrom", p.Landmarks.Map)
	}
	if !slices.Equal(ny.Landmarks, lm) {
		t.Fatalf("the saved map's landmarks %v, recomputed %v", ny.Landmarks, lm)
	}
	_, tr, _, _, err := lmc.Training(ctx, Xs, spec, ds.Y, true)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tr.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, r := want.Dims()

	var out bytes.Buffer
	rows, err := p.WriteLandmarkFeatures(ctx, &out, strings.NewReader(text), "train.csv", dataset.CSVOptions{AllowMissing: true}, pipeline.FeatureStream{Chunk: 1000})
	if err != nil || rows != n {
		t.Fatalf("WriteLandmarkFeatures: %d rows, %v; want %d", rows, err, n)
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := []string{"row", "id"}
	for j := 1; j <= r; j++ {
		head = append(head, "z"+strconv.Itoa(j))
	}
	if !slices.Equal(recs[0], head) {
		t.Fatalf("header %q, want %q", recs[0], head)
	}
	if len(recs) != n+1 {
		t.Fatalf("%d records, want %d", len(recs)-1, n)
	}
	for i, rec := range recs[1:] {
		if rec[0] != strconv.Itoa(i) || rec[1] != ds.IDs[i] {
			t.Fatalf("record %d starts %q, %q; want %d, %s", i, rec[0], rec[1], i, ds.IDs[i])
		}
		for j, s := range rec[2:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if w := want.At(i, j); v != w {
				t.Fatalf("row %d z%d = %v, the fit's %v", i, j+1, v, w)
			}
		}
	}

	// The same features as a .npy file.
	path := filepath.Join(t.TempDir(), "z.npy")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriteLandmarkFeatures(ctx, f, strings.NewReader(text), "train.csv", dataset.CSVOptions{AllowMissing: true}, pipeline.FeatureStream{Format: dataset.MatrixNpy}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	Z, err := npy.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(Z, want) {
		t.Error("the .npy features differ from the fit's")
	}
}

// TestLandmarkFeaturesNoMap: pipelines whose learner reads the points (the
// anchor graph) or the kernel (exact) have no features to give.
func TestLandmarkFeaturesNoMap(t *testing.T) {
	ctx := context.Background()
	text := featuresFile(200)
	ds, err := dataset.ReadCSV(strings.NewReader(text), "train.csv", dataset.CSVOptions{Label: "y", ID: "id", AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []pipeline.Settings{
		{Kernel: "rbf:0.3", Learner: "svm", Impute: "mean"},
		{Kernel: "rbf:0.3", Learner: "lp", Landmarks: 20, Impute: "mean"},
	} {
		fit, err := pipeline.Fit(ctx, s, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := fit.Pipeline()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.LandmarkFeatures(ctx, mat.NewDense(1, 3, nil)); !errors.Is(err, pipeline.ErrNoMap) {
			t.Errorf("%s, %d landmarks: LandmarkFeatures: %v, want ErrNoMap", s.Learner, s.Landmarks, err)
		}
		if _, err := p.WriteLandmarkFeatures(ctx, &bytes.Buffer{}, strings.NewReader(text), "train.csv", dataset.CSVOptions{AllowMissing: true}, pipeline.FeatureStream{}); !errors.Is(err, pipeline.ErrNoMap) {
			t.Errorf("%s, %d landmarks: WriteLandmarkFeatures: %v, want ErrNoMap", s.Learner, s.Landmarks, err)
		}
	}
}

// TestLandmarkFeaturesBadCell: a cell that is not a number names the file,
// its line and the column; nothing after the chunk before it is written.
func TestLandmarkFeaturesBadCell(t *testing.T) {
	ctx := context.Background()
	text := featuresFile(300)
	ds, err := dataset.ReadCSV(strings.NewReader(text), "train.csv", dataset.CSVOptions{Label: "y", ID: "id", AllowMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	fit, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "linear", Learner: "knn", Landmarks: 20, Impute: "mean"}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fit.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(text, "\n")
	cells := strings.Split(lines[120], ",")
	cells[2] = "1,5"
	lines[120] = strings.Join(cells[:2], ",") + `,"1,5",` + strings.Join(cells[3:], ",")
	_, err = p.WriteLandmarkFeatures(ctx, &bytes.Buffer{}, strings.NewReader(strings.Join(lines, "\n")), "new.csv", dataset.CSVOptions{AllowMissing: true}, pipeline.FeatureStream{})
	var pe *dataset.ParseError
	if !errors.As(err, &pe) || pe.Line != 121 || !strings.Contains(err.Error(), "new.csv") || !strings.Contains(err.Error(), "x2") {
		t.Errorf("error %v, want new.csv line 121, column x2", err)
	}
}

// TestColumnsErrorLists: a file without a wide model's features is told
// which, with the lists cut as the data notices cut them (the first ten,
// how many more, the last), not every name of every list.
func TestColumnsErrorLists(t *testing.T) {
	ctx := context.Background()
	var b strings.Builder
	for j := range 40 {
		fmt.Fprintf(&b, "v%02d,", j)
	}
	b.WriteString("y\n")
	for i := range 30 {
		for j := range 40 {
			fmt.Fprintf(&b, "%d,", (i*7+j*3)%11)
		}
		fmt.Fprintf(&b, "%c\n", 'a'+rune(i%2))
	}
	ds, err := dataset.ReadCSV(strings.NewReader(b.String()), "wide.csv", dataset.CSVOptions{Label: "y"})
	if err != nil {
		t.Fatal(err)
	}
	fit, err := pipeline.Fit(ctx, pipeline.Settings{Learner: "knn", Landmarks: 10}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fit.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.WriteLandmarkFeatures(ctx, &bytes.Buffer{}, strings.NewReader("a,b\n1,2\n"), "new.csv", dataset.CSVOptions{}, pipeline.FeatureStream{})
	want := `new.csv: feature columns do not match the model: no column "v00", "v01", "v02", "v03", "v04", "v05", "v06", "v07", "v08", "v09", … (29 more), "v39" (the model's features are "v00", "v01", "v02", "v03", "v04", "v05", "v06", "v07", "v08", "v09", … (29 more), "v39"; the file's columns are "a", "b")`
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
	sub := &dataset.Dataset{Name: "new.csv", Features: []string{"v00", "v39"}, X: mat.NewDense(1, 2, nil)}
	if _, err := p.Columns(sub); err == nil || !strings.Contains(err.Error(), `no column "v01", "v02", "v03", "v04", "v05", "v06", "v07", "v08", "v09", "v10", … (27 more), "v38" (`) {
		t.Errorf("Columns: %v", err)
	}
}
