package svcluster

import (
	"context"
	"math"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/internal/vec"
)

// Segment tests of eq. (17): points i and j are adjacent when every sampled
// point y = x_i + t(x_j − x_i), t = s/(m+1), s = 1..m, lies inside the sphere
// (R²(y) ≤ R², i.e. f(y) ≥ θ, see ball). The end points themselves are not
// sampled: they are data points, inside by the KKT conditions.
//
// Three evaluators give the same answer up to rounding:
//
//   - direct: form y in d dimensions and evaluate f(y): O(m·n_c·d) per pair.
//   - from distances (any radial kernel): with D_ik = ‖x_i − c_k‖²,
//     ‖y − c_k‖² = (1−t)·D_ik + t·D_jk − t(1−t)·‖x_i − x_j‖²,
//     so f(y) needs no d-dimensional work: O(m·n_c) kernel evaluations.
//   - from Gram entries (Gaussian kernel only): exponentiating the identity
//     above,
//     K(y, c_k) = K(x_i, c_k)^(1−t) · K(x_j, c_k)^t · exp(q·t(1−t)·‖x_i−x_j‖²),
//     and with P_t[i][k] = √β_k · K(x_i, c_k)^t precomputed once per point
//     for the m sampled t,
//     f(y_s) = exp(q·t_s(1−t_s)·‖x_i−x_j‖²) · Σ_k P_{1−t_s}[i][k]·P_{t_s}[j][k]
//     (note 1 − t_s = t_{m+1−s}): one dot product of length n_c per sample,
//     no exponential inside the loop.
//
// The distance form skips centres with K(y, c_k) < e^-36: since Σβ = 1
// they change f by less than 2.4e-16, the rounding level of f itself.
//
// The Gram form loses accuracy only when a factor underflows while the
// exponential prefactor is huge, i.e. for pairs with q‖x_i−x_j‖² large; those
// pairs (q‖x_i−x_j‖² > farPair) use the distance form.
//
// Samples are visited from the middle of the segment outwards and the test
// stops at the first point outside ("early exit"); the adjacency is the same
// as visiting them in order.

const (
	farPair     = 2000.0   // q‖x_i−x_j‖² above which the Gram form is not used
	kernelCut   = 36.0     // terms with K(y, c_k) < e^-36 are skipped by the distance form
	powBudget   = 16 << 20 // max float64s for the P tables (128 MiB)
	distBudget  = 32 << 20 // max float64s for the D table (256 MiB)
	tinyProduct = 1e-300   // powers below this are flushed to 0 (no denormals)
)

type evalMode int

const (
	modeDirect evalMode = iota
	modeDist
	modePow
)

// segTester answers "are inside points a and b adjacent?" for local indices
// into pts. It is read-only after construction and safe for concurrent use
// given a per-goroutine scratch buffer of length d.
type segTester struct {
	b     *ball
	m     int
	x     []float64 // row-major data, stride d
	d     int
	pts   []int // local index -> row of x
	theta float64
	ts    []float64 // ts[s] = s/(m+1), s = 0..m+1
	order []int     // samples 1..m, middle first
	mode  evalMode
	nc    int
	dist  []float64 // len(pts)×nc: D_ak (modeDist, modePow)
	cut   float64   // squared distance beyond which K < e^-kernelCut
	probe bool      // test the middle sample alone first (complete graph)
	pow   []float64 // len(pts)×m×nc: √β_k·exp(−q·t_j·D_ak), j = 1..m (modePow)
}

func sampleOrder(m int) []int {
	order := make([]int, 0, m)
	// Sort s = 1..m by |s − (m+1)/2|, ties to the smaller s.
	lo, hi := (m+1)/2, (m+2)/2
	if lo == hi {
		order = append(order, lo)
		lo--
		hi++
	}
	for lo >= 1 || hi <= m {
		if lo >= 1 {
			order = append(order, lo)
		}
		if hi <= m && hi != lo {
			order = append(order, hi)
		}
		lo--
		hi++
	}
	return order
}

// newSegTester prepares the evaluator; mode is the fastest one the memory
// budget allows unless force >= 0.
func newSegTester(b *ball, m int, x []float64, d int, pts []int, force evalMode) *segTester {
	t := &segTester{b: b, m: m, x: x, d: d, pts: pts, theta: b.theta(), nc: b.nc()}
	t.ts = make([]float64, m+2)
	for s := range t.ts {
		t.ts[s] = float64(s) / float64(m+1)
	}
	t.order = sampleOrder(m)
	t.cut = kernelCut / b.q
	if b.kind == Exponential {
		t.cut = (kernelCut / b.q) * (kernelCut / b.q)
	}
	n, nc := len(pts), t.nc
	switch {
	case force >= 0:
		t.mode = force
	case b.kind == Gaussian && n*m*nc <= powBudget:
		t.mode = modePow
	case n*nc <= distBudget:
		t.mode = modeDist
	default:
		t.mode = modeDirect
	}
	if t.mode >= modeDist {
		t.dist = make([]float64, n*nc)
		_ = parallel.For(context.Background(), n, func(a int) {
			xa := x[pts[a]*d : pts[a]*d+d]
			row := t.dist[a*nc : a*nc+nc]
			for k := range row {
				row[k] = distance.SqDist(xa, b.cx[k*d:k*d+d])
			}
		})
	}
	if t.mode == modePow {
		t.pow = make([]float64, n*m*nc)
		sb := make([]float64, nc)
		for k, bk := range b.beta {
			sb[k] = math.Sqrt(bk)
		}
		step := b.q / float64(m+1)
		_ = parallel.For(context.Background(), n, func(a int) {
			drow := t.dist[a*nc : a*nc+nc]
			base := t.pow[a*m*nc : (a+1)*m*nc]
			for k, dk := range drow {
				u := math.Exp(-step * dk) // K(x_a, c_k)^(1/(m+1))
				v := sb[k]
				for j := 0; j < m; j++ {
					v *= u
					if v < tinyProduct {
						v = 0
					}
					base[j*nc+k] = v
				}
			}
		})
	}
	return t
}

// adjacent reports whether the segment between local points a and b stays
// inside the sphere at all m samples. buf must have length ≥ d.
func (t *segTester) adjacent(a, b int, buf []float64) bool {
	d := t.d
	xa := t.x[t.pts[a]*d : t.pts[a]*d+d]
	xb := t.x[t.pts[b]*d : t.pts[b]*d+d]
	dab := distance.SqDist(xa, xb)
	mode := t.mode
	if mode == modePow && t.b.q*dab > farPair {
		mode = modeDist
	}
	switch mode {
	case modePow:
		return t.adjPow(a, b, dab)
	case modeDist:
		if t.b.kind == Gaussian && t.b.q*dab <= farPair {
			if t.probe && !t.sampleInside(a, b, dab, t.order[0]) {
				return false
			}
			return t.adjRatio(a, b, dab, buf[d:])
		}
		return t.adjDist(a, b, dab)
	}
	return t.adjDirect(xa, xb, buf)
}

// sampleInside tests one sample with the distance form.
func (t *segTester) sampleInside(a, b int, dab float64, s int) bool {
	nc := t.nc
	da := t.dist[a*nc : a*nc+nc]
	db := t.dist[b*nc : b*nc+nc]
	ts := t.ts[s]
	us := 1 - ts
	c := ts * us * dab
	f := 0.0
	for k, bk := range t.b.beta {
		d2 := us*da[k] + ts*db[k] - c
		if d2 > t.cut {
			continue
		}
		f += bk * t.b.kind.eval(t.b.q, d2)
	}
	return f >= t.theta
}

// adjRatio is the distance form for the Gaussian kernel with one
// exponential per centre instead of one per centre and sample: along the
// segment, exp(−q[(1−t_s)D_ak + t_s·D_bk]) = K(x_a, c_k)·r_k^s with
// r_k = exp(−q(D_bk − D_ak)/(m+1)) (started from the nearer end, so r_k ≤ 1),
// and the common factor exp(q·t_s(1−t_s)·D_ab) is applied per sample.
// Centres with min(D_ak, D_bk) − D_ab/4 > cut are farther than the cut
// from every point of the segment and are skipped. fs is scratch of length
// ≥ m+2.
func (t *segTester) adjRatio(a, b int, dab float64, fs []float64) bool {
	nc, m := t.nc, t.m
	da := t.dist[a*nc : a*nc+nc]
	db := t.dist[b*nc : b*nc+nc]
	q := t.b.q
	fs = fs[:m+2]
	clear(fs)
	step := q / float64(m+1)
	lim := t.cut + dab/4
	for k, bk := range t.b.beta {
		dA, dB := da[k], db[k]
		if dA <= dB {
			if dA > lim {
				continue
			}
			v := bk * math.Exp(-q*dA)
			r := math.Exp(-step * (dB - dA))
			for s := 1; s <= m; s++ {
				v *= r
				if v < tinyProduct {
					break
				}
				fs[s] += v
			}
		} else {
			if dB > lim {
				continue
			}
			v := bk * math.Exp(-q*dB)
			r := math.Exp(-step * (dA - dB))
			for s := m; s >= 1; s-- {
				v *= r
				if v < tinyProduct {
					break
				}
				fs[s] += v
			}
		}
	}
	for _, s := range t.order {
		ts := t.ts[s]
		if fs[s] < t.theta*math.Exp(-q*ts*(1-ts)*dab) {
			return false
		}
	}
	return true
}

func (t *segTester) adjDirect(xa, xb, y []float64) bool {
	y = y[:t.d]
	for _, s := range t.order {
		ts := t.ts[s]
		for i := range y {
			y[i] = xa[i] + ts*(xb[i]-xa[i])
		}
		if t.b.f(y) < t.theta {
			return false
		}
	}
	return true
}

func (t *segTester) adjDist(a, b int, dab float64) bool {
	nc := t.nc
	da := t.dist[a*nc : a*nc+nc]
	db := t.dist[b*nc : b*nc+nc]
	beta := t.b.beta
	q, kind := t.b.q, t.b.kind
	cut := t.cut
	for _, s := range t.order {
		ts := t.ts[s]
		us := 1 - ts
		c := ts * us * dab
		f := 0.0
		for k, bk := range beta {
			d2 := us*da[k] + ts*db[k] - c
			if d2 > cut {
				continue // K < e^-36: below rounding of f (Σβ = 1)
			}
			f += bk * kind.eval(q, d2)
		}
		if f < t.theta {
			return false
		}
	}
	return true
}

func (t *segTester) adjPow(a, b int, dab float64) bool {
	nc, m := t.nc, t.m
	pa := t.pow[a*m*nc : (a+1)*m*nc]
	pb := t.pow[b*m*nc : (b+1)*m*nc]
	for _, s := range t.order {
		ts := t.ts[s]
		// P_{1−t_s}[a] is table j = m+1−s, P_{t_s}[b] is table j = s (1-based).
		ra := pa[(m-s)*nc : (m-s+1)*nc]
		rb := pb[(s-1)*nc : s*nc]
		if vec.Dot(ra, rb) < t.theta*math.Exp(-t.b.q*ts*(1-ts)*dab) {
			return false
		}
	}
	return true
}

// value returns f(y_s) at sample s of segment (a, b) with the given
// evaluator (for tests of the identities above).
func (t *segTester) value(mode evalMode, a, b, s int) float64 {
	d, nc, m := t.d, t.nc, t.m
	xa := t.x[t.pts[a]*d : t.pts[a]*d+d]
	xb := t.x[t.pts[b]*d : t.pts[b]*d+d]
	dab := distance.SqDist(xa, xb)
	ts := t.ts[s]
	switch mode {
	case modePow:
		ra := t.pow[a*m*nc+(m-s)*nc : a*m*nc+(m-s+1)*nc]
		rb := t.pow[b*m*nc+(s-1)*nc : b*m*nc+s*nc]
		return vec.Dot(ra, rb) * math.Exp(t.b.q*ts*(1-ts)*dab)
	case modeDist:
		f := 0.0
		for k, bk := range t.b.beta {
			d2 := (1-ts)*t.dist[a*nc+k] + ts*t.dist[b*nc+k] - ts*(1-ts)*dab
			f += bk * t.b.kind.eval(t.b.q, d2)
		}
		return f
	}
	y := make([]float64, d)
	for i := range y {
		y[i] = xa[i] + ts*(xb[i]-xa[i])
	}
	return t.b.f(y)
}

// naiveAdjacent is eq. (17) exactly as the paper runs it: all m samples, the
// kernel evaluated in input space through the sphere abstraction.
func naiveAdjacent(s sphere, xa, xb, y []float64, m int) bool {
	ok := true
	r2 := s.Radius2()
	for k := 1; k <= m; k++ {
		t := float64(k) / float64(m+1)
		for i := range y {
			y[i] = xa[i] + t*(xb[i]-xa[i])
		}
		if s.Dist2(y) > r2 {
			ok = false
		}
	}
	return ok
}
