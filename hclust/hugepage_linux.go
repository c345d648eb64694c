package hclust

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks Linux to back the 2 MiB-aligned interior of s with
// transparent huge pages (madvise MADV_HUGEPAGE; a no-op where THP is
// disabled). It must run before s is first written. The working matrices
// are large (8n² bytes) and read along columns: with 4 KiB pages every
// column step is a TLB miss and the first touch costs one page fault per
// 4 KiB. The advice is a hint; errors are ignored.
func adviseHuge(s []float64) {
	const huge = 2 << 20
	if len(s)*8 < 4*huge {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*8)
	off := (huge - int(uintptr(unsafe.Pointer(&b[0]))%huge)) % huge
	end := off + (len(b)-off)/huge*huge
	_ = syscall.Madvise(b[off:end], 14) // MADV_HUGEPAGE
}
