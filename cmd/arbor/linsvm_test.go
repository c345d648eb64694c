package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// TestLinSVMLandmarksLinearSVC: --learner linsvm on the Nyström features of
// the linear kernel is scikit-learn's LinearSVC on the scaled points. With
// M = 40 landmarks the 13 wine features are spanned, Z·Zᵀ = X·Xᵀ, Z is X
// turned by an isometry, and the SVM (½‖w‖² + C·Σ squared hinge, the
// intercept a penalised constant feature, one-versus-rest) is invariant to
// it. Fixture: testdata/linsvm_linearsvc.py (LinearSVC, tol 1e-8, fitted
// on 18 labelled rows of the z-scored wine set), C = 0.1, 1, 10; every
// unlabelled row's class must agree (the closest pair of decision values
// is 0.0019 apart, far above both solvers' 1e-8 tolerance).
func TestLinSVMLandmarksLinearSVC(t *testing.T) {
	labelled := map[int]bool{}
	for _, r := range []int{0, 7, 19, 30, 44, 58, 59, 70, 88, 101, 115, 129, 130, 141, 150, 160, 170, 177} {
		labelled[r] = true
	}
	ds, err := dataset.Embedded("wine") // dataset/data/wine.csv.gz, the fixture's input
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for j := 0; j < ds.Dim(); j++ {
		fmt.Fprintf(&b, "f%d,", j+1)
	}
	b.WriteString("label\n")
	for i := 0; i < ds.Len(); i++ {
		for _, v := range ds.X.RawRowView(i) {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + ",")
		}
		if labelled[i] {
			b.WriteString(ds.Classes[ds.Y[i]] + "\n")
		} else {
			b.WriteString("?\n")
		}
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "wine_semi.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/linsvm_linearsvc.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[int]string{}
	for _, r := range recs {
		if want[r[0]] == nil {
			want[r[0]] = map[int]string{}
		}
		i, _ := strconv.Atoi(r[1])
		want[r[0]][i] = r[2]
	}
	for _, C := range []string{"0.1", "1", "10"} {
		out := filepath.Join(dir, "p.csv")
		mustArbor(t, "classify", "--data", data, "--kernel", "linear", "--landmarks", "40", "--learner", "linsvm",
			"--C", C, "--tol", "1e-8", "--max-iter", "100000", "--quiet", "--out", out)
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(string(got))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		diff, n := 0, 0
		for _, r := range rows[1:] { // set,row,label,given
			i, _ := strconv.Atoi(r[1])
			if labelled[i] {
				continue
			}
			n++
			if r[2] != want[C][i] {
				diff++
			}
		}
		if n != 160 || diff != 0 {
			t.Errorf("C = %s: %d of %d unlabelled rows differ from LinearSVC", C, diff, n)
		}
	}
	// Without landmarks linsvm has no form: a usage error before any work.
	_, _, err = arbor(t, "classify", "--data", data, "--learner", "linsvm", "--out", filepath.Join(dir, "q.csv"))
	if err == nil || !strings.Contains(err.Error(), "add --landmarks M") {
		t.Errorf("linsvm without --landmarks: %v", err)
	}
	_, _, err = arbor(t, "eval", "--data", data, "--learner", "svm,linsvm")
	if err == nil || !strings.Contains(err.Error(), "add --landmarks M") {
		t.Errorf("eval linsvm without --landmarks: %v", err)
	}
}
