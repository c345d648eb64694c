//go:build !amd64 || purego

package cpu

func detect() set { return set{} }

// detects says that this build reads the features from the processor.
const detects = false
