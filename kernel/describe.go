package kernel

import "fmt"

// Describe names the kernel built: its spec, then in parentheses the γ
// that rbf:scale chose, the component joins of a graph kernel and the
// negative eigenvalues clipped (ISOMAP), each when there is one, as in
// "rbf:scale (gamma 0.25)".
func (b Built) Describe() string {
	s := b.Spec.String()
	if b.Gamma > 0 {
		s += fmt.Sprintf(" (gamma %.6g)", b.Gamma)
	}
	if b.Info.Joins > 0 {
		s += fmt.Sprintf(" (%d component joins)", b.Info.Joins)
	}
	if b.Info.NegEigs > 0 {
		s += fmt.Sprintf(" (%d negative eigenvalues clipped)", b.Info.NegEigs)
	}
	return s
}
