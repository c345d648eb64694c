package modelselect

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
)

// partition checks that folds hold every labelled row of y once and no
// unlabelled row.
func partition(t *testing.T, f Folds, y []int) {
	t.Helper()
	if err := f.Check(y); err != nil {
		t.Fatal(err)
	}
	var all []int
	for _, rows := range f {
		if !slices.IsSorted(rows) {
			t.Fatalf("fold %v not sorted", rows)
		}
		all = append(all, rows...)
	}
	slices.Sort(all)
	if !slices.Equal(all, labelled(y)) {
		t.Fatalf("folds cover %v, want the labelled rows %v", all, labelled(y))
	}
}

func TestKFoldSizes(t *testing.T) {
	u := learner.Unlabeled
	y := []int{0, u, 1, 0, 1, u, 0, 1, 1, 0, 0}
	f, err := KFold(y, 3, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	partition(t, f, y)
	want := Folds{{0, 2, 3}, {4, 6, 7}, {8, 9, 10}} // 9 labelled rows, 3 each, in order
	for i := range want {
		if !slices.Equal(f[i], want[i]) {
			t.Fatalf("fold %d = %v, want %v", i, f[i], want[i])
		}
	}
	f, _ = KFold(y, 4, false, 0) // 9 = 3 + 2 + 2 + 2
	if n := []int{len(f[0]), len(f[1]), len(f[2]), len(f[3])}; !slices.Equal(n, []int{3, 2, 2, 2}) {
		t.Fatalf("sizes %v, want [3 2 2 2]", n)
	}
	a, _ := KFold(y, 3, true, 7)
	b, _ := KFold(y, 3, true, 7)
	c, _ := KFold(y, 3, true, 8)
	partition(t, a, y)
	partition(t, c, y)
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Fatal("the same seed gave other folds")
	}
	if slices.EqualFunc(a, c, slices.Equal) && slices.EqualFunc(a, f, slices.Equal) {
		t.Fatal("shuffling changed nothing")
	}
}

// TestStratifiedShuffleKeepsCounts: shuffling moves rows between folds
// but each fold keeps its count of every class (the allocation).
func TestStratifiedShuffleKeepsCounts(t *testing.T) {
	ds, err := dataset.Embedded("wine")
	if err != nil {
		t.Fatal(err)
	}
	counts := func(f Folds) [][]int {
		out := make([][]int, len(f))
		for i, rows := range f {
			out[i] = make([]int, len(ds.Classes))
			for _, r := range rows {
				out[i][ds.Y[r]]++
			}
		}
		return out
	}
	plain, err := StratifiedKFold(ds.Y, 4, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	shuf, err := StratifiedKFold(ds.Y, 4, true, 3)
	if err != nil {
		t.Fatal(err)
	}
	partition(t, plain, ds.Y)
	partition(t, shuf, ds.Y)
	if !slices.EqualFunc(counts(plain), counts(shuf), slices.Equal) {
		t.Fatalf("class counts per fold %v, shuffled %v", counts(plain), counts(shuf))
	}
	if slices.EqualFunc(plain, shuf, slices.Equal) {
		t.Fatal("shuffling changed nothing")
	}
	for _, c := range counts(plain) { // 59, 71, 48 rows over 4 folds
		for k, m := range c {
			if m < 11 || m > 18 {
				t.Fatalf("class %d: %d rows in a fold", k, m)
			}
		}
	}
}

func TestFoldErrors(t *testing.T) {
	u := learner.Unlabeled
	y := []int{0, 1, 0, 1, u, 0}
	for _, c := range []struct {
		text, want string
	}{
		{"0,1\n", "1 folds, want at least 2"},
		{"0,1\n1,2\n", "row 1 is in folds 1 and 2"},
		{"0,1\n4,2\n", "fold 2: row 4 is unlabelled"},
		{"0,1,2,3,5\n4\n", "holds all 5 labelled rows"},
	} {
		_, err := ReadFolds(strings.NewReader(c.text), "f.txt", y)
		if !errors.Is(err, ErrFolds) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "f.txt: ") {
			t.Errorf("%q: error %v, want ErrFolds with %q", c.text, err, c.want)
		}
	}
	_, err := ReadFolds(strings.NewReader("0,1\n2,x\n"), "f.txt", y)
	var pe *dataset.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("bad number: %v, want a ParseError on line 2", err)
	}
	if _, err := KFold(y, 6, false, 0); !errors.Is(err, ErrFolds) {
		t.Errorf("6 folds of 5 rows: %v", err)
	}
	if _, err := StratifiedKFold(y, 4, false, 0); !errors.Is(err, ErrFolds) {
		t.Errorf("4 stratified folds of classes of 3 and 2 rows: %v", err)
	}
}

func TestFoldsWriteRead(t *testing.T) {
	ds, _ := dataset.Embedded("iris")
	f, _, err := FoldChoice{K: 5, Shuffle: true, Seed: 1}.Folds(ds.Y)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	g, err := ReadFolds(strings.NewReader(b.String()), "x", ds.Y)
	if err != nil || !slices.EqualFunc(f, g, slices.Equal) {
		t.Fatalf("read back %v (%v), wrote %v", g, err, f)
	}
}

func TestRankMin(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	got := rankMin([]float64{0.5, 0.9, nan, 0.9, 0.1})
	if want := []int{3, 1, 5, 1, 4}; !slices.Equal(got, want) {
		t.Fatalf("ranks %v, want %v", got, want)
	}
}

func TestSmallClasses(t *testing.T) {
	u := learner.Unlabeled
	if got := SmallClasses([]int{2, 0, 0, 1, 2, u, u, 0}, 3); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("%v, want [1 2]", got)
	}
}
