// Package gemm is the dense matrix product C = α·op(A)·op(B) + β·C on
// row-major float64 matrices, organised as in GotoBLAS, OpenBLAS and BLIS
// (Goto & van de Geijn, "Anatomy of high-performance matrix
// multiplication", ACM TOMS 34(3), 2008; Van Zee & van de Geijn, "BLIS",
// ACM TOMS 41(3), 2015):
//
//	for each block of kc = 256 values of the inner index p (in order):
//	    pack op(B)[p-block, all columns] into panels of nr columns
//	    for each block of mc rows of op(A) and chunk of columns (in parallel):
//	        pack op(A)[rows, p-block] into panels of mr rows
//	        for each nr-panel, for each mr-panel: the micro-kernel
//
// The micro-kernel keeps an mr×nr tile of C in registers and adds kc
// rank-1 updates of a packed column of A and a packed row of B. On amd64 it
// is written in assembly: 6×8 with AVX2 and FMA (twelve 4-wide
// accumulators), or 12×16 with AVX-512 (twenty-four 8-wide accumulators),
// chosen at run time from CPUID and XGETBV (the operating system must save
// the wide registers). Elsewhere, and with the purego build tag, the same
// tile is computed by a Go loop.
//
// # Arithmetic
//
// Every entry of C is computed the same way whatever the kernel, the tile
// it falls in or the number of goroutines: for each kc-block of p in
// increasing order, s = fma(a_ip, b_pj, s) from s = 0 over the block's p in
// increasing order, then c_ij = fma(α, s, c_ij) (after c_ij = β·c_ij once;
// with β = 0, c_ij is taken as 0 and not read, so a NaN there is not
// propagated). Go's
// math.FMA is exact on every platform, so the assembly kernels and the Go
// loop give bit-identical results (tested), and so does any GOMAXPROCS:
// each tile of C is written by one goroutine per kc-block and the blocks
// are taken in order. The error bound is the usual one for a dot product,
// |ĉ − c| ≤ γ_k·|α|·|A|·|B| + u·|c| (Higham, Accuracy and Stability of
// Numerical Algorithms, §3.1), with γ_k = k·u/(1 − k·u).
//
// # Work
//
// 2·m·n·k flops; Upper computes only the entries on and above the
// diagonal of a square C (the SYRK/SYR2K shape: A·Aᵀ, V·Wᵀ + W·Vᵀ written
// as one product of stacked blocks), about half as many. The packed copies
// take kc·min(n, 4096) + workers·mc·kc floats (pooled between calls).
// Products with fewer than 2¹⁵ flops run on the calling goroutine.
//
// # Symmetric matrix–vector products
//
// SymvPanel is the inner loop of a symmetric matrix–vector product read from
// the upper triangle (internal/eigen's tridiagonalisation, internal/lanczos):
// one pass over four stored rows gives their dot products with x and adds
// their combination to y, so each row, used as a row and as a column, is
// read from memory once. It performs the operations of gonum's Ddot and
// Daxpy row after row, to the bit (tested); with AVX2 its vector pass is an
// assembly loop over four columns at a time.
package gemm
