package hugepage

import (
	"syscall"
	"unsafe"
)

// Float64s returns a zeroed slice of n float64 values; one of at least
// MinBytes starts at a 2 MiB boundary and is advised MADV_HUGEPAGE.
func Float64s(n int) []float64 {
	if n*8 < MinBytes {
		return make([]float64, n)
	}
	// over-allocate by one huge page: the slice starts at the first
	// boundary (the unused head and tail are never touched, so they cost
	// address space only)
	raw := make([]float64, n+pageBytes/8)
	p := uintptr(unsafe.Pointer(&raw[0]))
	off := int((pageBytes - p%pageBytes) % pageBytes / 8)
	buf := raw[off : off+n : off+n]
	b := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), n*8)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // a hint: ignore refusal
	return buf
}

// Float32s is Float64s for float32 values (the same size rule in bytes).
func Float32s(n int) []float32 {
	if n*4 < MinBytes {
		return make([]float32, n)
	}
	raw := make([]float32, n+pageBytes/4)
	p := uintptr(unsafe.Pointer(&raw[0]))
	off := int((pageBytes - p%pageBytes) % pageBytes / 4)
	buf := raw[off : off+n : off+n]
	b := unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), n*4)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // a hint: ignore refusal
	return buf
}
