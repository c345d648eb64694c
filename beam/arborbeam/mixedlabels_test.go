package arborbeam_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

// TestMixedLabelsAcrossChunks: a file without a header whose last column
// (the label) is text on its first rows and numbers on others: arbor
// predict reads it in one chunk, the label column out; arbor-beam, in
// chunks of 37 rows and byte ranges of 900 bytes (parts that start on a
// numeric label), keeps the first chunk's decision and writes arbor
// predict's labels, byte for byte.
func TestMixedLabelsAcrossChunks(t *testing.T) {
	dir := t.TempDir()
	train, _ := writeData(t, dir)
	model := filepath.Join(dir, "m.arbor")
	arbor(t, "classify", "--data", train, "--id", "name", "--kernel", "rbf:0.5", "--learner", "svm",
		"--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	var b strings.Builder
	for i := 0; i < 400; i++ {
		v := point(1000 + i)
		label := fmt.Sprintf("c%d", i%3)
		if i%100 >= 30 {
			label = fmt.Sprint(i % 3)
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%.4f,%.4f,%s\n", v[0], v[1], v[2], v[3], label)
	}
	in := filepath.Join(dir, "in")
	os.MkdirAll(in, 0o755)
	data := filepath.Join(in, "mixed.csv")
	os.WriteFile(data, []byte(b.String()), 0o644)
	want := filepath.Join(dir, "want.csv")
	arbor(t, "predict", "--model", model, "--data", data, "--no-header", "--out", want, "--quiet")
	opt := arborbeam.ReadOptions{Chunk: 37, SplitBytes: 900}
	opt.CSV.NoHeader = true
	o := arborbeam.NewOutput(filepath.Join(dir, "out"))
	err := runPipeline(t, func(s beam.Scope) {
		arborbeam.PredictFiles(s, model, beam.Create(s, data), opt, o, arborbeam.WriteOptions{Ordered: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := os.ReadFile(want)
	g, err := os.ReadFile(filepath.Join(dir, "out", "mixed.predictions.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w, g) || bytes.Count(w, []byte("\n")) != 401 {
		t.Fatalf("arbor-beam wrote\n%.300s\narbor predict\n%.300s", g, w)
	}
}
