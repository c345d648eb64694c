package figure

import (
	"slices"
	"testing"
)

// TestParseFeatures: names (the last of equal names) and 1-based
// positions; a name wins over a position; mistakes name the flag.
func TestParseFeatures(t *testing.T) {
	names := []string{"x", "y", "2", "x"}
	for _, c := range []struct {
		text string
		want []int
	}{
		{"", nil}, {"x,y", []int{3, 1}}, {" 1 , 4", []int{0, 3}}, {"2,y", []int{2, 1}},
	} {
		got, err := ParseFeatures(c.text, names, 4, "d")
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseFeatures(%q) = %v, %v, want %v", c.text, got, err, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"x", `--plot-features "x": give two features, A,B`},
		{"x,5", `--plot-features: "5" is neither a feature name of d nor a position 1..4`},
	} {
		if _, err := ParseFeatures(c.text, names, 4, "d"); err == nil || err.Error() != c.want {
			t.Errorf("ParseFeatures(%q): %v, want %q", c.text, err, c.want)
		}
	}
}
