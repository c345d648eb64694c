//go:build !amd64 || purego

package gemm

// kernels returns the portable micro-kernel only.
func kernels() []microKernel { return []microKernel{goKernel(6, 8)} }
