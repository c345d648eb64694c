package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLandmarkProbaCLI: classify --landmarks M --proba / --decision adds
// the columns of the exact pipelines (linsvm: decision values only), and
// arbor predict on the saved landmark model gives the --test rows the
// same labels and values; what a landmark model has not is refused with
// the reason.
func TestLandmarkProbaCLI(t *testing.T) {
	dir := t.TempDir()
	var tr, te strings.Builder
	tr.WriteString("x,y,kind\n")
	te.WriteString("x,y\n")
	for i := range 90 {
		kind := []string{"a", "b", "c"}[i%3]
		if i%2 == 1 {
			kind = "?"
		}
		x, y := float64(i%3)*2+0.1*float64(i%7), float64(i%5)*0.2
		row := strings.Join([]string{ftoa(x), ftoa(y)}, ",")
		tr.WriteString(row + "," + kind + "\n")
		if i%9 == 0 {
			te.WriteString(row + "\n")
		}
	}
	train := writeFile(t, dir, "t.csv", tr.String())
	test := writeFile(t, dir, "new.csv", te.String())
	out, model, pred := filepath.Join(dir, "c.csv"), filepath.Join(dir, "m.arbor"), filepath.Join(dir, "p.csv")
	for _, c := range []struct {
		args   []string
		outs   []string
		header string
	}{
		{[]string{"--learner", "svm", "--kernel", "rbf:1"}, []string{"--proba", "--decision"}, "p_a,p_b,p_c,d_a_b,d_a_c,d_b_c"},
		{[]string{"--learner", "knn", "--k", "3", "--kernel", "rbf:1"}, []string{"--proba"}, "p_a,p_b,p_c"},
		{[]string{"--learner", "linsvm", "--kernel", "rbf:1"}, []string{"--decision"}, "d_a,d_b,d_c"},
		{[]string{"--learner", "lp"}, []string{"--proba"}, "p_a,p_b,p_c"},
	} {
		args := append([]string{"classify", "--data", train, "--label", "kind", "--landmarks", "12", "--test", test,
			"--save-model", model, "--out", out, "--quiet"}, c.args...)
		mustArbor(t, append(args, c.outs...)...)
		recs := readCSV(t, out)
		if got, want := strings.Join(recs[0], ","), "set,row,label,given,"+c.header; got != want {
			t.Fatalf("%v: header %s, want %s", c.args, got, want)
		}
		mustArbor(t, append([]string{"predict", "--model", model, "--data", test, "--out", pred, "--quiet"}, c.outs...)...)
		precs := readCSV(t, pred)
		if got, want := strings.Join(precs[0], ","), "row,label,"+c.header; got != want {
			t.Fatalf("%v: predict header %s, want %s", c.args, got, want)
		}
		tests := 0
		for _, r := range recs[1:] {
			if r[0] != "test" {
				continue
			}
			tests++
			if got, want := strings.Join(precs[tests][1:], ","), strings.Join(append([]string{r[2]}, r[4:]...), ","); got != want {
				t.Errorf("%v: test row %s: predict %s, classify %s", c.args, r[1], got, want)
			}
		}
		if tests != len(precs)-1 || tests == 0 {
			t.Errorf("%v: %d test rows from classify, %d from predict", c.args, tests, len(precs)-1)
		}
	}
	// The linsvm model just saved has no probabilities; knn no decision values.
	if _, _, err := arbor(t, "predict", "--model", model, "--data", test, "--proba", "--out", pred, "--quiet"); err != nil {
		t.Errorf("lp model --proba: %v", err)
	}
	mustArbor(t, "classify", "--data", train, "--label", "kind", "--landmarks", "12", "--learner", "linsvm", "--kernel", "rbf:1",
		"--save-model", model, "--out", out, "--quiet")
	if _, _, err := arbor(t, "predict", "--model", model, "--data", test, "--proba", "--out", pred, "--quiet"); err == nil || !strings.Contains(err.Error(), "no class probabilities") {
		t.Errorf("linsvm model --proba: %v", err)
	}
	if _, _, err := arbor(t, "classify", "--data", train, "--label", "kind", "--landmarks", "12", "--learner", "knn", "--k", "3", "--kernel", "rbf:1",
		"--decision", "--out", out, "--quiet"); err == nil || !strings.Contains(err.Error(), "no decision values") {
		t.Errorf("knn --decision with landmarks: %v", err)
	}
}
