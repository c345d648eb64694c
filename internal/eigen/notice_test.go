package eigen

import (
	"regexp"
	"testing"
)

// TestNotice: nothing below 1500 points; above, what, N and a duration.
func TestNotice(t *testing.T) {
	if s := Notice("kernel isomap: eigendecomposition", 1499); s != "" {
		t.Errorf("n = 1499: %q", s)
	}
	want := regexp.MustCompile(`^kernel isomap: eigendecomposition: O\(N³\) with N = 2000, about [0-9hms.]+ on this machine\n$`)
	if s := Notice("kernel isomap: eigendecomposition", 2000); !want.MatchString(s) {
		t.Errorf("n = 2000: %q", s)
	}
}
