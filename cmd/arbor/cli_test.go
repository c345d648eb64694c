package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// arbor runs the CLI in-process and returns stdout and the error.
func arbor(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func mustArbor(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := arbor(t, args...)
	if err != nil {
		t.Fatalf("arbor %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

type peerRec struct {
	Method string  `json:"method"`
	Split  string  `json:"split"`
	Acc    float64 `json:"acc"`
}

func readPeer(t *testing.T, path string) map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r peerRec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Method == "" || r.Method == "_kernels" {
			continue
		}
		seed, _ := strconv.Atoi(strings.TrimPrefix(r.Split, "seed="))
		out[r.Method+"/"+strconv.Itoa(seed)] = r.Acc
	}
	return out
}

// TestEvalMatchesPeers runs `arbor eval --json` with the reference pipeline's
// protocol and requires every accuracy the peer reports (SVM and kNN k=1..5
// on nine kernels, label propagation rbf/knn) to be identical.
func TestEvalMatchesPeers(t *testing.T) {
	cases := []struct {
		fixture string
		args    []string
		kernels string
	}{
		{"testdata/peer_two_moons_perclass3_seeds012_none.jsonl",
			[]string{"--data", "two_moons", "--labeled-per-class", "3", "--seed", "0", "--repeats", "3", "--scale", "none"},
			"linear,rbf,hck:single,hck:complete,hck:average,hckg:single,hckg:complete,hckg:average,isomap"},
		{"testdata/peer_iris_perclass5_seeds01_std.jsonl",
			[]string{"--data", "iris", "--labeled-per-class", "5", "--seed", "0", "--repeats", "2", "--scale", "std"},
			"linear,rbf,hck:single,hck:complete,hck:average"},
	}
	for _, c := range cases {
		want := readPeer(t, c.fixture)
		got := map[string]float64{}
		for _, learn := range [][]string{
			{"--learner", "svm,knn", "--k", "1-5", "--kernel", c.kernels},
			{"--learner", "lp", "--affinity", "rbf:20"},
			{"--learner", "lp", "--affinity", "knn:7"},
		} {
			args := append(append([]string{"eval", "--json", "--quiet"}, c.args...), learn...)
			out := mustArbor(t, args...)
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var r struct {
					Method   string  `json:"method"`
					Split    int     `json:"split"`
					Accuracy float64 `json:"accuracy"`
				}
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				got[r.Method+"/"+strconv.Itoa(r.Split)] = r.Accuracy
			}
		}
		if len(want) < 20 {
			t.Fatalf("%s: only %d peer records", c.fixture, len(want))
		}
		for k, w := range want {
			g, ok := got[k]
			if !ok {
				t.Errorf("%s: no Arbor result for %s", c.fixture, k)
				continue
			}
			// The peer rounds accuracies to 6 decimals.
			if math.Abs(g-w) > 1e-6 {
				t.Errorf("%s: %s accuracy %.6f, peer %.6f", c.fixture, k, g, w)
			}
		}
	}
}

func TestClusterOutputs(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "labels.csv")
	z := filepath.Join(dir, "Z.csv")
	nwk := filepath.Join(dir, "t.nwk")
	png := filepath.Join(dir, "t.svg")
	out := mustArbor(t, "cluster", "--data", "iris", "--linkage", "average", "--k", "3", "--quiet",
		"--out", labels, "--linkage-out", z, "--newick", nwk, "--dendrogram", png)
	if !strings.Contains(out, "clusters   3") {
		t.Fatalf("output:\n%s", out)
	}
	raw, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n != 151 {
		t.Fatalf("labels.csv has %d lines, want 151", n)
	}
	raw, _ = os.ReadFile(z)
	rows := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(rows) != 149 || len(strings.Split(rows[0], ",")) != 4 {
		t.Fatalf("Z.csv: %d rows, first %q", len(rows), rows[0])
	}
	// The last merge joins everything: size 150.
	if f := strings.Split(rows[148], ","); f[3] != "150" {
		t.Fatalf("last linkage row %q", rows[148])
	}
	for _, p := range []string{nwk, png} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Fatalf("%s not written: %v", p, err)
		}
	}
}

func TestKernelOutputs(t *testing.T) {
	dir := t.TempDir()
	k := filepath.Join(dir, "K.csv")
	mustArbor(t, "kernel", "--data", "iris", "--kernel", "hck", "--linkage", "complete", "--out", k, "--quiet")
	raw, err := os.ReadFile(k)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(rows) != 150 || len(strings.Split(rows[0], ",")) != 150 {
		t.Fatalf("K.csv is %d rows × %d", len(rows), len(strings.Split(rows[0], ",")))
	}
	// Double centering makes every row sum to zero.
	for i, r := range rows {
		var s, m float64
		for _, f := range strings.Split(r, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			s += v
			m = math.Max(m, math.Abs(v))
		}
		if math.Abs(s) > 1e-9*150*m {
			t.Fatalf("row %d sums to %g", i, s)
		}
	}
	npy := filepath.Join(dir, "K.npy")
	mustArbor(t, "kernel", "--data", "iris", "--kernel", "rbf", "--gamma", "0.5", "--out", npy, "--quiet")
	if st, err := os.Stat(npy); err != nil || st.Size() != 128+150*150*8 {
		t.Fatalf("K.npy: %v, size %d", err, st.Size())
	}
}

func TestClassifyWritesPredictions(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	// Two clusters, two labelled rows, four to predict.
	os.WriteFile(data, []byte("x,y,label\n0,0,a\n0.1,0,\n0,0.2,?\n5,5,b\n5.1,5,\n5,4.9,\n"), 0o644)
	test := filepath.Join(dir, "t.csv")
	os.WriteFile(test, []byte("x,y,label\n4.8,5.2,b\n0.2,0.1,a\n"), 0o644)
	pred := filepath.Join(dir, "p.csv")
	out := mustArbor(t, "classify", "--data", data, "--kernel", "rbf", "--gamma", "0.5", "--learner", "knn", "--k", "1", "--test", test, "--out", pred, "--quiet", "--scale", "none")
	if !strings.Contains(out, "accuracy 100.00%") {
		t.Fatalf("output:\n%s", out)
	}
	raw, _ := os.ReadFile(pred)
	want := "set,row,label,given\ndata,0,a,1\ndata,1,a,0\ndata,2,a,0\ndata,3,b,1\ndata,4,b,0\ndata,5,b,0\ntest,0,b,0\ntest,1,a,0\n"
	if string(raw) != want {
		t.Fatalf("predictions:\n%s\nwant:\n%s", raw, want)
	}
}

// TestBadInputs: every mistake is an error with a message, never a panic,
// and no output file is left behind.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("a,b,label\n1,2,0\n3,x,1\n"), 0o644)
	one := filepath.Join(dir, "one.csv")
	os.WriteFile(one, []byte("a,b,label\n1,2,0\n3,4,0\n5,6,\n"), 0o644)
	out := filepath.Join(dir, "out.csv")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"nope"}, "unknown command"},
		{[]string{"cluster"}, "--data is required"},
		{[]string{"cluster", "--data", bad, "--k", "2", "--out", out}, `bad.csv:3: column "b"`},
		{[]string{"cluster", "--data", "iris", "--k", "151", "--out", out}, "larger than the number of rows"},
		{[]string{"cluster", "--data", "iris", "--linkage", "fastest", "--k", "2"}, "--linkage"},
		{[]string{"cluster", "--data", "iris", "--distance", "graph", "--graph", "knn:0", "--k", "2"}, "--graph"},
		{[]string{"cluster", "--data", "iris", "--k", "2", "--height", "1"}, "mutually exclusive"},
		{[]string{"cluster", "--data", filepath.Join(dir, "missing.csv"), "--k", "2"}, "missing.csv"},
		{[]string{"kernel", "--data", "iris", "--kernel", "rbf", "--gamma", "-1", "--out", out}, "Gamma"},
		{[]string{"kernel", "--data", "iris", "--kernel", "wavelet", "--out", out}, "wavelet"},
		{[]string{"kernel", "--data", "iris", "--out", filepath.Join(dir, "K.txt")}, ".csv or .npy"},
		{[]string{"classify", "--data", "iris", "--out", out}, "nothing to predict"},
		{[]string{"classify", "--data", one, "--learner", "svm", "--out", out}, "class"},
		{[]string{"classify", "--data", one, "--learner", "svm", "--C", "0", "--out", out}, "--C"},
		{[]string{"eval", "--data", "iris", "--labeled-per-class", "5", "--learner", "knn", "--k", "0"}, "--k"},
		{[]string{"eval", "--data", "iris"}, "--labeled-per-class"},
		{[]string{"eval", "--data", "iris", "--splits", filepath.Join(dir, "nosplits")}, "nosplits"},
		{[]string{"eval", "--data", one, "--labeled-per-class", "1"}, "unlabelled"},
	}
	for _, c := range cases {
		_, stderr, err := arbor(t, c.args...)
		if err == nil {
			t.Errorf("arbor %s: no error", strings.Join(c.args, " "))
			continue
		}
		if errors.Is(err, flag.ErrHelp) || !strings.Contains(err.Error()+stderr, c.want) {
			t.Errorf("arbor %s: error %q does not mention %q", strings.Join(c.args, " "), err, c.want)
		}
		if _, statErr := os.Stat(out); statErr == nil {
			t.Errorf("arbor %s: left %s behind", strings.Join(c.args, " "), out)
			os.Remove(out)
		}
	}
}

func TestHelpEverywhere(t *testing.T) {
	for name := range commands {
		_, stderr, err := arbor(t, name, "--help")
		if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "Usage: arbor "+name) {
			t.Errorf("%s --help: err %v, stderr %q", name, err, stderr)
		}
	}
	out, _, err := arbor(t, "help")
	if err != nil || !strings.Contains(out, "cluster") || !strings.Contains(out, "eval") {
		t.Fatalf("help: %v\n%s", err, out)
	}
}

func TestDemoQuick(t *testing.T) {
	dir := t.TempDir()
	out := mustArbor(t, "demo", "--quick", "--out-dir", dir)
	for _, want := range []string{"1. Clustering", "2. Semi-supervised", "hckg:average:knn:7"} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
	files, _ := os.ReadDir(dir)
	if len(files) < 3 {
		t.Fatalf("demo wrote %d pictures", len(files))
	}
}

// writeFile writes content to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

// Outputs get the mode os.Create gives (0666 less the umask), not the
// owner-only 0600 of a temporary file.
func TestOutputModeAsCreate(t *testing.T) {
	dir := t.TempDir()
	ref, err := os.Create(filepath.Join(dir, "ref"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	want, _ := os.Stat(ref.Name())
	out := filepath.Join(dir, "labels.csv")
	pic := filepath.Join(dir, "tree.svg")
	mustArbor(t, "cluster", "--data", "iris", "--k", "3", "--out", out, "--dendrogram", pic, "--quiet")
	for _, p := range []string{out, pic} {
		got, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got.Mode().Perm() != want.Mode().Perm() {
			t.Errorf("%s: mode %v, want %v (as os.Create)", p, got.Mode().Perm(), want.Mode().Perm())
		}
	}
}

// A missing output directory or a bad picture extension is reported before
// any work, and no other output is written.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "labels.csv")
	for _, args := range [][]string{
		{"cluster", "--data", "iris", "--k", "3", "--out", out, "--dendrogram", filepath.Join(dir, "nope", "d.png")},
		{"cluster", "--data", "iris", "--k", "3", "--out", out, "--dendrogram", filepath.Join(dir, "d.jpg")},
		{"cluster", "--data", "iris", "--k", "3", "--out", dir},
		{"cluster", "--data", "iris", "--k", "3", "--out", out, "--newick", out},
		{"classify", "--data", "two_moons", "--out", "two_moons"},
		{"kernel", "--data", "iris", "--out", out, "--embed", "2", "--embed-out", filepath.Join(dir, "nope", "Z.csv")},
		{"kernel", "--data", "iris", "--out", filepath.Join(dir, "K.npy"), "--embed", "151", "--embed-out", filepath.Join(dir, "Z.csv")},
		{"classify", "--data", "two_moons", "--out", filepath.Join(dir, "nope", "p.csv")},
		{"svc", "--data", "iris", "--q", "1", "--C", "1", "--out", out, "--plot", filepath.Join(dir, "p.gif")},
	} {
		_, _, err := arbor(t, append(args, "--quiet")...)
		if !errors.Is(err, errUsage) {
			t.Errorf("arbor %s: err = %v, want a usage error", strings.Join(args, " "), err)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 0 {
			t.Errorf("arbor %s wrote %v", strings.Join(args, " "), ents[0].Name())
		}
	}
}

// --test files: features alone are fine (labels are ignored), reordered
// columns are matched by name, labels that are not training classes a warning.
func TestClassifyTestFile(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "train.csv", "a,b,label\n1,2,cat\n2,3,dog\n3,1,cat\n5,5,dog\n1,1,\n2,2,?\n")
	out := filepath.Join(dir, "p.csv")
	noLab := writeFile(t, dir, "nolab.csv", "a,b\n1,2\n5,5\n")
	mustArbor(t, "classify", "--data", train, "--scale", "none", "--test", noLab, "--out", out, "--quiet")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "test,0,cat,0\ntest,1,dog,0\n") {
		t.Errorf("predictions:\n%s", b)
	}
	// Reordered columns are matched by name, as arbor predict does
	// (testalign.go): the same points, the same labels.
	swapped := writeFile(t, dir, "swapped.csv", "b,a\n2,1\n5,5\n")
	if _, stderr, err := arbor(t, "classify", "--data", train, "--scale", "none", "--test", swapped, "--out", out, "--quiet"); err != nil || !strings.Contains(stderr, "matched to") {
		t.Errorf("reordered columns: err = %v, stderr %q", err, stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "test,0,cat,0\ntest,1,dog,0\n") {
		t.Errorf("reordered columns: predictions:\n%s", b)
	}
	numeric := writeFile(t, dir, "numeric.csv", "a,b,label\n1,2,0\n5,5,1\n")
	_, stderr, err := arbor(t, "classify", "--data", train, "--test", numeric, "--out", out, "--quiet")
	if err != nil || !strings.Contains(stderr, `test labels "0", "1" are not classes`) {
		t.Errorf("unknown test classes: err = %v, stderr %q", err, stderr)
	}
}

// eval's --unreachable default is "first" (scikit-learn's answer, warned);
// --help must say so, not classify's "error".
func TestEvalHelpUnreachableDefault(t *testing.T) {
	// one policy for classify and eval
	for _, cmd := range []string{"classify", "eval"} {
		_, stderr, _ := arbor(t, cmd, "--help")
		i := strings.Index(stderr, "--unreachable")
		if i < 0 {
			t.Fatalf("no --unreachable in %s --help:\n%s", cmd, stderr)
		}
		rest := stderr[i:]
		if j := strings.Index(rest, "\n  --"); j > 0 {
			rest = rest[:j]
		}
		if !strings.Contains(rest, `(default "unlabeled")`) {
			t.Errorf("%s --help: %s", cmd, rest)
		}
	}
}

// Unsupervised commands read a CSV file of features alone; an explicit
// --label NAME must exist, and classify needs labels.
func TestUnlabelledFileUnsupervised(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "x.csv", "a,b\n1,2\n5,5\n3,3\n6,6\n")
	mustArbor(t, "cluster", "--data", f, "--k", "2", "--out", filepath.Join(dir, "o.csv"), "--quiet")
	mustArbor(t, "kernel", "--data", f, "--out", filepath.Join(dir, "K.npy"), "--quiet")
	mustArbor(t, "svc", "--data", f, "--q", "1", "--C", "1", "--out", filepath.Join(dir, "s.csv"), "--quiet")
	if _, _, err := arbor(t, "cluster", "--data", f, "--label", "cls", "--k", "2", "--quiet"); err == nil {
		t.Error("cluster --label cls on a file without it: no error")
	}
	if _, _, err := arbor(t, "classify", "--data", f, "--out", filepath.Join(dir, "p.csv"), "--quiet"); err == nil {
		t.Error("classify on a file without labels: no error")
	}
}

// Kernel parameter flags that the chosen kernel does not use are an error,
// not silently ignored.
func TestKernelFlagsUnused(t *testing.T) {
	dir := t.TempDir()
	K := filepath.Join(dir, "K.npy")
	for _, args := range [][]string{
		{"--kernel", "linear", "--gamma", "1"},
		{"--kernel", "rbf:0.5", "--gamma", "2"},
		{"--kernel", "hck", "--graph", "knn:3"},
		{"--kernel", "hck:average", "--linkage", "single"},
		{"--kernel", "poly", "--sigma", "1"},
	} {
		_, _, err := arbor(t, append([]string{"kernel", "--data", "iris", "--out", K, "--quiet"}, args...)...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "has no effect") {
			t.Errorf("%v: err = %v", args, err)
		}
	}
	for _, args := range [][]string{
		{"--kernel", "hck", "--distance", "graph", "--graph", "knn:3", "--linkage", "single"},
		{"--kernel", "poly", "--a", "0.5", "--degree", "2"},
		{"--kernel", "rbf", "--sigma", "2"},
	} {
		mustArbor(t, append([]string{"kernel", "--data", "iris", "--out", K, "--quiet"}, args...)...)
	}
}

// eval on a file with unlabelled rows says which row, counted how.
func TestEvalUnlabelledRowMessage(t *testing.T) {
	f := writeFile(t, t.TempDir(), "x.csv", "a,b,label\n1,2,0\n5,5,1\n3,3,0\n6,6,\n")
	_, _, err := arbor(t, "eval", "--data", f, "--labeled-per-class", "1", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "first: data row 3, counting from 0 after the header") {
		t.Errorf("err = %v", err)
	}
}

// --test takes a single new point, and a LIBSVM test file whose largest
// index is below the training data's (zeros omitted) is padded with zeros.
func TestClassifyTestOneRowAndSparse(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.csv")
	train := writeFile(t, dir, "tr.libsvm", "0 1:1 2:0.1\n1 1:3 2:4\n0 1:1 2:0.2\n1 2:6\n? 1:2 2:2\n")
	for _, test := range []string{
		writeFile(t, dir, "one.libsvm", "1 2:5\n"),
		writeFile(t, dir, "short.libsvm", "0 1:1\n0 1:1.1\n"),
	} {
		mustArbor(t, "classify", "--data", train, "--scale", "none", "--test", test, "--out", out, "--quiet")
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "test,0,0,0\ntest,1,0,0\n") {
		t.Errorf("predictions:\n%s", b)
	}
	csvTrain := writeFile(t, dir, "tr.csv", "a,b,label\n1,2,x\n5,5,y\n1,1,x\n6,6,y\n2,2,\n")
	mustArbor(t, "classify", "--data", csvTrain, "--test", writeFile(t, dir, "one.csv", "a,b\n5,6\n"), "--out", out, "--quiet")
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "test,0,y,0\n") {
		t.Errorf("predictions:\n%s", b)
	}
}

// classify reports the gamma that rbf:scale resolved to.
func TestClassifyPrintsGamma(t *testing.T) {
	_, out, err := arbor(t, "classify", "--data", "iris", "--kernel", "rbf", "--test", writeFile(t, t.TempDir(), "x.csv", "f1,f2,f3,f4\n5,3,1,0.2\n"), "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	// z-scored iris: Var X = 1, d = 4
	if !strings.Contains(out, "kernel   rbf:scale (gamma 0.25)") {
		t.Errorf("output:\n%s", out)
	}
}

// eval warns about a class that --labeled-per-class leaves without labels.
func TestEvalSingletonClassWarns(t *testing.T) {
	f := writeFile(t, t.TempDir(), "x.csv", "a,b,label\n1,2,0\n2,3,0\n3,1,0\n5,5,1\n6,6,1\n7,7,1\n9,9,2\n")
	_, stderr, err := arbor(t, "eval", "--data", f, "--labeled-per-class", "2", "--repeats", "1", "--quiet")
	if err != nil || !strings.Contains(stderr, `class "2" has a single row`) {
		t.Errorf("err = %v, stderr %q", err, stderr)
	}
}

// --affinity kernel with a kernel that has negative entries names the fix.
func TestClassifyNegativeAffinityHint(t *testing.T) {
	f := writeFile(t, t.TempDir(), "x.csv", "a,b,label\n1,2,0\n2,3,\n3,1,\n5,5,1\n6,6,\n7,7,\n")
	_, _, err := arbor(t, "classify", "--data", f, "--learner", "lp", "--affinity", "kernel", "--kernel", "linear", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "--affinity kernel needs a kernel with non-negative entries") {
		t.Errorf("err = %v", err)
	}
}
