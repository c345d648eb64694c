package parallel

// BlockRows is the number of rows of a block of a sum over the rows of a
// data set (the scaler's column sums, the anchor graph's ZᵀZ, …). Such a
// sum is summed block by block, each block's partial sum in row order
// from zero, and the partial sums are added in block order. Block b holds
// rows [b·BlockRows, (b+1)·BlockRows). The constant depends neither on
// GOMAXPROCS nor on how the rows are spread over processes, so one
// process and a cluster that sums blocks on different machines and adds
// the partial sums in block order give bit-identical results. With at most
// BlockRows rows there is one block: the sum is the plain sum in row order.
const BlockRows = 1 << 16

// Blocks returns the number of blocks of n rows, ⌈n / BlockRows⌉.
func Blocks(n int) int { return (n + BlockRows - 1) / BlockRows }

// Block returns the rows [lo, hi) of block b of n rows.
func Block(b, n int) (lo, hi int) { return b * BlockRows, min((b+1)*BlockRows, n) }
