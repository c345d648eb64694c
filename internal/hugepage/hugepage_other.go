//go:build !linux

package hugepage

// Float64s returns make([]float64, n): huge-page advice is Linux only.
func Float64s(n int) []float64 { return make([]float64, n) }
