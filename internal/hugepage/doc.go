// Package hugepage allocates the large dense buffers of O(n²) algorithms
// (a kernel matrix and its in-place rotations, n = 1 500 … 10 000: 18 MB …
// 800 MB) so that the operating system can back them with huge pages.
//
// A fresh buffer is touched page by page on its first pass. With 4 KiB
// pages an 18 MB matrix costs 4 400 page faults, which on a virtual
// machine under load took longer than filling the matrix; a row-strided
// pass (writing one column) also misses the TLB on every row. On Linux,
// Float64s places a buffer of at least MinBytes at a 2 MiB boundary and
// advises the kernel (madvise MADV_HUGEPAGE) to use transparent huge pages
// for it, which they do in the "madvise" and "always" modes of
// /sys/kernel/mm/transparent_hugepage/enabled: one fault per 2 MiB. The
// advice is a hint: if it is refused (mode "never", no THP support) the
// buffer is an ordinary slice. Elsewhere Float64s is make.
//
// The contents are zero, as from make, and the memory belongs to the Go
// heap (the garbage collector frees it).
package hugepage

// MinBytes is the smallest buffer Float64s aligns and advises; smaller
// ones are plain make (a huge page would be mostly waste).
const MinBytes = 4 << 20

// pageBytes is the size of a huge page on amd64 and arm64 Linux.
const pageBytes = 2 << 20
