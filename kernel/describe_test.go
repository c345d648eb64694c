package kernel

import "testing"

// TestDescribe: the spec, then what the build found, in order.
func TestDescribe(t *testing.T) {
	rbf, _ := ParseSpec("rbf:scale")
	iso, _ := ParseSpec("isomap")
	for _, c := range []struct {
		b    Built
		want string
	}{
		{Built{Spec: rbf, Gamma: 0.25}, "rbf:scale (gamma 0.25)"},
		{Built{Spec: iso, Info: Info{Joins: 2, NegEigs: 3}}, iso.String() + " (2 component joins) (3 negative eigenvalues clipped)"},
		{Built{Spec: iso}, iso.String()},
	} {
		if got := c.b.Describe(); got != c.want {
			t.Errorf("Describe = %q, want %q", got, c.want)
		}
	}
}
