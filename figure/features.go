package figure

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseFeatures reads the two features "A,B" a picture draws (Project's
// features), each a name in names or a 1-based position 1..d; "" is none
// (nil). data names the data set in errors, which name the text as the
// flag --plot-features.
func ParseFeatures(text string, names []string, d int, data string) ([]int, error) {
	if text == "" {
		return nil, nil
	}
	parts := strings.Split(text, ",")
	if len(parts) != 2 {
		return nil, fmt.Errorf("--plot-features %q: give two features, A,B", text)
	}
	var feats []int
	for _, s := range parts {
		s = strings.TrimSpace(s)
		j := -1
		for k, name := range names {
			if name == s {
				j = k
			}
		}
		if v, err := strconv.Atoi(s); j < 0 && err == nil && v >= 1 && v <= d {
			j = v - 1
		}
		if j < 0 {
			return nil, fmt.Errorf("--plot-features: %q is neither a feature name of %s nor a position 1..%d", s, data, d)
		}
		feats = append(feats, j)
	}
	return feats, nil
}
