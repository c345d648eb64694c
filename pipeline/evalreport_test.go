package pipeline_test

import (
	"bytes"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/ssl"
)

// TestWriteEvalTable: the data and protocol lines above the tables of
// ssl.WriteTable and ssl.WriteBEPTable, on the summaries of the results.
func TestWriteEvalTable(t *testing.T) {
	ds := &dataset.Dataset{Name: "/data/d.csv", X: mat.NewDense(4, 3, nil), Y: []int{0, 1, 0, 1}, Classes: []string{"a", "b"}}
	r := ssl.Report{Dataset: ds.Name, Protocol: "2 labelled per class", Scale: "std"}
	res := []ssl.Result{
		{Kernel: "rbf:1", Learner: "svm", Split: 0, Correct: 1, Total: 2, Accuracy: 0.5},
		{Kernel: "rbf:1", Learner: "svm", Split: 1, Correct: 2, Total: 2, Accuracy: 1},
	}
	var got, table bytes.Buffer
	if err := pipeline.WriteEvalTable(&got, ds, r, 2, res, "unlabeled"); err != nil {
		t.Fatal(err)
	}
	if err := ssl.WriteTable(&table, ssl.Summarize(res), "unlabeled"); err != nil {
		t.Fatal(err)
	}
	want := "data: /data/d.csv (4 rows, 3 features, 2 classes), scale std\n" +
		"protocol: 2 labelled per class (2 splits); accuracy (%) on the unlabelled rows\n\n" + table.String()
	if got.String() != want {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}

	bep := []ssl.BEPResult{{Kernel: "-", Learner: "knn", Split: 0, MicroBEP: 80, MacroBEP: 70}}
	got.Reset()
	table.Reset()
	if err := pipeline.WriteEvalBEPTable(&got, ds, r, 1, bep); err != nil {
		t.Fatal(err)
	}
	if err := ssl.WriteBEPTable(&table, ssl.SummarizeBEP(bep)); err != nil {
		t.Fatal(err)
	}
	want = "data: d (4 rows, 3 features, 2 classes, single-label), scale std\n" +
		"protocol: 2 labelled per class (1 splits); precision–recall breakeven (%) on the hidden rows,\n" +
		"micro (all row–class pairs pooled) and macro (mean over classes); lp scores z-scored per class\n\n" + table.String()
	if got.String() != want {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}
}
