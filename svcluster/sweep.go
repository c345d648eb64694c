package svcluster

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Sweep holds the settings of the divisive hierarchy of §3.2: q grows
// geometrically from the value where all points form one cluster, every
// change in the number of clusters is recorded, and 1/C is raised whenever
// single-point clusters break off or support vectors become too many.
type Sweep struct {
	Kernel     KernelKind
	Labelling  Labelling
	Samples    int  // as Clusterer.Samples
	K          int  // as Clusterer.K
	Unassigned bool // as Clusterer.Unassigned

	// QStart is the first q. Zero means 1/max‖x_i−x_j‖² (Gaussian; the
	// kernel is then ≥ e⁻¹ for every pair and the data form one cluster) or
	// 1/max‖x_i−x_j‖ (Exponential).
	QStart float64
	// QFactor multiplies q from one level to the next (default 1.2).
	QFactor float64
	// QMax stops the sweep once q exceeds it (default 1e4·QStart).
	QMax float64
	// MaxLevels bounds the number of recorded levels (default 200).
	MaxLevels int

	// P0 is the initial 1/(N·C) (default 1/N, i.e. C = 1: no outliers).
	P0 float64
	// PStep is added to 1/(N·C) each time it is raised (default 0.05).
	PStep float64
	// PMax caps 1/(N·C) (default 0.9).
	PMax float64
	// MinCluster: a cluster with fewer non-outlier members counts as "single
	// point clusters breaking off" and makes the sweep raise 1/C (default
	// max(2, ⌈N/20⌉): fragments under 5% of the data; 1 disables the rule).
	MinCluster int
	// SVFraction: 1/C is raised when n_sv/N exceeds it (default 0.5).
	SVFraction float64

	// MaxError stops the sweep when (n_sv + n_bsv)/N (eq. 14) exceeds it
	// (default 0.95).
	MaxError float64
	// Clusters, if > 0, stops the sweep at the first level with exactly
	// this many clusters (refining q by bisection if a step jumps past it).
	Clusters int
	// Refine is the number of bisections of log q used to separate splits
	// that happen within one step (default 4; negative disables).
	Refine int

	Tol      float64 // as Clusterer.Tol
	CacheMB  float64
	MaxIter  int
	Progress func(stage string, done, total int)
}

// Level is one recorded clustering of the sweep.
type Level struct {
	Q         float64 `json:"q"`
	C         float64 `json:"C"`
	P         float64 `json:"p"` // 1/(N·C)
	NClusters int     `json:"clusters"`
	NSV       int     `json:"n_sv"`
	NBSV      int     `json:"n_bsv"`
	PError    float64 `json:"p_error"` // (n_sv+n_bsv)/N
	R2        float64 `json:"R2"`
	Sizes     []int   `json:"sizes"`
	Labels    []int   `json:"-"`
	// Result is the full clustering of this level.
	Result *Clustering `json:"-"`
}

// Hierarchy is the result of Sweep.Fit.
type Hierarchy struct {
	N      int     `json:"n"`
	Kernel string  `json:"kernel"`
	Levels []Level `json:"levels"` // increasing q
	Nodes  []Node  `json:"nodes"`  // Nodes[0] is the root
	// Chosen is the index in Levels of the level with Sweep.Clusters
	// clusters, or −1.
	Chosen int `json:"chosen"`
	// Stop says which rule ended the sweep.
	Stop string `json:"stop"`
	// Fits counts the SVDD problems solved (levels, 1/C raises, bisections).
	Fits int `json:"fits"`
}

func (s Sweep) withDefaults(n int) Sweep {
	if s.QFactor == 0 {
		s.QFactor = 1.2
	}
	if s.MaxLevels == 0 {
		s.MaxLevels = 200
	}
	if s.P0 == 0 {
		s.P0 = 1 / float64(n)
	}
	if s.PStep == 0 {
		s.PStep = 0.05
	}
	if s.PMax == 0 {
		s.PMax = 0.9
	}
	if s.MinCluster == 0 {
		s.MinCluster = max(2, (n+19)/20)
	}
	if s.SVFraction == 0 {
		s.SVFraction = 0.5
	}
	if s.MaxError == 0 {
		s.MaxError = 0.95
	}
	if s.Refine == 0 {
		s.Refine = 4
	}
	return s
}

func (s Sweep) validate(n int) error {
	bad := func(what string, v any) error { return fmt.Errorf("%w: Sweep.%s = %v", ErrBadParam, what, v) }
	switch {
	case !s.Kernel.valid():
		return fmt.Errorf("%w: %v", ErrBadKernel, s.Kernel)
	case !s.Labelling.valid():
		return fmt.Errorf("%w: %v", ErrBadLabelling, s.Labelling)
	case s.QStart < 0 || math.IsNaN(s.QStart) || math.IsInf(s.QStart, 0):
		return fmt.Errorf("%w: QStart = %v", ErrBadQ, s.QStart)
	case !(s.QFactor > 1) || math.IsInf(s.QFactor, 0):
		return bad("QFactor", s.QFactor)
	case s.QMax < 0 || math.IsNaN(s.QMax):
		return bad("QMax", s.QMax)
	case s.MaxLevels < 1:
		return bad("MaxLevels", s.MaxLevels)
	case !(s.P0 >= 1/float64(n)*(1-1e-12)) || s.P0 > 1:
		return fmt.Errorf("%w: Sweep.P0 = 1/(N·C) = %v must lie in [1/N, 1]", ErrBadC, s.P0)
	case !(s.PStep > 0):
		return bad("PStep", s.PStep)
	case !(s.PMax >= s.P0) || s.PMax > 1:
		return bad("PMax", s.PMax)
	case s.MinCluster < 1:
		return bad("MinCluster", s.MinCluster)
	case !(s.SVFraction > 0):
		return bad("SVFraction", s.SVFraction)
	case !(s.MaxError > 0):
		return bad("MaxError", s.MaxError)
	case s.Clusters < 0:
		return bad("Clusters", s.Clusters)
	case s.Samples < 0 || s.K < 0 || s.Tol < 0 || s.CacheMB < 0 || s.MaxIter < 0:
		return bad("Samples/K/Tol/CacheMB/MaxIter", "negative")
	}
	return nil
}

// startQ returns the sweep's default first q for the rows of x:
// 1/max‖x_i−x_j‖² (Gaussian) or 1/max‖x_i−x_j‖ (Exponential). O(N²d).
func startQ(x []float64, n, d int, kind KernelKind) float64 {
	maxes := make([]float64, n)
	_ = parallel.For(context.Background(), n, func(i int) {
		m := 0.0
		for j := i + 1; j < n; j++ {
			m = math.Max(m, distance.SqDist(x[i*d:i*d+d], x[j*d:j*d+d]))
		}
		maxes[i] = m
	})
	m := 0.0
	for _, v := range maxes {
		m = math.Max(m, v)
	}
	if m == 0 {
		return 1
	}
	if kind == Exponential {
		return 1 / math.Sqrt(m)
	}
	return 1 / m
}

// Fit runs the sweep on the rows of X. Each level costs one SVDD and one
// labelling (plus one per raise of 1/C and per bisection). Errors: as
// Clusterer.Fit, plus ErrBadParam for the sweep's own settings.
func (s Sweep) Fit(ctx context.Context, X mat.Matrix) (*Hierarchy, error) {
	x, n, d, err := rowMajor(X)
	if err != nil {
		return nil, err
	}
	s = s.withDefaults(n)
	if err := s.validate(n); err != nil {
		return nil, err
	}
	q := s.QStart
	if q == 0 {
		q = startQ(x, n, d, s.Kernel)
	}
	qmax := s.QMax
	if qmax == 0 {
		qmax = 1e4 * q
	}
	h := &Hierarchy{N: n, Kernel: s.Kernel.String(), Chosen: -1}
	base := Clusterer{
		Kernel: s.Kernel, Labelling: s.Labelling, Samples: s.Samples, K: s.K,
		Unassigned: s.Unassigned, Tol: s.Tol, CacheMB: s.CacheMB, MaxIter: s.MaxIter,
	}.withDefaults()
	fit := func(q, p float64) (*Clustering, error) {
		c := base
		c.Q, c.C = q, 1/(float64(n)*p)
		if c.C > 1 {
			c.C = 1
		}
		if err := c.validate(n); err != nil {
			return nil, err
		}
		sol, err := solveSVDD(ctx, x, n, d, c)
		if err != nil {
			return nil, err
		}
		h.Fits++
		return c.label(ctx, x, n, d, sol)
	}
	p := s.P0
	small := func(r *Clustering) bool {
		if s.MinCluster <= 1 {
			return false
		}
		inner := make([]int, r.NClusters)
		isBSV := make(map[int]bool, len(r.BSV))
		for _, i := range r.BSV {
			isBSV[i] = true
		}
		for i, l := range r.Labels {
			if l >= 0 && !isBSV[i] {
				inner[l]++
			}
		}
		for _, c := range inner {
			if c < s.MinCluster {
				return true
			}
		}
		return false
	}
	var levels []Level
	for len(levels) < s.MaxLevels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := fit(q, p)
		if err != nil {
			return nil, err
		}
		for (small(r) || float64(r.NSV)/float64(n) > s.SVFraction) && p < s.PMax {
			p = math.Min(p+s.PStep, s.PMax)
			if r, err = fit(q, p); err != nil {
				return nil, err
			}
		}
		lv := newLevel(r)
		if len(levels) > 0 && s.Refine > 0 {
			extra, err := s.refine(ctx, fit, levels[len(levels)-1], lv, p, s.Refine)
			if err != nil {
				return nil, err
			}
			levels = append(levels, extra...)
		}
		levels = append(levels, lv)
		if s.Progress != nil {
			s.Progress(fmt.Sprintf("sweep q=%.4g 1/(NC)=%.3g clusters=%d", q, p, lv.NClusters), 0, 0)
		}
		if s.Clusters > 0 {
			if idx := firstWith(levels, s.Clusters); idx >= 0 {
				levels = levels[:idx+1]
				h.Chosen = idx
				h.Stop = fmt.Sprintf("reached %d clusters", s.Clusters)
				break
			}
		}
		if lv.PError > s.MaxError {
			h.Stop = fmt.Sprintf("(n_sv+n_bsv)/N = %.3g > %.3g", lv.PError, s.MaxError)
			break
		}
		if lv.NSV+lv.NBSV >= n && p >= s.PMax {
			h.Stop = "every point is a support vector"
			break
		}
		q *= s.QFactor
		if q > qmax {
			h.Stop = fmt.Sprintf("q > QMax = %.4g", qmax)
			break
		}
	}
	if h.Stop == "" {
		h.Stop = fmt.Sprintf("MaxLevels = %d", s.MaxLevels)
	}
	sort.SliceStable(levels, func(i, j int) bool { return levels[i].Q < levels[j].Q })
	h.Levels = levels
	h.Nodes = buildTree(levels)
	return h, nil
}

func firstWith(levels []Level, k int) int {
	for i, l := range levels {
		if l.NClusters == k {
			return i
		}
	}
	return -1
}

// refine bisects log q between two levels (at the right level's 1/C) while
// the number of clusters changes by more than one, returning the levels
// found, in increasing q.
func (s Sweep) refine(ctx context.Context, fit func(q, p float64) (*Clustering, error), lo, hi Level, p float64, depth int) ([]Level, error) {
	if depth == 0 || abs(hi.NClusters-lo.NClusters) <= 1 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := fit(math.Sqrt(lo.Q*hi.Q), p)
	if err != nil {
		return nil, err
	}
	mid := newLevel(r)
	left, err := s.refine(ctx, fit, lo, mid, p, depth-1)
	if err != nil {
		return nil, err
	}
	right, err := s.refine(ctx, fit, mid, hi, p, depth-1)
	if err != nil {
		return nil, err
	}
	out := append(left, mid)
	return append(out, right...), nil
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func newLevel(r *Clustering) Level {
	return Level{
		Q: r.Q, C: r.C, P: r.P(), NClusters: r.NClusters, NSV: r.NSV, NBSV: r.NBSV,
		PError: r.PError, R2: r.R2, Sizes: r.Sizes, Labels: r.Labels, Result: r,
	}
}
