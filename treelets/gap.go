package treelets

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/arbor-ml/arbor/internal/memory"
)

// FitGap is Fit that, when s.Clusters is 0, chooses the number of clusters
// itself: K = Model.GapK(maxK), the cut in the largest gap between
// consecutive merge heights among K = 2..maxK. On every item the hierarchy
// is cut there; on a sample the sample's hierarchy is fitted alone first
// (cheap next to the extension), then the whole run with that K (the same
// seed draws the same sample, so the hierarchy is the same). It returns the
// fitted model and K.
func (s Sample) FitGap(ctx context.Context, g Gram, maxK int) (*SampleModel, int, error) {
	n := g.Len()
	if s.Clusters > 0 {
		r, err := s.Fit(ctx, g)
		return r, s.Clusters, err
	}
	if s.M == 0 || s.M == n {
		r, err := s.Fit(ctx, g)
		if err != nil {
			return nil, 0, err
		}
		k := r.Model.GapK(maxK)
		if r.Labels, err = r.Model.CutK(k); err != nil {
			return nil, 0, err
		}
		return r, k, nil
	}
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	if s.M < 2 || s.M > n {
		_, err := s.Fit(ctx, g) // the error for the sample size
		return nil, 0, err
	}
	K, err := g.Sym(ctx, nil, Draw(n, s.M, s.Seed))
	if err != nil {
		return nil, 0, err
	}
	m0, err := s.Settings.FitInPlace(ctx, K)
	if err != nil {
		return nil, 0, err
	}
	s.Clusters = m0.GapK(maxK)
	r, err := s.Fit(ctx, g)
	return r, s.Clusters, err
}

// Bytes estimates the memory of kernel treelets on a sample of m of n
// items: the rotations work on an m×m float64 kernel matrix in place; with
// a sample (m < n) they run on a copy while the sample's kernel is kept for
// the extension, two m×m matrices. There is no float32 variant: every
// rotation rewrites two rows and two columns, and float32 storage would
// round each of the n−1 rotations' results (an error that grows with the
// levels, unlike a kernel computed once); what fits is a smaller sample.
func Bytes(n, m int) float64 {
	mm := 8 * float64(m) * float64(m)
	if m < n {
		return 2 * mm
	}
	return mm
}

// LargestSample is the largest sample size below m, at most 20,000 (the
// rotations cost O(M²) per level), whose two M×M matrices fit budget bytes
// (0: no budget); below 2 nothing fits.
func LargestSample(budget int64, m int) int {
	s := min(m-1, 20000)
	if budget > 0 {
		s = min(s, int(math.Sqrt(float64(budget)/16)))
	}
	return s
}

// MemoryAdvice names a run on a sample of m of n items for a memory
// error, and the advice when its Bytes exceed budget: the largest sample
// that fits (LargestSample) with its memory, in arbor's flags.
func MemoryAdvice(n, m int, budget int64) (what, hint string) {
	what = fmt.Sprintf("kernel treelets on %d rows", m)
	if m < n {
		what = fmt.Sprintf("kernel treelets on a sample of %d of %d rows", m, n)
	}
	hint = "even a sample of 2 rows does not fit"
	if s := LargestSample(budget, m); s >= 2 {
		hint = fmt.Sprintf("use --sample %d --clusters K (about %s; the other rows labelled by --extend)", s, memory.Human(Bytes(n, s)))
	}
	return what, hint
}

// WriteLevels writes the levels of m as CSV: a header
// level,sum,diff,similarity,cos,sin, then one line per level (level from
// 1, the sum and difference variables named by id, the similarity and the
// rotation at full precision).
func (m *Model) WriteLevels(w io.Writer, id func(i int) int64) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "level,sum,diff,similarity,cos,sin")
	for i, l := range m.Levels {
		fmt.Fprintf(bw, "%d,%d,%d,%s,%s,%s\n", i+1, id(l.Sum), id(l.Diff),
			strconv.FormatFloat(l.Similarity, 'g', -1, 64), strconv.FormatFloat(l.Cos, 'g', -1, 64), strconv.FormatFloat(l.Sin, 'g', -1, 64))
	}
	return bw.Flush()
}
