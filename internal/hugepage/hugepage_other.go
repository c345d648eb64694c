//go:build !linux

package hugepage

// Float64s returns make([]float64, n): huge-page advice is Linux only.
func Float64s(n int) []float64 { return make([]float64, n) }

// Float32s returns make([]float32, n).
func Float32s(n int) []float32 { return make([]float32, n) }
