package ssl

import (
	"bytes"
	"testing"
)

// TestWriteTable: columns as wide as their longest entry, a mark on a
// method with unreached rows and the note of the policy.
func TestWriteTable(t *testing.T) {
	sum := []Summary{
		{Learner: "svm", Kernel: "hck:average", Mean: 91.234, Std: 1.5, FitS: 0.01234},
		{Learner: "lp", Kernel: "", Mean: 50, Std: 0, FitS: 2, Unreached: 3},
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, sum, "first"); err != nil {
		t.Fatal(err)
	}
	want := "learner  kernel       accuracy   ± std  fit s\n" +
		"svm      hck:average     91.23    1.50  0.012\n" +
		"lp                       50.00    0.00  2.000  * 3 unreached\n" +
		"\n* rows no labelled point reaches on the affinity graph (summed over the splits): given the first class as scikit-learn does (--unreachable first): their labels are forced, not learnt; a wider affinity (knn:K with a larger K) reaches them\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	WriteTable(&buf, sum[:1], "first")
	if want := "learner  kernel       accuracy   ± std  fit s\nsvm      hck:average     91.23    1.50  0.012\n"; buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestWriteBEPTable: the best method by the mean of micro and macro
// breakeven, named when there are several.
func TestWriteBEPTable(t *testing.T) {
	sum := []BEPSummary{
		{Learner: "knn", Kernel: "linear", Micro: 80, Macro: 70},
		{Learner: "lp", Kernel: "rbf:0.5", Micro: 74, Macro: 77},
	}
	var buf bytes.Buffer
	if err := WriteBEPTable(&buf, sum); err != nil {
		t.Fatal(err)
	}
	want := "learner  kernel   micro BEP  macro BEP\n" +
		"knn      linear       80.00      70.00\n" +
		"lp       rbf:0.5      74.00      77.00\n" +
		"\nbest (mean of micro and macro): lp on rbf:0.5\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestReportJSON: one object per result, the report's names first, then
// the method (peers' name) or the metric, then the result's fields.
func TestReportJSON(t *testing.T) {
	r := Report{Dataset: "iris", Protocol: "splits s.txt", Scale: "std"}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf, []Result{{Kernel: "linear", Learner: "svm", Split: 1, Labeled: 6, Correct: 3, Total: 4, Accuracy: 0.75}}); err != nil {
		t.Fatal(err)
	}
	want := `{"dataset":"iris","protocol":"splits s.txt","scale":"std","method":"` + PeerMethod("svm", "linear") +
		`","kernel":"linear","learner":"svm","split":1,"n_labeled":6,"correct":3,"total":4,"accuracy":0.75,"fit_s":0,"kernel_s":0}` + "\n"
	if buf.String() != want {
		t.Errorf("got  %s\nwant %s", buf.String(), want)
	}
	buf.Reset()
	if err := r.WriteBEPJSON(&buf, []BEPResult{{Kernel: "-", Learner: "lp", Total: 9, MicroBEP: 0.5, MacroBEP: 0.25, PerClass: []float64{1}}}); err != nil {
		t.Fatal(err)
	}
	want = `{"dataset":"iris","protocol":"splits s.txt","scale":"std","metric":"bep","kernel":"-","learner":"lp","split":0,"n_labeled":0,"total":9,"micro_bep":0.5,"macro_bep":0.25,"fit_s":0,"kernel_s":0}` + "\n"
	if buf.String() != want {
		t.Errorf("got  %s\nwant %s", buf.String(), want)
	}
}
