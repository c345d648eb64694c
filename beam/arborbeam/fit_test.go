package arborbeam_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
)

// TestFitEqualsArborClassify: arbor-beam's fit on prism, over two files
// (one data set in the order of their names) read in byte ranges of 200
// kB and chunks of 1,000 rows, of more rows than one block (so that the
// sums are added across blocks), writes the model file arbor classify
// --landmarks --save-model writes on the concatenated file, byte for
// byte: label propagation with a knn:K width (KNNRadius in parts), k-means
// landmarks and std scaling, an rbf width with random landmarks and
// minmax scaling, and the paper's width (affinity kernel) without
// scaling; label spreading (Λ, then the system, then the transduction in
// parts) with an rbf width, and with the paper's width and α = 0.6; and
// linsvm and svm on the Nyström features of point kernels (rbf:scale on
// 200 landmarks that hold every labelled row, rbf:0.5 on 80 random ones,
// linear on 30), whose labelled rows' features are computed per block.
func TestFitEqualsArborClassify(t *testing.T) {
	dir := t.TempDir()
	n := arborbeam.BlockRows + 4000
	split := 30000
	var all, a, b strings.Builder
	header := "name,f1,f2,f3,f4,label\n"
	all.WriteString(header)
	a.WriteString(header)
	b.WriteString(header)
	for i := 0; i < n; i++ {
		v := point(i)
		label := "?"
		if i%400 == 7 {
			label = fmt.Sprintf("c%d", i%3)
		}
		line := fmt.Sprintf("r%d,%.4f,%.4f,%.4f,%.4f,%s\n", i, v[0], v[1], v[2], v[3], label)
		all.WriteString(line)
		if i < split {
			a.WriteString(line)
		} else {
			b.WriteString(line)
		}
	}
	os.MkdirAll(filepath.Join(dir, "in"), 0o755)
	whole := filepath.Join(dir, "all.csv")
	os.WriteFile(whole, []byte(all.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "in", "a.csv"), []byte(a.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "in", "b.csv"), []byte(b.String()), 0o644)
	for _, c := range []struct {
		name string
		set  arborbeam.FitSettings
		args []string
	}{
		{"knn-kmeans-std", arborbeam.FitSettings{Learner: "lp", Landmarks: 60, Seed: 5},
			[]string{"--learner", "lp", "--landmarks", "60", "--seed", "5"}},
		{"rbf-random-minmax", arborbeam.FitSettings{Learner: "lp", Landmarks: 50, LandmarkMethod: "random", Seed: 2, Scale: "minmax",
			Params: map[string]string{"affinity": "rbf:30"}},
			[]string{"--learner", "lp", "--landmarks", "50", "--landmark-method", "random", "--seed", "2", "--scale", "minmax", "--affinity", "rbf:30"}},
		{"paper-width-none", arborbeam.FitSettings{Learner: "lp", Landmarks: 40, Scale: "none", Params: map[string]string{"affinity": "kernel"}},
			[]string{"--learner", "lp", "--landmarks", "40", "--scale", "none", "--affinity", "kernel"}},
		{"spreading-rbf-kmeans-std", arborbeam.FitSettings{Learner: "spreading", Landmarks: 60, Seed: 5, Params: map[string]string{"affinity": "rbf:30"}},
			[]string{"--learner", "spreading", "--landmarks", "60", "--seed", "5", "--affinity", "rbf:30"}},
		{"spreading-paper-width-minmax", arborbeam.FitSettings{Learner: "spreading", Landmarks: 45, LandmarkMethod: "random", Seed: 1, Scale: "minmax",
			Params: map[string]string{"affinity": "kernel", "alpha": "0.6"}},
			[]string{"--learner", "spreading", "--landmarks", "45", "--landmark-method", "random", "--seed", "1", "--scale", "minmax", "--affinity", "kernel", "--alpha", "0.6"}},
		{"linsvm-rbfscale-kmeans-std", arborbeam.FitSettings{Learner: "linsvm", Kernel: "rbf:scale", Landmarks: 200, Seed: 3},
			[]string{"--learner", "linsvm", "--kernel", "rbf:scale", "--landmarks", "200", "--seed", "3"}},
		{"svm-rbf-random-minmax", arborbeam.FitSettings{Learner: "svm", Kernel: "rbf:0.5", Landmarks: 80, LandmarkMethod: "random", Seed: 4, Scale: "minmax",
			Params: map[string]string{"C": "10"}},
			[]string{"--learner", "svm", "--kernel", "rbf:0.5", "--landmarks", "80", "--landmark-method", "random", "--seed", "4", "--scale", "minmax", "--C", "10"}},
		{"linsvm-linear-none", arborbeam.FitSettings{Learner: "linsvm", Landmarks: 30, Scale: "none", Params: map[string]string{"C": "0.5", "tol": "1e-5"}},
			[]string{"--learner", "linsvm", "--landmarks", "30", "--scale", "none", "--C", "0.5", "--tol", "1e-5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mdir := filepath.Join(dir, c.name)
			os.MkdirAll(mdir, 0o755)
			want := filepath.Join(mdir, "classify.arbor")
			arbor(t, append([]string{"classify", "--data", whole, "--id", "name", "--label", "label",
				"--save-model", want, "--quiet", "--out", filepath.Join(mdir, "c.csv")}, c.args...)...)
			got := filepath.Join(mdir, "beam.arbor")
			out, name := arborbeam.ModelOutput(got)
			opt := arborbeam.ReadOptions{Chunk: 1000, SplitBytes: 200 << 10}
			opt.CSV.ID, opt.CSV.Label = "name", "label"
			err := runPipeline(t, func(s beam.Scope) {
				written, err := arborbeam.Fit(s, beam.Create(s, filepath.Join(dir, "in", "*.csv")), opt, c.set, out, name)
				if err != nil {
					t.Fatal(err)
				}
				arborbeam.Finalize(s, written, out)
			})
			if err != nil {
				t.Fatal(err)
			}
			w, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			g, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(w, g) {
				t.Fatalf("the model arbor-beam fit wrote (%d bytes) differs from arbor classify's (%d bytes)", len(g), len(w))
			}
		})
	}
}

// TestFitMagnitude: a value whose squares overflow float64 at this many
// rows fails the job, naming the file, the row in it and the column, as
// arbor classify refuses it.
func TestFitMagnitude(t *testing.T) {
	dir := t.TempDir()
	var a strings.Builder
	a.WriteString("f1,f2,label\n")
	for i := 0; i < 300; i++ {
		v := point(i)
		f2 := fmt.Sprintf("%.4f", v[1])
		if i == 211 {
			f2 = "1e160"
		}
		label := "?"
		if i%10 == 0 {
			label = fmt.Sprintf("c%d", i%3)
		}
		fmt.Fprintf(&a, "%.4f,%s,%s\n", v[0], f2, label)
	}
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte(a.String()), 0o644)
	opt := arborbeam.ReadOptions{Chunk: 50, SplitBytes: 2000}
	opt.CSV.Label = "label"
	err := runFit(t, filepath.Join(dir, "m", "m.arbor"), opt,
		arborbeam.FitSettings{Learner: "lp", Landmarks: 20, Params: map[string]string{"affinity": "rbf:2"}}, filepath.Join(dir, "a.csv"))
	want := "row 211 (counting from 0)"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "a.csv") || !strings.Contains(err.Error(), `"f2"`) {
		t.Fatalf("error %v, want one naming a.csv, %q and column f2", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "m", "m.arbor")); err == nil {
		t.Fatal("a failed fit left a model file")
	}
}

// TestFitRefusedOnPrism: settings refused in the step that chooses the
// landmarks (spreading with a knn affinity, which arbor classify
// --landmarks fits on the exact kNN graph of all rows at this size; more
// landmarks than rows, for the anchor graph and for landmark features),
// and rows refused in the step before it (no labelled rows), fail the job
// on prism, which runs stages side by side, with the refusal itself, and
// write no model.
func TestFitRefusedOnPrism(t *testing.T) {
	dir := t.TempDir()
	var a strings.Builder
	a.WriteString("f1,f2,label\n")
	for i := 0; i < 200; i++ {
		v := point(i)
		label := "?"
		if i%10 == 0 {
			label = fmt.Sprintf("c%d", i%3)
		}
		fmt.Fprintf(&a, "%.4f,%.4f,%s\n", v[0], v[1], label)
	}
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte(a.String()), 0o644)
	unlabelled := regexp.MustCompile(`,c\d\n`).ReplaceAllString(a.String(), ",?\n")
	os.WriteFile(filepath.Join(dir, "unlabelled.csv"), []byte(unlabelled), 0o644)
	for _, c := range []struct {
		name string
		set  arborbeam.FitSettings
		want string
	}{
		{"lp-unlabelled", arborbeam.FitSettings{Learner: "lp", Landmarks: 20, Params: map[string]string{"affinity": "rbf:2"}}, "no labelled rows"},
		{"svm-unlabelled", arborbeam.FitSettings{Learner: "svm", Landmarks: 20}, "no labelled rows"},
		{"spreading-knn", arborbeam.FitSettings{Learner: "spreading", Landmarks: 20, Params: map[string]string{"affinity": "knn:5"}}, "exact kNN graph"},
		{"spreading-rbf-landmarks", arborbeam.FitSettings{Learner: "spreading", Landmarks: 300, Params: map[string]string{"affinity": "rbf:2"}}, "--landmarks 300: more than the 200 rows"},
		{"lp-knn-landmarks", arborbeam.FitSettings{Learner: "lp", Landmarks: 300}, "--landmarks 300: more than the 200 rows"},
		{"lp-kernel-landmarks", arborbeam.FitSettings{Learner: "lp", Landmarks: 300, Params: map[string]string{"affinity": "kernel"}}, "--landmarks 300: more than the 200 rows"},
		{"linsvm-landmarks", arborbeam.FitSettings{Learner: "linsvm", Landmarks: 300}, "--landmarks 300: more than the 200 rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			model := filepath.Join(dir, c.name, "m.arbor")
			opt := arborbeam.ReadOptions{Chunk: 50, SplitBytes: 2000}
			opt.CSV.Label = "label"
			data := filepath.Join(dir, "a.csv")
			if strings.HasSuffix(c.name, "unlabelled") {
				data = filepath.Join(dir, "unlabelled.csv")
			}
			err := runFit(t, model, opt, c.set, data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want the refusal %q", err, c.want)
			}
			if _, err := os.Stat(model); err == nil {
				t.Fatal("a refused fit left a model file")
			}
		})
	}
}

// TestFitFirstDataError: a fit over files with several data errors (a
// value too large, a bad cell further on, a file with a header only)
// fails with the first of them in file order, whichever task met its
// error first, and writes no model; a fit whose every file is refused
// fails with that refusal.
func TestFitFirstDataError(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, rows int, spoil map[int]string) {
		var a strings.Builder
		a.WriteString("f1,f2,label\n")
		for i := 0; i < rows; i++ {
			v := point(i)
			f2 := fmt.Sprintf("%.4f", v[1])
			if s, ok := spoil[i]; ok {
				f2 = s
			}
			label := "?"
			if i%10 == 0 {
				label = fmt.Sprintf("c%d", i%3)
			}
			fmt.Fprintf(&a, "%.4f,%s,%s\n", v[0], f2, label)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(a.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.csv", 300, map[int]string{120: "1e160", 250: "oops"})
	write("b.csv", 0, nil)
	write("c.csv", 300, map[int]string{20: "oops"})
	write("d.csv", 300, map[int]string{270: "oops"})
	for _, c := range []struct {
		files      []string
		want, not1 string
	}{
		{[]string{"a.csv", "b.csv", "c.csv"}, `a.csv: column "f2": row 120 (counting from 0)`, "oops"},
		{[]string{"d.csv", "c.csv", "b.csv"}, "b.csv:2: header only, no data rows", "oops"},
		{[]string{"d.csv", "c.csv"}, `c.csv:22: column "f2": not a number "oops"`, "d.csv"},
		{[]string{"b.csv"}, "b.csv:2: header only, no data rows", "oops"},
	} {
		model := filepath.Join(dir, strings.Join(c.files, "-"), "m.arbor")
		opt := arborbeam.ReadOptions{Chunk: 30, SplitBytes: 1000}
		opt.CSV.Label = "label"
		var files []string
		for _, f := range c.files {
			files = append(files, filepath.Join(dir, f))
		}
		err := runFit(t, model, opt, arborbeam.FitSettings{Learner: "lp", Landmarks: 20, Params: map[string]string{"affinity": "rbf:2"}}, files...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not1) {
			t.Fatalf("files %v: error %v, want one naming %q and not %q", c.files, err, c.want, c.not1)
		}
		if _, err := os.Stat(model); err == nil {
			t.Fatalf("files %v: a failed fit left a model file", c.files)
		}
	}
}

// TestFitNoLabelColumn: a label column the files do not have fails the
// fit as arbor classify refuses it, naming the file and the column, not
// as a text cell of a column read as a feature.
func TestFitNoLabelColumn(t *testing.T) {
	dir := t.TempDir()
	var a strings.Builder
	a.WriteString("f1,f2,label\n")
	for i := 0; i < 60; i++ {
		v := point(i)
		fmt.Fprintf(&a, "%.4f,%.4f,c%d\n", v[0], v[1], i%3)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.csv"), []byte(a.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m", "m.arbor")
	opt := arborbeam.ReadOptions{Chunk: 20}
	opt.CSV.Label = "lab"
	err := runFit(t, model, opt, arborbeam.FitSettings{Learner: "lp", Landmarks: 10, Params: map[string]string{"affinity": "rbf:2"}}, filepath.Join(dir, "a.csv"))
	if want := `a.csv:1: column "lab": no such label column`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
	if _, err := os.Stat(model); err == nil {
		t.Fatal("a refused fit left a model file")
	}
}

// runFit runs Fit and Finalize on prism over files (globs), writing the
// model to model; it returns the job's error.
func runFit(t *testing.T, model string, opt arborbeam.ReadOptions, set arborbeam.FitSettings, files ...string) error {
	t.Helper()
	out, name := arborbeam.ModelOutput(model)
	globs := make([]any, len(files))
	for i, f := range files {
		globs[i] = f
	}
	return runPipeline(t, func(s beam.Scope) {
		written, err := arborbeam.Fit(s, beam.Create(s, globs...), opt, set, out, name)
		if err != nil {
			t.Fatal(err)
		}
		arborbeam.Finalize(s, written, out)
	})
}
