package kernel

// Kernel is a positive semi-definite similarity of two points.
// Implementations may offer faster paths, discovered by type assertion
// (for example Gram computation over a whole matrix).
type Kernel interface {
	Eval(x, y []float64) float64
}
