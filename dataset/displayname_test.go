package dataset

import "testing"

func TestDisplayName(t *testing.T) {
	for in, want := range map[string]string{
		"/home/me/data/vehicle.csv": "vehicle", "../shared/data/reuters10.svm.gz": "reuters10",
		"iris": "iris", "two_moons": "two_moons", "embedded:usps": "usps", "data/v1.2.csv": "v1.2", "C:notes.txt": "C:notes",
	} {
		if got := DisplayName(in); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", in, got, want)
		}
	}
}
