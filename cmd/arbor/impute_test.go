package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// TestImpute: --impute fills missing cells with the column statistic of
// the training file before scaling (the same labels as classify on a file
// where those cells were filled by hand with that statistic), a model
// saved with it fills new rows the same way in arbor predict (= classify
// --test in the fitting process), and the errors name what to do.
func TestImpute(t *testing.T) {
	dir := t.TempDir()
	iris, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	// Every 7th row loses feature (i mod 4); the labelled rows are every
	// 5th row.
	var holes, filled strings.Builder
	sum, cnt := make([]float64, 4), make([]int, 4)
	for i := 0; i < iris.Len(); i++ {
		for j, v := range iris.X.RawRowView(i) {
			if !(i%7 == 0 && j == i%4) {
				sum[j] += v
				cnt[j]++
			}
		}
	}
	for _, b := range []*strings.Builder{&holes, &filled} {
		b.WriteString("name;a;b;c;d;species\n")
	}
	for i := 0; i < iris.Len(); i++ {
		lab := ""
		if i%5 == 0 {
			lab = iris.Classes[iris.Y[i]]
		}
		fmt.Fprintf(&holes, "r%d", i)
		fmt.Fprintf(&filled, "r%d", i)
		for j, v := range iris.X.RawRowView(i) {
			if i%7 == 0 && j == i%4 {
				holes.WriteString(";NA")
				fmt.Fprintf(&filled, ";%s", fmt.Sprint(sum[j]/float64(cnt[j])))
				continue
			}
			fmt.Fprintf(&holes, ";%g", v)
			fmt.Fprintf(&filled, ";%g", v)
		}
		fmt.Fprintf(&holes, ";%s\n", lab)
		fmt.Fprintf(&filled, ";%s\n", lab)
	}
	holesCSV, filledCSV := filepath.Join(dir, "holes.csv"), filepath.Join(dir, "filled.csv")
	os.WriteFile(holesCSV, []byte(holes.String()), 0o644)
	os.WriteFile(filledCSV, []byte(filled.String()), 0o644)
	newCSV := filepath.Join(dir, "new.csv")
	os.WriteFile(newCSV, []byte("name;a;b;c;d\nn0;5.1;NA;1.4;0.2\nn1;NA;2.8;5.1;1.9\nn2;6;3;NA;NA\n"), 0o644)

	for _, learn := range [][]string{{"--learner", "svm", "--kernel", "rbf:0.5"}, {"--learner", "knn"}, {"--learner", "svm", "--kernel", "hck:average"}, {"--learner", "svm", "--kernel", "rbf:0.5", "--landmarks", "40"}} {
		base := []string{"classify", "--label", "species", "--id", "name", "--scale", "std", "--quiet", "--out", "-"}
		got := mustArbor(t, append(append(base, "--data", holesCSV, "--impute", "mean"), learn...)...)
		want := mustArbor(t, append(append(base, "--data", filledCSV), learn...)...)
		if got != want {
			t.Fatalf("%v: --impute mean differs from the file filled with the column means", learn)
		}
		model := filepath.Join(dir, "m.arbor")
		out := mustArbor(t, append(append(base, "--data", holesCSV, "--impute", "mean", "--test", newCSV, "--save-model", model), learn...)...)
		var wantNew []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if f := strings.Split(line, ","); f[0] == "test" {
				wantNew = append(wantNew, f[2]+","+f[3])
			}
		}
		pred := mustArbor(t, "predict", "--model", model, "--data", newCSV, "--id", "name", "--quiet")
		lines := strings.Split(strings.TrimSpace(pred), "\n")[1:]
		if len(lines) != 3 || len(wantNew) != 3 {
			t.Fatalf("%v: predict %q, classify --test %q", learn, lines, wantNew)
		}
		for i, l := range lines {
			if l != fmt.Sprintf("%d,%s", i, wantNew[i]) {
				t.Fatalf("%v: predict row %d %q, classify --test %q", learn, i, l, wantNew[i])
			}
		}
	}
	// Errors.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"classify", "--data", holesCSV, "--label", "species", "--id", "name"}, "--impute mean"},
		{[]string{"classify", "--data", holesCSV, "--label", "species", "--id", "name", "--impute", "avg"}, "unknown imputation strategy"},
		{[]string{"predict", "--model", filepath.Join(dir, "m.arbor"), "--data", newCSV, "--impute", "mean"}, "predict fills missing values as the model was fitted"},
	} {
		_, stderr, err := arbor(t, c.args...)
		if err == nil || !strings.Contains(err.Error()+stderr, c.want) {
			t.Errorf("%v: err %v, want %q", c.args, err, c.want)
		}
	}
}
