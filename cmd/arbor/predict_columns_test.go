package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// predictFixture writes a training file with an ID, a text column and a
// label (iris), fits and saves an rbf SVM on it (--id uid --ignore
// comment), and writes 60 new points as a clean file (uid and the four
// features) and as a messy one: the columns shuffled, the label column
// (text), the comment and an extra text column beside them.
func predictFixture(t *testing.T) (dir, model, train, clean, messy string) {
	t.Helper()
	dir = t.TempDir()
	iris, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	var tr strings.Builder
	tr.WriteString("uid,f1,f2,comment,f3,f4,label\n")
	for i := 0; i < iris.Len(); i++ {
		r := iris.X.RawRowView(i)
		fmt.Fprintf(&tr, "t%d,%g,%g,seen on day %d,%g,%g,%s\n", i, r[0], r[1], i%7, r[2], r[3], iris.Classes[iris.Y[i]])
	}
	var cl, me strings.Builder
	cl.WriteString("uid,f1,f2,f3,f4\n")
	me.WriteString("note,f4,label,f2,uid,comment,f3,f1\n")
	for i := 0; i < 60; i++ {
		v := []float64{4.5 + 0.06*float64(i), 2.2 + 0.05*float64(i%13), 1 + 0.1*float64(i), 0.1 + 0.04*float64(i)}
		fmt.Fprintf(&cl, "p%d,%g,%g,%g,%g\n", i, v[0], v[1], v[2], v[3])
		fmt.Fprintf(&me, "hello world %d,%g,%s,%g,p%d,\"free text, with a comma\",%g,%g\n", i, v[3], iris.Classes[i%3], v[1], i, v[2], v[0])
	}
	train, clean, messy = filepath.Join(dir, "train.csv"), filepath.Join(dir, "clean.csv"), filepath.Join(dir, "messy.csv")
	for path, text := range map[string]string{train: tr.String(), clean: cl.String(), messy: me.String()} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	model = filepath.Join(dir, "m.arbor")
	mustArbor(t, "classify", "--data", train, "--id", "uid", "--ignore", "comment", "--kernel", "rbf:0.5", "--learner", "svm",
		"--save-model", model, "--quiet", "--out", filepath.Join(dir, "fit.csv"))
	return dir, model, train, clean, messy
}

// TestPredictColumnsByName: columns that are not the model's features
// are not read (a text column, the label column, in any order), and the
// model's ID column is carried without --id: the messy file gets the
// clean file's labels row for row, and the training file is re-predicted
// without repeating --id, --label or --ignore. Flags given still win.
func TestPredictColumnsByName(t *testing.T) {
	_, model, train, clean, messy := predictFixture(t)
	want := mustArbor(t, "predict", "--model", model, "--data", clean, "--id", "uid", "--quiet")
	if lines := strings.Split(strings.TrimSpace(want), "\n"); len(lines) != 61 || lines[0] != "row,uid,label" || !strings.HasPrefix(lines[60], "59,p59,") {
		t.Fatalf("clean file: %d lines, %q", len(lines), lines[0])
	}
	for _, args := range [][]string{
		{"--data", messy},
		{"--data", messy, "--chunk", "7"},
		{"--data", messy, "--id", "uid"},
		{"--data", clean}, // the ID from the model
	} {
		got, stderr, err := arbor(t, append([]string{"predict", "--model", model, "--quiet"}, args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		if got != want {
			t.Errorf("%v: predictions differ from the clean file's:\n%s\nwant\n%s", args, got, want)
		}
	}

	// The training file, without flags and with the flags it was fitted with.
	again := mustArbor(t, "predict", "--model", model, "--data", train, "--quiet")
	flags := mustArbor(t, "predict", "--model", model, "--data", train, "--id", "uid", "--ignore", "comment", "--label", "label", "--quiet")
	if lines := strings.Split(strings.TrimSpace(again), "\n"); len(lines) != 151 || lines[0] != "row,uid,label" || !strings.HasPrefix(lines[150], "149,t149,") {
		t.Fatalf("training file: %d lines, first %q", len(lines), lines[0])
	}
	if again != flags {
		t.Errorf("the training file without flags:\n%s\nwith them:\n%s", again, flags)
	}

	// Flags given win: another ID column, no ID, an ignored feature.
	got := mustArbor(t, "predict", "--model", model, "--data", messy, "--id", "note", "--quiet")
	if lines := strings.Split(got, "\n"); lines[0] != "row,note,label" || !strings.HasPrefix(lines[1], "0,hello world 0,") {
		t.Errorf("--id note: %q", lines[:2])
	}
	got = mustArbor(t, "predict", "--model", model, "--data", messy, "--features", "f1,f2,f3,f4", "--quiet")
	if lines := strings.Split(got, "\n"); lines[0] != "row,label" {
		t.Errorf("--features f1,f2,f3,f4: header %q, want row,label (no ID read)", lines[0])
	}
	_, _, err := arbor(t, "predict", "--model", model, "--data", messy, "--ignore", "f3", "--quiet")
	if err == nil || !strings.Contains(err.Error(), `no column "f3"`) {
		t.Errorf("--ignore f3: %v, want the missing feature f3", err)
	}
	// With the columns given, a text column that is the model's ID column
	// is named with the flag the model was fitted with.
	_, _, err = arbor(t, "predict", "--model", model, "--data", clean, "--features", "uid,f1,f2,f3,f4", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "the model was fitted with --id uid") {
		t.Errorf("--features uid,...: %v, want the model's --id", err)
	}
	// A missing feature is named before any row is read, with the file.
	noF2 := filepath.Join(t.TempDir(), "nof2.csv")
	os.WriteFile(noF2, []byte("uid,f1,comment,f3,f4\np0,5,hi there,1,0.2\n"), 0o644)
	_, _, err = arbor(t, "predict", "--model", model, "--data", noF2, "--quiet")
	if err == nil || !strings.HasPrefix(err.Error(), noF2+": ") || !strings.Contains(err.Error(), `no column "f2"`) {
		t.Errorf("missing f2: %v", err)
	}
	// A file without a header is still matched by position.
	var nohdr strings.Builder
	cl, _ := os.ReadFile(clean)
	for _, l := range strings.Split(strings.TrimSpace(string(cl)), "\n")[1:] {
		nohdr.WriteString(l[strings.IndexByte(l, ',')+1:] + "\n")
	}
	nohdrCSV := filepath.Join(t.TempDir(), "nohdr.csv")
	os.WriteFile(nohdrCSV, []byte(nohdr.String()), 0o644)
	got = mustArbor(t, "predict", "--model", model, "--data", nohdrCSV, "--no-header", "--quiet")
	wantLines := strings.Split(strings.TrimSpace(want), "\n")[1:]
	gotLines := strings.Split(strings.TrimSpace(got), "\n")
	if gotLines[0] != "row,label" || len(gotLines) != 61 {
		t.Fatalf("--no-header: %d lines, header %q", len(gotLines), gotLines[0])
	}
	for i, l := range gotLines[1:] {
		f := strings.Split(wantLines[i], ",")
		if l != f[0]+","+f[2] {
			t.Fatalf("--no-header row %d: %q, want %q", i, l, f[0]+","+f[2])
		}
	}
}

// TestPredictErrorLines: in a file read in chunks, a missing value and a
// bad cell are reported at their line in the file, and an error of the
// input names the input, not the output (which is not written).
func TestPredictErrorLines(t *testing.T) {
	dir, model, _, _, _ := predictFixture(t)
	var sb strings.Builder
	sb.WriteString("uid,f1,f2,f3,f4\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sb, "p%d,%g,%g,%g,%g\n", i, 4.5+0.003*float64(i), 3.0, 1+0.005*float64(i), 0.2+0.002*float64(i))
	}
	text := sb.String()
	lines := strings.SplitAfter(text, "\n")
	naLines := append([]string(nil), lines...)
	naLines[800] = "p799,5.1,NA,1.4,0.2\n" // file line 801
	na := filepath.Join(dir, "na801.csv")
	os.WriteFile(na, []byte(strings.Join(naLines, "")), 0o644)
	badLines := append([]string(nil), lines...)
	badLines[600] = "p599,5.1,3.5,oops,0.2\n" // file line 601
	bad := filepath.Join(dir, "bad601.csv")
	os.WriteFile(bad, []byte(strings.Join(badLines, "")), 0o644)
	out := filepath.Join(dir, "pred.csv")
	for _, c := range []struct {
		file, want string
	}{
		{na, "first at line 801 column \"f2\""},
		{bad, bad + `:601: column "f3": not a number "oops"`},
	} {
		for _, chunk := range []string{"100", "4096", "7"} {
			_, _, err := arbor(t, "predict", "--model", model, "--data", c.file, "--id", "uid", "--chunk", chunk, "--out", out, "--quiet")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s --chunk %s: %v, want %q", filepath.Base(c.file), chunk, err, c.want)
				continue
			}
			if strings.Contains(err.Error(), "--id f3") {
				t.Errorf("%s: %v: a bad cell of a model feature wants no role", filepath.Base(c.file), err)
			}
			if !strings.HasPrefix(err.Error(), c.file) || strings.Contains(err.Error(), "write") || strings.Contains(err.Error(), out) {
				t.Errorf("%s --chunk %s: %v, want an error of %s, not of writing %s", filepath.Base(c.file), chunk, err, c.file, out)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed predict left %s behind", out)
			}
		}
	}
}

// TestPredictFlags: predict --help lists no --scale and no --impute (the
// model carries its scaling and imputation), and giving them says why.
func TestPredictFlags(t *testing.T) {
	_, stderr, _ := arbor(t, "predict", "--help")
	if !strings.Contains(stderr, "--model") {
		t.Fatalf("predict --help:\n%s", stderr)
	}
	for _, f := range []string{"--scale", "--impute"} {
		if strings.Contains(stderr, f) {
			t.Errorf("predict --help lists %s:\n%s", f, stderr)
		}
	}
	for _, c := range []struct{ args, want string }{
		{"--scale std", "predict applies the scaling saved in the model"},
		{"--scale=none", "predict applies the scaling saved in the model"},
		{"--impute mean", "predict fills missing values as the model was fitted"},
	} {
		_, _, err := arbor(t, append([]string{"predict", "--model", "m.arbor", "--data", "new.csv"}, strings.Fields(c.args)...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("predict %s: %v, want %q", c.args, err, c.want)
		}
	}
}
