package svcluster

import (
	"context"
	"math"
	"runtime"
	"time"

	"github.com/arbor-ml/arbor/internal/neighbors"
	"gonum.org/v1/gonum/mat"
)

// Extend extends a clustering res fitted on the rows sample of X (res's
// row a is row sample[a] of X) to every row of X: a sampled row keeps its
// label; another row is an outlier (Noise) when the fitted sphere leaves it
// outside (R(x)² > R², relative slack 1e-9) and unassigned is set (outliers
// left unassigned, as Clusterer.Unassigned), and otherwise takes the
// cluster of its nearest sampled row that has a cluster (Euclidean, ties to
// the lower row); with no such row every other row is Noise. The returned
// Clustering shares the sphere; its Labels and Sizes cover every row.
// outside counts the rows not sampled that the sphere leaves outside.
// Cost: O(N·s·d) for the s sampled rows with a cluster.
func Extend(ctx context.Context, res *Clustering, X *mat.Dense, sample []int, unassigned bool) (out *Clustering, outside int, err error) {
	n, d := X.Dims()
	var keep []int // sampled rows with a cluster
	for a, i := range sample {
		if res.Labels[a] != Noise {
			keep = append(keep, i)
		}
	}
	c := *res
	c.Labels = make([]int, n)
	sampled := make(map[int]int, len(sample))
	for a, i := range sample {
		sampled[i] = a
	}
	var near []int32
	if len(keep) > 0 {
		pts := make([]float64, 0, len(keep)*d)
		for _, i := range keep {
			pts = append(pts, X.RawRowView(i)...)
		}
		near = make([]int32, n)
		if err := neighbors.New(pts, len(keep), d).Search(ctx, mat.DenseCopyOf(X).RawMatrix().Data, 1, near, nil); err != nil {
			return nil, 0, err
		}
	}
	for i := 0; i < n; i++ {
		if a, ok := sampled[i]; ok {
			c.Labels[i] = res.Labels[a]
			continue
		}
		if res.Dist2(X.RawRowView(i)) > res.R2*(1+1e-9) {
			outside++
			if unassigned || near == nil {
				c.Labels[i] = Noise
				continue
			}
		}
		if near == nil {
			c.Labels[i] = Noise
			continue
		}
		c.Labels[i] = res.Labels[sampled[keep[near[i]]]]
	}
	c.Sizes = make([]int, res.NClusters)
	for _, l := range c.Labels {
		if l >= 0 && l < len(c.Sizes) {
			c.Sizes[l]++
		}
	}
	return &c, outside, nil
}

// Bytes bounds support vector clustering of m rows with d features: it
// forms no N×N matrix. The SVDD computes kernel columns on demand into its
// float32 column cache (svm.SVDD, default 200 MiB, never more than the 4m²
// of the whole matrix); the labelling tests pairs on the fly with a
// union-find (O(m) memory) and keeps distance and power tables capped at
// 256 + 128 MiB (segment.go), filled only up to what the run needs; the
// rest is the points and O(m) vectors.
func Bytes(m, d int) float64 {
	mf := float64(m)
	return 8*mf*float64(d+16) + min(4*mf*mf, 200<<20) + min(8*mf*mf, 384<<20)
}

// PairTime measures how many nanoseconds one Gaussian kernel value between
// two rows of X takes on this machine: the time of every pair among the
// first 512 rows, divided by their number. The SVDD's kernel columns and
// the labelling's pair tests are about N²/2 such values per pass over the
// pairs, so PairTime·N²/2 says beforehand how long a pass takes.
func PairTime(X mat.Matrix) float64 {
	rows, d := X.Dims()
	k := min(rows, 512)
	pts := make([][]float64, k)
	for i := range pts {
		pts[i] = mat.Row(nil, i, X)
	}
	start := time.Now()
	var sink float64
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			var s float64
			for c := 0; c < d; c++ {
				t := pts[i][c] - pts[j][c]
				s += t * t
			}
			sink += math.Exp(-s)
		}
	}
	per := float64(time.Since(start)) / math.Max(float64(k*(k-1)/2), 1)
	runtime.KeepAlive(sink) // the loop is measured, not optimised away
	return per
}

// Closest returns the level of h whose number of clusters is nearest k (the
// first such level on ties, the smallest q), and whether some level has
// fewer (below) and some more (above) than k clusters: both means the count
// jumps over k between successive q.
func (h *Hierarchy) Closest(k int) (level int, below, above bool) {
	level = -1
	for i, l := range h.Levels {
		if level < 0 || abs(l.NClusters-k) < abs(h.Levels[level].NClusters-k) {
			level = i
		}
		below = below || l.NClusters < k
		above = above || l.NClusters > k
	}
	return level, below, above
}
