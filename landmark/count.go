package landmark

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseCount reads a number of landmark rows M as a command line gives it
// (--landmarks M): a whole number ≥ 1, or 0 for the exact method without
// landmarks.
func ParseCount(s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("%d: want a number of landmark rows ≥ 1, or 0 for the exact method", v)
	}
	return v, nil
}
