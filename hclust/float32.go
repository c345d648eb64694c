package hclust

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// FromPoints32 is FromPoints with the n×n working matrix stored in float32:
// 4n² bytes instead of 8n² (1.6 GB instead of 3.2 GB at n = 20,000). Each
// distance is computed in float64 as pdist does and rounded once to
// float32; each Lance–Williams update is computed in float64 from the
// stored float32 values and rounded once. Merge heights are therefore the
// float64 heights up to a relative error of about 2⁻²⁴ per level of the
// tree (≈ 6·10⁻⁸; the updates are convex combinations, so errors do not
// grow faster than the tree's depth), and two merges whose float64 heights
// differ by less than that may come out in the other order or, for nearly
// tied candidates, pair differently: the tree equals FromPoints's whenever
// no two candidate distances are that close (see TestFloat32Fixtures).
//
// Single linkage needs no matrix (Prim on the points) and is FromPoints.
// Errors: as FromPoints, and ErrNonFinite when a distance or an update
// overflows float32.
func FromPoints32(ctx context.Context, X mat.Matrix, m Method) (*Tree, error) {
	if m == Single {
		return FromPoints(ctx, X, m)
	}
	pts, n, dim, err := points(ctx, X, m)
	if err != nil {
		return nil, err
	}
	sq := newSquare[float32](n)
	if !sq.fillPoints(pts, dim, nil) {
		return nil, fmt.Errorf("hclust: Euclidean distance overflows float32: %w", ErrNonFinite)
	}
	return linkageSquare(ctx, sq, m)
}

// LinkageSym32 performs agglomerative clustering of the n observations
// whose dissimilarities are the off-diagonal entries of the symmetric
// matrix D (for example geodesic distances), with the n×n working matrix
// in float32: D's entries rounded once, updates as in FromPoints32. It
// reads D's upper triangle row by row (in place for a *mat.SymDense) and
// never makes a condensed copy, so the extra memory is 4n² bytes. Single
// linkage runs the nearest-neighbour chain on the float32 matrix (no
// arithmetic: the tree is single linkage of the rounded distances).
//
// Errors: ErrMethod, ErrTooFewRows (n < 2), ErrNegative / ErrNonFinite
// naming the pair (a NaN, ±Inf, negative entry or one that overflows
// float32), ErrNonFinite for an update that overflows, ctx.Err().
func LinkageSym32(ctx context.Context, D mat.Symmetric, m Method) (*Tree, error) {
	if !m.valid() {
		return nil, fmt.Errorf("hclust: linkage method %d: %w", int(m), ErrMethod)
	}
	if D == nil {
		return nil, fmt.Errorf("hclust: nil distance matrix: %w", ErrShape)
	}
	n := D.SymmetricDim()
	if n < 2 {
		return nil, fmt.Errorf("hclust: %d observations: %w", n, ErrTooFewRows)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sq := newSquare[float32](n)
	inf := float32(math.Inf(1))
	var raw []float64
	stride := 0
	if s, ok := D.(*mat.SymDense); ok {
		r := s.RawSymmetric()
		raw, stride = r.Data, r.Stride
	}
	for i := 0; i < n; i++ {
		if i%256 == 255 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := sq.d[i*n : i*n+n]
		row[i] = inf
		for j := i + 1; j < n; j++ {
			var v float64
			if raw != nil {
				v = raw[i*stride+j]
			} else {
				v = D.At(i, j)
			}
			f := float32(v)
			if !(v >= 0) || !(float64(f) <= math.MaxFloat64) {
				if v < 0 {
					return nil, fmt.Errorf("hclust: distance (%d, %d) is %v: %w", i, j, v, ErrNegative)
				}
				return nil, fmt.Errorf("hclust: distance (%d, %d) is %v (float32 storage): %w", i, j, v, ErrNonFinite)
			}
			row[j] = f
			sq.d[j*n+i] = f
		}
	}
	return linkageSquare(ctx, sq, m)
}
