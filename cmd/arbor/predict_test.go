package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// TestPredictMatchesClassify: arbor predict with a model saved by arbor
// classify --save-model labels new points as classify --test did in the
// fitting process, for point and cluster kernels, exact and with
// landmarks (every landmark kernel family and learner), in chunks; columns
// are matched by name; IDs are carried.
func TestPredictMatchesClassify(t *testing.T) {
	dir := t.TempDir()
	iris, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	var train strings.Builder
	train.WriteString("name,f1,f2,f3,f4,label\n")
	for i := 0; i < iris.Len(); i++ {
		r := iris.X.RawRowView(i)
		fmt.Fprintf(&train, "t%d,%g,%g,%g,%g,%s\n", i, r[0], r[1], r[2], r[3], iris.Classes[iris.Y[i]])
	}
	trainCSV := filepath.Join(dir, "train.csv")
	os.WriteFile(trainCSV, []byte(train.String()), 0o644)
	var same, shuffled strings.Builder
	same.WriteString("name,f1,f2,f3,f4\n")
	shuffled.WriteString("f4,f2,name,f1,f3,extra\n")
	for i := 0; i < 40; i++ {
		v := []float64{4.5 + 0.09*float64(i), 2.2 + 0.05*float64(i%13), 1 + 0.15*float64(i), 0.1 + 0.06*float64(i)}
		fmt.Fprintf(&same, "p%d,%g,%g,%g,%g\n", i, v[0], v[1], v[2], v[3])
		fmt.Fprintf(&shuffled, "%g,%g,p%d,%g,%g,9\n", v[3], v[1], i, v[0], v[2])
	}
	newCSV := filepath.Join(dir, "new.csv")
	shufCSV := filepath.Join(dir, "shuffled.csv")
	os.WriteFile(newCSV, []byte(same.String()), 0o644)
	os.WriteFile(shufCSV, []byte(shuffled.String()), 0o644)
	lm := []string{"--landmarks", "30", "--seed", "2"}
	for _, c := range []struct {
		kernel, learner string
		extra           []string
	}{
		{"rbf:0.5", "svm", nil}, {"linear", "knn", nil}, {"hck:average", "svm", nil}, {"hckg:average", "knn", nil},
		// Landmark pipelines: every kernel family × learner classify takes.
		{"rbf:scale", "svm", lm}, {"laplacian:0.5", "knn", lm}, {"hck:average", "svm", lm}, {"hckg:single", "knn", lm},
		{"connectivity", "svm", lm}, {"isomap:knn:12", "svm", lm}, {"isomap:knn:12", "knn", lm},
		{"multitype:linstep:0.2:0.5", "svm", lm}, {"multitype:poly:2:0.5", "knn", lm},
		{"rbf:scale", "linsvm", lm}, {"hck:average", "linsvm", lm}, {"isomap:knn:12", "linsvm", lm},
		{"", "lp", lm}, {"", "spreading", append([]string{"--alpha", "0.5"}, lm...)}, // spreading on knn:10: the kNN graph of all rows
		{"", "spreading", append([]string{"--affinity", "rbf:2"}, lm...)}, // the anchor graph
	} {
		model := filepath.Join(dir, "m.arbor")
		args := []string{"classify", "--data", trainCSV, "--learner", c.learner,
			"--test", newCSV, "--id", "name", "--save-model", model, "--quiet", "--out", "-"}
		if c.kernel != "" {
			args = append(args, "--kernel", c.kernel)
		}
		out := mustArbor(t, append(args, c.extra...)...)
		var want []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Split(line, ","); f[0] == "test" {
				want = append(want, f[2]+","+f[3]) // id,label
			}
		}
		if len(want) != 40 {
			t.Fatalf("%v: classify gave %d test rows", c, len(want))
		}
		for _, file := range []string{newCSV, shufCSV} {
			got := mustArbor(t, "predict", "--model", model, "--data", file, "--id", "name", "--chunk", "7", "--quiet")
			lines := strings.Split(strings.TrimSpace(got), "\n")
			if lines[0] != "row,name,label" {
				t.Fatalf("header %q", lines[0])
			}
			for i, l := range lines[1:] {
				if want := fmt.Sprintf("%d,%s", i, want[i]); l != want {
					t.Fatalf("%v %s row %d: %q, classify gave %q", c, filepath.Base(file), i, l, want)
				}
			}
			if len(lines) != 41 {
				t.Fatalf("%v: %d output rows, want 40", c, len(lines)-1)
			}
		}
	}
}

// TestPredictErrors: a missing feature column, a cut model file and a
// foreign model file are errors naming the file.
func TestPredictErrors(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", "iris", "--kernel", "rbf:0.5", "--learner", "svm", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	renamed := filepath.Join(dir, "renamed.csv")
	os.WriteFile(renamed, []byte("f1,f2,f3,petal\n5.1,3.5,1.4,0.2\n"), 0o644)
	_, _, err := arbor(t, "predict", "--model", model, "--data", renamed)
	if err == nil || !strings.Contains(err.Error(), "renamed.csv") || !strings.Contains(err.Error(), `"f4"`) {
		t.Errorf("renamed column: %v", err)
	}
	full, _ := os.ReadFile(model)
	cut := filepath.Join(dir, "cut.arbor")
	os.WriteFile(cut, full[:len(full)/2], 0o644)
	_, _, err = arbor(t, "predict", "--model", cut, "--data", renamed)
	if err == nil || !strings.Contains(err.Error(), "cut.arbor") || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("cut model: %v", err)
	}
	_, _, err = arbor(t, "predict", "--model", renamed, "--data", renamed)
	if err == nil || !strings.Contains(err.Error(), "renamed.csv: not an Arbor pipeline file") {
		t.Errorf("foreign model: %v", err)
	}
	out := filepath.Join(dir, "p.csv")
	if _, _, err = arbor(t, "predict", "--model", model, "--data", renamed, "--out", out); err == nil {
		t.Fatal("want an error")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed predict left %s behind", out)
	}
}

// TestPredictDamagedModel: a size field larger than the file, a changed
// byte, a duplicate feature name and an unknown learner are one-line
// errors naming the model file and the field; no output is written.
func TestPredictDamagedModel(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", "iris", "--kernel", "rbf:0.5", "--learner", "svm", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv"))
	full, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "new.csv")
	os.WriteFile(data, []byte("f1,f2,f3,f4\n5.1,3.5,1.4,0.2\n"), 0o644)
	// Version 1 (no checksum line) with a changed manifest.
	v1 := func(old, new string) []byte {
		nl := bytes.IndexByte(full, '\n')
		body := full[nl : len(full)-len("ARBOR-CRC32C 00000000\n")]
		return append([]byte("ARBOR-PIPELINE 1"), bytes.Replace(body, []byte(old), []byte(new), 1)...)
	}
	flipped := bytes.Clone(full)
	flipped[len(flipped)/3] ^= 1
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"big.arbor", []byte("ARBOR-PIPELINE 1\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"payload_bytes\":1099511627776}\n"),
			`manifest field "payload_bytes": 1099511627776, but only 0 bytes follow`},
		{"flipped.arbor", flipped, "does not match its checksum"},
		{"dup.arbor", v1(`"f2"`, `"f3"`), `manifest field "features": the name "f3" occurs twice`},
		{"learner.arbor", v1(`"learner":"svm"`, `"learner":"svX"`), `manifest field "learner": unknown learner "svX"`},
	} {
		path := filepath.Join(dir, c.name)
		os.WriteFile(path, c.file, 0o644)
		out := filepath.Join(dir, c.name+".csv")
		_, _, err := arbor(t, "predict", "--model", path, "--data", data, "--out", out)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming the file and %q", c.name, err, c.want)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%s: a failed predict left %s behind", c.name, out)
		}
	}
}
