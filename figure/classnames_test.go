package figure

import (
	"slices"
	"testing"
)

// TestClassNames: numbers become "class N", names stay.
func TestClassNames(t *testing.T) {
	if got := ClassNames([]string{"0", "-1.5", "setosa", "1e3x"}); !slices.Equal(got, []string{"class 0", "class -1.5", "setosa", "1e3x"}) {
		t.Errorf("ClassNames = %q", got)
	}
}
