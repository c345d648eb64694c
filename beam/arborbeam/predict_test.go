package arborbeam_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

// arborBin is the arbor command built from this repository's core.
var arborBin string

func TestMain(m *testing.M) {
	beam.Init()
	dir, err := os.MkdirTemp("", "arborbeam")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	arborBin = filepath.Join(dir, "arbor")
	// Built in the core module (the repository root), with its own go.sum.
	build := exec.Command("go", "build", "-o", arborBin, "./cmd/arbor")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building arbor: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func arbor(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(arborBin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("arbor %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// point is a deterministic point of three overlapping classes in 4-D.
func point(i int) []float64 {
	c := float64(i % 3)
	v := make([]float64, 4)
	for j := range v {
		v[j] = c*1.2 + 1.5*math.Sin(float64(i*(j+3))*0.7+float64(j))
	}
	return v
}

// writeData writes the training file and three files of new points: one
// with the training columns, one in another order with an extra text
// column and blank lines, and one gzipped.
func writeData(t *testing.T, dir string) (train string, inputs []string) {
	t.Helper()
	var tr strings.Builder
	tr.WriteString("name,f1,f2,f3,f4,label\n")
	for i := 0; i < 240; i++ {
		v := point(i)
		fmt.Fprintf(&tr, "t%d,%.4f,%.4f,%.4f,%.4f,c%d\n", i, v[0], v[1], v[2], v[3], i%3)
	}
	train = filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte(tr.String()), 0o644)
	var a, b, c strings.Builder
	a.WriteString("name,f1,f2,f3,f4\n")
	b.WriteString("f4,note,f2,name,f1,f3\n")
	c.WriteString("name,f1,f2,f3,f4\n")
	for i := 0; i < 900; i++ {
		v := point(1000 + i)
		fmt.Fprintf(&a, "a%d,%.4f,%.4f,%.4f,%.4f\n", i, v[0], v[1], v[2], v[3])
		fmt.Fprintf(&b, "%.4f,text %d,%.4f,b%d,%.4f,%.4f\n", v[3], i, v[1], i, v[0], v[2])
		if i%97 == 5 {
			b.WriteString("\n")
		}
		if i < 500 {
			fmt.Fprintf(&c, "c%d,%.4f,%.4f,%.4f,%.4f\n", i, v[2], v[0], v[1], v[3])
		}
	}
	inputs = []string{filepath.Join(dir, "in", "a.csv"), filepath.Join(dir, "in", "b.csv"), filepath.Join(dir, "in", "c.csv.gz")}
	os.MkdirAll(filepath.Join(dir, "in"), 0o755)
	os.WriteFile(inputs[0], []byte(a.String()), 0o644)
	os.WriteFile(inputs[1], []byte(b.String()), 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(c.String()))
	zw.Close()
	os.WriteFile(inputs[2], gz.Bytes(), 0o644)
	return train, inputs
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func runPipeline(t *testing.T, build func(s beam.Scope)) error {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	build(s)
	_, err := prism.Execute(context.Background(), p)
	return err
}

// TestPredictEqualsArborPredict: Predict on prism, over several files
// split into byte ranges of a few hundred bytes and chunks of 37 rows,
// gives every row, with its ID and its file, the label arbor predict
// gives it, for an exact SVM, a landmark hck + SVM and an anchor-graph
// model.
func TestPredictEqualsArborPredict(t *testing.T) {
	dir := t.TempDir()
	train, inputs := writeData(t, dir)
	for _, m := range []struct {
		name string
		args []string
	}{
		{"svm", []string{"--kernel", "rbf:0.5", "--learner", "svm"}},
		{"hck-svm-landmarks", []string{"--kernel", "hck:average", "--learner", "svm", "--landmarks", "40", "--seed", "3"}},
		{"anchor-graph", []string{"--learner", "lp", "--affinity", "rbf:2", "--landmarks", "40", "--seed", "3"}},
	} {
		t.Run(m.name, func(t *testing.T) {
			mdir := filepath.Join(dir, m.name)
			model := filepath.Join(mdir, "m.arbor")
			os.MkdirAll(mdir, 0o755)
			arbor(t, append([]string{"classify", "--data", train, "--id", "name", "--save-model", model, "--quiet", "--out", filepath.Join(mdir, "c.csv")}, m.args...)...)
			type rowLabel struct{ row, label string }
			byID := map[string]rowLabel{}
			for _, in := range inputs {
				out := arbor(t, "predict", "--model", model, "--data", in, "--quiet")
				recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(recs[0], ",") != "row,name,label" {
					t.Fatalf("arbor predict header %v", recs[0])
				}
				for _, r := range recs[1:] {
					byID[r[1]] = rowLabel{r[0], r[2]}
				}
			}
			opt := arborbeam.ReadOptions{Chunk: 37, SplitBytes: 300}
			var lines []any
			for id, w := range byID {
				lines = append(lines, id[:1]+":"+id+","+w.label)
			}
			err := runPipeline(t, func(s beam.Scope) {
				labels := arborbeam.Predict(s, model, beam.Create(s, filepath.Join(dir, "in", "*.csv"), filepath.Join(dir, "in", "*.gz")), opt)
				passert.Equals(s, beam.ParDo(s, chunkLines, labels), lines...)
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func init() { beam.RegisterFunction(chunkLines) }

// chunkLines emits F:ID,label for each row of c, F the first letter of
// its file's name.
func chunkLines(c arborbeam.Chunk, emit func(string)) {
	for i, l := range c.Labels {
		emit(filepath.Base(c.File)[:1] + ":" + c.IDs[i] + "," + l)
	}
}

// spoilRow writes "oops" into the third cell of the row of file that
// contains mark and returns that row's line number.
func spoilRow(t *testing.T, file, mark string) int {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	line := 0
	for i, l := range lines {
		if strings.Contains(l, mark) {
			f := strings.Split(l, ",")
			f[2] = "oops"
			lines[i] = strings.Join(f, ",")
			line = i + 1
		}
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return line
}
