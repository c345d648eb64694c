package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestReadLIBSVMMultiLabel(t *testing.T) {
	in := "0,4 1:1 3:0.5\n 2:1\n? 1:2\n4 3:1\n10,2,4 2:0.25 # comment\n"
	d, err := ReadLIBSVM(strings.NewReader(in), "m.svm")
	if err != nil {
		t.Fatal(err)
	}
	if !d.MultiLabel() {
		t.Fatal("not read as multi-label")
	}
	if fmt.Sprint(d.Classes) != "[0 2 4 10]" {
		t.Errorf("classes %v", d.Classes)
	}
	// Sets are indices into Classes, increasing; Y the smallest.
	if got := fmt.Sprint(d.Sets); got != "[[0 2] [] [] [2] [1 2 3]]" {
		t.Errorf("sets %v", got)
	}
	if d.Sets[1] != nil || d.Sets[2] != nil {
		t.Errorf("rows without labels have sets %v, %v", d.Sets[1], d.Sets[2])
	}
	if !slices.Equal(d.Y, []int{0, Unlabeled, Unlabeled, 2, 1}) {
		t.Errorf("Y %v", d.Y)
	}
	if d.X.At(1, 1) != 1 || d.X.At(4, 1) != 0.25 || d.X.At(0, 2) != 0.5 {
		t.Errorf("X %v", d.X)
	}
	// Copies keep the sets; WithLabeled hides them.
	c := d.Clone()
	c.Sets[0][0] = 9
	if d.Sets[0][0] != 0 {
		t.Error("Clone shares the sets")
	}
	w := d.WithLabeled([]int{4})
	if w.Sets[0] != nil || fmt.Sprint(w.Sets[4]) != "[1 2 3]" || w.Y[0] != Unlabeled {
		t.Errorf("WithLabeled: %v %v", w.Sets, w.Y)
	}
	s := d.Subset([]int{4, 0})
	if fmt.Sprint(s.Sets) != "[[1 2 3] [0 2]]" {
		t.Errorf("Subset: %v", s.Sets)
	}
	// Single-label files stay single-label.
	one, err := ReadLIBSVM(strings.NewReader("1 1:1\n2 2:1\n"), "s.svm")
	if err != nil || one.MultiLabel() {
		t.Errorf("single-label: %v, multi %v", err, one.MultiLabel())
	}
	for in, want := range map[string]error{
		"0,0 1:1\n1 1:2\n":  ErrDuplicateLabel,
		"0,x 1:1\n1 1:2\n":  ErrNotNumber,
		"1 1:1\n 2:1\n":     ErrNotNumber, // a missing label only in multi-label files
		"0,1 1:1\n1 1:2\n,": ErrNotNumber,
	} {
		_, err := ReadLIBSVM(strings.NewReader(in), "bad.svm")
		var pe *ParseError
		if !errors.Is(err, want) || !errors.As(err, &pe) || pe.Line < 1 {
			t.Errorf("%q: err = %v, want %v with a line", in, err, want)
		}
	}
}

// TestReuters10: the embedded copy of shared/data/reuters10.svm has the
// shape the data README states: 855 documents, 500 terms, 10 categories,
// 34 documents in 2 or more, unit rows; the split labels the first 626.
func TestReuters10(t *testing.T) {
	d, err := Embedded("reuters10")
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 855 || d.Dim() != 500 || len(d.Classes) != 10 || !d.MultiLabel() {
		t.Fatalf("%d×%d, %d classes, multi %v", d.Len(), d.Dim(), len(d.Classes), d.MultiLabel())
	}
	multi := 0
	per := make([]int, 10)
	for _, s := range d.Sets {
		if len(s) > 1 {
			multi++
		}
		for _, c := range s {
			per[c]++
		}
	}
	if multi != 34 || fmt.Sprint(per) != "[58 51 105 68 73 139 65 59 97 175]" {
		t.Errorf("%d multi-label documents, per category %v", multi, per)
	}
	splits, err := EmbeddedSplits("reuters10", 626)
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 1 || len(splits[0]) != 626 || splits[0][0] != 0 || splits[0][625] != 625 {
		t.Errorf("splits: %d lines", len(splits))
	}
}
