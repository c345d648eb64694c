package landmark

import "testing"

// TestParseCount: whole numbers ≥ 0 (blanks around allowed); a negative
// count or text is an error that says what is wanted.
func TestParseCount(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "200": 200, " 7 ": 7} {
		if got, err := ParseCount(s); got != want || err != nil {
			t.Errorf("ParseCount(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for s, want := range map[string]string{"-1": "-1: want a number of landmark rows ≥ 1, or 0 for the exact method", "1.5": `"1.5" is not a whole number`, "": `"" is not a whole number`} {
		if _, err := ParseCount(s); err == nil || err.Error() != want {
			t.Errorf("ParseCount(%q): %v, want %q", s, err, want)
		}
	}
}
