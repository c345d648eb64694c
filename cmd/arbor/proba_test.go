package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readCSV reads a CSV file written by a command.
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

// TestProbaColumns: classify --proba --decision adds p_CLASS and d_A_B
// columns named by the classes (probabilities summing to 1, the sign of
// the decision value agreeing with the label of a two-class SVM), and
// arbor predict on the saved model gives the test rows the same values.
func TestProbaColumns(t *testing.T) {
	dir := t.TempDir()
	var tr strings.Builder
	tr.WriteString("x,y,kind\n")
	for i := range 40 {
		kind := "?"
		if i%4 == 0 {
			kind = []string{"left", "right"}[i%8/4]
		}
		x := float64(i%8/4)*2 + 0.05*float64(i%5)
		tr.WriteString(strconv.FormatFloat(x, 'g', -1, 64) + "," + strconv.Itoa(i%3) + "," + kind + "\n")
	}
	train, test := filepath.Join(dir, "t.csv"), filepath.Join(dir, "new.csv")
	os.WriteFile(train, []byte(tr.String()), 0o644)
	os.WriteFile(test, []byte("x,y\n0.1,1\n2.1,0\n1,2\n"), 0o644)
	out, model, pred := filepath.Join(dir, "c.csv"), filepath.Join(dir, "m.arbor"), filepath.Join(dir, "p.csv")
	mustArbor(t, "classify", "--data", train, "--label", "kind", "--kernel", "rbf:1", "--learner", "svm", "--test", test,
		"--proba", "--decision", "--save-model", model, "--out", out, "--quiet")
	recs := readCSV(t, out)
	if got := strings.Join(recs[0], ","); got != "set,row,label,given,p_left,p_right,d_left_right" {
		t.Fatalf("header %s", got)
	}
	mustArbor(t, "predict", "--model", model, "--data", test, "--proba", "--decision", "--out", pred, "--quiet")
	precs := readCSV(t, pred)
	if got := strings.Join(precs[0], ","); got != "row,label,p_left,p_right,d_left_right" {
		t.Fatalf("predict header %s", got)
	}
	for _, r := range recs[1:] {
		p0, _ := strconv.ParseFloat(r[4], 64)
		p1, _ := strconv.ParseFloat(r[5], 64)
		d, _ := strconv.ParseFloat(r[6], 64)
		if math.Abs(p0+p1-1) > 1e-12 || (d > 0) != (r[2] == "left") {
			t.Errorf("row %v: probabilities or decision value inconsistent with the label", r)
		}
		if r[0] == "test" {
			k, _ := strconv.Atoi(r[1])
			if got, want := strings.Join(precs[k+1][1:], ","), strings.Join(append([]string{r[2]}, r[4:]...), ","); got != want {
				t.Errorf("test row %d: predict %s, classify %s", k, got, want)
			}
		}
	}
	// knn and lp name their classes too; kNN has no decision values.
	mustArbor(t, "classify", "--data", train, "--label", "kind", "--learner", "knn", "--k", "3", "--proba", "--out", out, "--quiet")
	if got := strings.Join(readCSV(t, out)[0], ","); got != "set,row,label,given,p_left,p_right" {
		t.Errorf("knn header %s", got)
	}
	if _, _, err := arbor(t, "classify", "--data", train, "--label", "kind", "--learner", "knn", "--k", "3", "--decision", "--out", out, "--quiet"); err == nil || !strings.Contains(err.Error(), "no decision values") {
		t.Errorf("knn --decision: %v", err)
	}
}

// TestUnreachablePolicyCLI: label propagation fitted with --unreachable
// first gives a new point no label reaches the first class, by name, in
// classify --test and in predict (the policy is in the saved model; the
// warning names the class); predict --unreachable unlabeled overrides it.
func TestUnreachablePolicyCLI(t *testing.T) {
	dir := t.TempDir()
	var tr strings.Builder
	tr.WriteString("x,y,cls\n")
	for i := range 20 {
		lab := "?"
		if i%5 == 0 {
			lab = []string{"A", "B"}[i/10]
		}
		tr.WriteString(strconv.FormatFloat(float64(i/10)*2+0.03*float64(i%10), 'g', -1, 64) + ",0," + lab + "\n")
	}
	for i := range 6 {
		tr.WriteString(strconv.FormatFloat(50+0.03*float64(i), 'g', -1, 64) + ",0,?\n")
	}
	train, test := filepath.Join(dir, "t.csv"), filepath.Join(dir, "new.csv")
	os.WriteFile(train, []byte(tr.String()), 0o644)
	os.WriteFile(test, []byte("x,y\n0.1,0\n50.1,0\n2.1,0\n"), 0o644)
	out, model := filepath.Join(dir, "c.csv"), filepath.Join(dir, "m.arbor")
	_, stderr, err := arbor(t, "classify", "--data", train, "--label", "cls", "--learner", "lp", "--affinity", "knn:3",
		"--unreachable", "first", "--test", test, "--proba", "--save-model", model, "--out", out, "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, `6 points given the first class "A", as scikit-learn does`) {
		t.Errorf("warning does not name the class:\n%s", stderr)
	}
	var labels []string
	for _, r := range readCSV(t, out) {
		if r[0] == "test" {
			labels = append(labels, r[2]+" "+r[4]+" "+r[5])
		}
	}
	if got := strings.Join(labels, "|"); got != "A 1 0|A  |B 0 1" {
		t.Errorf("classify --test: %s", got)
	}
	if got := mustArbor(t, "predict", "--model", model, "--data", test, "--proba", "--quiet"); got != "row,label,p_A,p_B\n0,A,1,0\n1,A,,\n2,B,0,1\n" {
		t.Errorf("predict with the saved policy:\n%s", got)
	}
	if got := mustArbor(t, "predict", "--model", model, "--data", test, "--unreachable", "unlabeled", "--quiet"); got != "row,label\n0,A\n1,?\n2,B\n" {
		t.Errorf("predict --unreachable unlabeled:\n%s", got)
	}
}
