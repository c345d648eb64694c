package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS4VMCommands: eval names the method s4vm_linear in --json; classify
// labels the unlabelled rows of a file and writes them; the learner
// flags' bad values are usage errors.
func TestS4VMCommands(t *testing.T) {
	out := mustArbor(t, "eval", "--data", "iris", "--labeled-per-class", "5", "--repeats", "1", "--learner", "s4vm",
		"--samples", "10", "--scale", "minmax", "--json", "--quiet")
	var rec struct {
		Method   string  `json:"method"`
		Accuracy float64 `json:"accuracy"`
	}
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Method != "s4vm_linear" || !(rec.Accuracy > 0.5) {
		t.Fatalf("eval record %+v", rec)
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	for i := range 40 {
		c := i % 2
		lab := ""
		if i < 6 {
			lab = []string{"a", "b"}[c]
		}
		b.WriteString(strings.Join([]string{ftoa(float64(c)*3 + float64(i%5)*0.1), ftoa(float64(i%7) * 0.1), lab}, ","))
		b.WriteString("\n")
	}
	data := writeFile(t, dir, "d.csv", b.String())
	pred := filepath.Join(dir, "p.csv")
	out = mustArbor(t, "classify", "--data", data, "--learner", "s4vm", "--samples", "20", "--seed", "2", "--out", pred, "--quiet")
	if !strings.Contains(out, "learner  s4vm") || !strings.Contains(out, "a=17 b=17") {
		t.Fatalf("classify output:\n%s", out)
	}
	if _, err := os.Stat(pred); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{"--C1", "0"}, {"--C2", "-1"}, {"--lambda", "0"}, {"--samples", "5"}} {
		args := append([]string{"classify", "--data", data, "--learner", "s4vm", "--quiet"}, bad...)
		if _, _, err := arbor(t, args...); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(bad[0], "--")) {
			t.Errorf("%v: %v", bad, err)
		}
	}
	// One class only among the labelled rows.
	one := writeFile(t, dir, "one.csv", "x1,label\n0,a\n1,a\n2,\n3,\n")
	if _, _, err := arbor(t, "classify", "--data", one, "--learner", "s4vm", "--quiet"); err == nil || !strings.Contains(err.Error(), "two classes") {
		t.Errorf("one class: %v", err)
	}
}

// TestS4VMClassWithoutLabel: an eval split that leaves a class without a
// labelled row is an error naming the class.
func TestS4VMClassWithoutLabel(t *testing.T) {
	dir := t.TempDir()
	splits := writeFile(t, dir, "s.csv", "0,1,2,50,51,52\n") // iris: classes 0 and 1 only
	_, _, err := arbor(t, "eval", "--data", "iris", "--splits", splits, "--learner", "s4vm", "--samples", "10", "--quiet")
	if err == nil || !strings.Contains(err.Error(), "class without a labelled row") {
		t.Fatalf("got %v", err)
	}
}
