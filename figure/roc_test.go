package figure

import (
	"bytes"
	"testing"
)

// TestROC: the curve is Line with the chance diagonal: the same SVG.
func TestROC(t *testing.T) {
	fpr, tpr := []float64{0, 0.2, 1}, []float64{0, 0.7, 1}
	got, err := ROC(fpr, tpr, "c", "t")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Line([]Series{{Name: "c", X: fpr, Y: tpr}, {Name: "chance", X: []float64{0, 1}, Y: []float64{0, 1}}},
		LineOptions{Title: "t", XLabel: "false positive rate", YLabel: "true positive rate"})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := got.WriteTo(&a, ".svg"); err != nil {
		t.Fatal(err)
	}
	if err := want.WriteTo(&b, ".svg"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || a.Len() == 0 {
		t.Errorf("ROC's SVG (%d bytes) differs from Line's (%d bytes)", a.Len(), b.Len())
	}
	if _, err := ROC(nil, nil, "c", "t"); err == nil {
		t.Error("an empty curve: no error")
	}
}
