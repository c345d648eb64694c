package ssl

import (
	"errors"
	"testing"
)

func TestSplitClasses(t *testing.T) {
	y := []int{0, 1, 0, 2, 0, 1}
	if err := SplitClasses([]int{0, 1}, y, nil); err != nil {
		t.Errorf("two classes: %v", err)
	}
	for _, tc := range []struct {
		l     []int
		names []string
		want  string
	}{
		{[]int{0, 2}, nil, "ssl: bad split: its 2 labelled rows are all of class 0 and none of class 1 (2 rows), 2 (1 row): a learner needs labelled rows of two classes"},
		{[]int{3}, []string{"setosa", "versicolor", "virginica"}, `ssl: bad split: its labelled row is of class "virginica" and none of class "setosa" (3 rows), "versicolor" (2 rows): a learner needs labelled rows of two classes`},
	} {
		err := SplitClasses(tc.l, y, tc.names)
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrSplit) {
			t.Errorf("%v: %v\nwant %s", tc.l, err, tc.want)
		}
	}
}
