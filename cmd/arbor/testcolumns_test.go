package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClassifyTestColumnsByName: classify --test reads a test file with a
// header by the training features' names, as arbor predict does: columns
// in another order, an extra numeric column and a text column (neither a
// training feature) give the same labels as the clean file; before, the
// extra column was a feature-count error and the text column could not be
// skipped (--ignore names the training file's columns).
func TestClassifyTestColumnsByName(t *testing.T) {
	dir := t.TempDir()
	var train, clean, messy strings.Builder
	train.WriteString("uid,a,b,c,target\n")
	clean.WriteString("uid,a,b,c\n")
	messy.WriteString("extra,c,uid,note,a,b\n")
	for i := 0; i < 60; i++ {
		c := i % 2
		a, b, cc := float64(c*3)+float64(i%7)*0.2, float64(i%5)*0.3, float64(c)-float64(i%3)*0.1
		lab := "?"
		if i < 10 {
			lab = []string{"no", "yes"}[c]
		}
		fmt.Fprintf(&train, "u%d,%g,%g,%g,%s\n", i, a, b, cc, lab)
	}
	for i := 0; i < 25; i++ {
		a, b, cc := float64(i%6)*0.6, float64(i%4)*0.4, float64(i%2)*0.7
		fmt.Fprintf(&clean, "n%d,%g,%g,%g\n", i, a, b, cc)
		fmt.Fprintf(&messy, "%d,%g,n%d,\"text, with a comma %d\",%g,%g\n", i*7, cc, i, i, a, b)
	}
	paths := map[string]string{}
	for name, b := range map[string]*strings.Builder{"train": &train, "clean": &clean, "messy": &messy} {
		paths[name] = filepath.Join(dir, name+".csv")
		if err := os.WriteFile(paths[name], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, kern := range []string{"rbf", "hck:average"} {
		out := map[string]string{}
		for _, test := range []string{"clean", "messy"} {
			p := filepath.Join(dir, "p_"+test+".csv")
			mustArbor(t, "classify", "--data", paths["train"], "--id", "uid", "--kernel", kern, "--learner", "svm",
				"--test", paths[test], "--quiet", "--out", p)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[test] = string(b)
		}
		if out["clean"] != out["messy"] || !strings.Contains(out["clean"], "test,") {
			t.Errorf("%s: predictions for the messy test file differ from the clean one:\n%s\n%s", kern, out["clean"], out["messy"])
		}
	}
}
