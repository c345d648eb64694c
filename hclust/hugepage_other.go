//go:build !linux

package hclust

// adviseHuge is a no-op outside Linux.
func adviseHuge([]float64) {}
