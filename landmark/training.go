package landmark

import (
	"context"
	"fmt"
	"slices"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// BlockRows is the alignment of Training.Block: a block that starts at a
// multiple of it has, bit for bit, the rows of the dense features
// Settings.Fit returns.
const BlockRows = 4096

// Training gives the features of the N rows a map was fitted on without
// holding the N×r matrix Z: a block of rows at a time (Block) or chosen
// rows (Rows), each bit for bit the rows of Settings.Fit's Z (which is
// these blocks put together). Its memory is, by the map:
//
//   - point kernels and the cluster kernels on the tree of the landmarks:
//     the N×d rows of X (not copied); a row's features are the map's
//     features of the row (Map.Features);
//   - the cluster kernels on the tree of all rows (single, complete,
//     average, weighted and Ward up to their row limits, hckg whose tree
//     of all rows is built): a landmark and a height per row, 12·N bytes.
//     Row i of that tree hangs under the landmarks through a, its lowest
//     ancestor over some landmark l: its ultrametric against landmark j
//     is h_a for j under a and M(l, j) (the same lowest common ancestor)
//     otherwise, that is max(h_a, M(l, j)) — the graft of kernel.TreeFeatures
//     onto l at height h_a, O(depth + r) per row instead of O(M·r);
//   - hckg on the landmarks' tree, landmark ISOMAP and the multi-type
//     kernel: the N×r features themselves (their rows come from the
//     geodesics from the landmarks, which the map already holds as N×M).
//
// Safe for concurrent use.
type Training struct {
	n, r int
	// feature map of the rows of x (row-separable except for the blocks
	// of BlockRows that Nystrom.Features computes its kernel rows in)
	ny *Nystrom
	x  mat.Matrix
	// graft of each row onto the landmark tree
	graft  *kernel.TreeFeatures
	anchor []int32
	height []float64
	// the dense features
	z *mat.Dense
}

// Len returns N, the number of training rows.
func (t *Training) Len() int { return t.n }

// Rank returns r, the number of features of a row.
func (t *Training) Rank() int { return t.r }

// Dense reports whether t holds the N×r features (Memory).
func (t *Training) Dense() bool { return t.z != nil }

// Block sets dst (hi−lo × r; nil allocates) to the features of the rows
// lo..hi−1 and returns it. lo must be a multiple of BlockRows. Errors:
// kernel.ErrShape (bad range or dst), the map's errors, ctx.Err().
func (t *Training) Block(ctx context.Context, dst *mat.Dense, lo, hi int) (*mat.Dense, error) {
	if lo < 0 || hi > t.n || lo >= hi || lo%BlockRows != 0 {
		return nil, fmt.Errorf("%w: training block %d..%d of %d rows (want 0 ≤ lo < hi ≤ N, lo a multiple of %d)", kernel.ErrShape, lo, hi, t.n, BlockRows)
	}
	if dst == nil {
		dst = mat.NewDense(hi-lo, t.r, nil)
	} else if r, c := dst.Dims(); r != hi-lo || c != t.r {
		return nil, fmt.Errorf("%w: training block dst is %d×%d, want %d×%d", kernel.ErrShape, r, c, hi-lo, t.r)
	}
	switch {
	case t.z != nil:
		dst.Copy(t.z.Slice(lo, hi, 0, t.r))
		return dst, nil
	case t.graft != nil:
		return dst, parallel.Chunks(ctx, hi-lo, 256, func(a, b int) {
			for i := lo + a; i < lo+b; i++ {
				t.graft.Graft(dst.RawRowView(i-lo), int(t.anchor[i]), t.height[i])
			}
		})
	}
	_, d := t.x.Dims()
	var sub mat.Matrix
	if xd, ok := t.x.(*mat.Dense); ok {
		sub = xd.Slice(lo, hi, 0, d)
	} else {
		c := mat.NewDense(hi-lo, d, nil)
		for i := lo; i < hi; i++ {
			for j := 0; j < d; j++ {
				c.Set(i-lo, j, t.x.At(i, j))
			}
		}
		sub = c
	}
	return dst, t.ny.featuresTo(ctx, dst, sub)
}

// Rows returns the len(idx)×r features of the rows idx (any order,
// repeats allowed), bit for bit those rows of Settings.Fit's Z. Where a
// row's features depend on the block it is computed in (the kernel rows
// of a point kernel), the blocks holding idx are computed. Errors:
// kernel.ErrShape (a row out of range), the map's errors, ctx.Err().
func (t *Training) Rows(ctx context.Context, idx []int) (*mat.Dense, error) {
	for _, i := range idx {
		if i < 0 || i >= t.n {
			return nil, fmt.Errorf("%w: training row %d of %d", kernel.ErrShape, i, t.n)
		}
	}
	out := mat.NewDense(max(len(idx), 1), t.r, nil)
	if len(idx) == 0 {
		return out.Slice(0, 0, 0, t.r).(*mat.Dense), nil
	}
	switch {
	case t.z != nil:
		for a, i := range idx {
			copy(out.RawRowView(a), t.z.RawRowView(i))
		}
		return out, nil
	case t.graft != nil:
		for a, i := range idx {
			t.graft.Graft(out.RawRowView(a), int(t.anchor[i]), t.height[i])
		}
		return out, ctx.Err()
	}
	blocks := make([]int, 0, len(idx))
	for _, i := range idx {
		blocks = append(blocks, i/BlockRows)
	}
	slices.Sort(blocks)
	blocks = slices.Compact(blocks)
	buf := mat.NewDense(BlockRows, t.r, nil)
	for _, b := range blocks {
		lo, hi := b*BlockRows, min(b*BlockRows+BlockRows, t.n)
		Zb, err := t.Block(ctx, buf.Slice(0, hi-lo, 0, t.r).(*mat.Dense), lo, hi)
		if err != nil {
			return nil, err
		}
		for a, i := range idx {
			if i >= lo && i < hi {
				copy(out.RawRowView(a), Zb.RawRowView(i-lo))
			}
		}
	}
	return out, nil
}

// All returns the N×r features (Settings.Fit's Z): the held matrix, or
// the blocks put together.
func (t *Training) All(ctx context.Context) (*mat.Dense, error) {
	if t.z != nil {
		return t.z, nil
	}
	Z := mat.NewDense(max(t.n, 1), t.r, nil)
	if t.n == 0 {
		return Z.Slice(0, 0, 0, t.r).(*mat.Dense), nil
	}
	const step = 16 * BlockRows
	for lo := 0; lo < t.n; lo += step {
		hi := min(lo+step, t.n)
		if _, err := t.Block(ctx, Z.Slice(lo, hi, 0, t.r).(*mat.Dense), lo, hi); err != nil {
			return nil, err
		}
	}
	return Z, nil
}

// Bytes returns the memory t holds beyond the training rows: 8·N·r for
// the dense features, 12·N for the grafts, 0 otherwise.
func (t *Training) Bytes() float64 {
	switch {
	case t.z != nil:
		return 8 * float64(t.n) * float64(t.r)
	case t.graft != nil:
		return 12 * float64(t.n)
	}
	return 0
}

// denseTraining wraps features a map computed in full.
func denseTraining(Z *mat.Dense) *Training {
	n, r := Z.Dims()
	return &Training{n: n, r: r, z: Z}
}

// graftsOf returns, for every leaf i of full (N leaves), the landmark its
// row grafts onto and the height: a is the lowest ancestor-or-self of i
// over some landmark (the first of landmarks under it), its height h_a
// (0 for a landmark itself). O(N).
func graftsOf(full *hclust.Tree, landmarks []int) ([]int32, []float64) {
	n := full.N
	nodes := 2*n - 1
	under := make([]int32, nodes) // a landmark's position under the node, or −1
	for v := range under {
		under[v] = -1
	}
	for c := len(landmarks) - 1; c >= 0; c-- {
		under[landmarks[c]] = int32(c)
	}
	parent := make([]int32, nodes)
	height := make([]float64, nodes)
	parent[nodes-1] = -1
	for k, m := range full.Merges {
		v := n + k
		parent[m.A], parent[m.B] = int32(v), int32(v)
		height[v] = m.Height
		switch a, b := under[m.A], under[m.B]; {
		case a >= 0 && b >= 0:
			under[v] = min(a, b)
		case a >= 0:
			under[v] = a
		default:
			under[v] = b
		}
	}
	first := make([]int32, nodes) // the lowest ancestor-or-self over a landmark
	for v := nodes - 1; v >= 0; v-- {
		if under[v] >= 0 || parent[v] < 0 {
			first[v] = int32(v)
		} else {
			first[v] = first[parent[v]]
		}
	}
	anchor := make([]int32, n)
	h := make([]float64, n)
	for i := 0; i < n; i++ {
		a := first[i]
		anchor[i], h[i] = under[a], height[a]
	}
	return anchor, h
}
