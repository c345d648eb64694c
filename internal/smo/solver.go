package smo

import (
	"context"
	"math"
	"time"

	"github.com/arbor-ml/arbor/internal/parallel"
)

// The SMO core.
//
// It solves LIBSVM's dual problem
//
//	min_α  ½ αᵀQα + pᵀα   subject to  yᵀα = Δ,  0 ≤ α_i ≤ C_i,
//
// with Q_ij = y_i y_j K_ij and y_i = ±1, by sequential minimal optimisation
// with the second-order working-set selection "WSS3" of Fan, Chen and Lin
// (JMLR 6, 2005), LIBSVM's shrinking heuristic (with one unshrink and
// gradient reconstruction when the violation first falls below 10·Tol), and
// an LRU column cache (qmatrix.go). Δ is implied by the feasible starting
// point α⁰. The algorithm follows LIBSVM's Solver step by step (same pair
// choice, same tie rules, same clipping, same stopping rule
// max_{I_up} −y_i∇_i f − min_{I_low} −y_j∇_j f < Tol), so on the same
// problem it visits the same iterates. Like LIBSVM (Qfloat = float), kernel
// columns are cached in float32 and every product is formed in float64:
// keeping LIBSVM's rounding is what makes near-ties in the selection
// resolve the same way, and it halves the memory per cached column. The
// diagonal, the gradient and α are float64.
//
// Internally the gradient is kept "signed": g_i = y_i ∇_i f. Then every
// quantity the algorithm needs is a function of K (not Q): the update is
// g ← g + K_{:,i}·y_iΔα_i + K_{:,j}·y_jΔα_j, the selection maximises −g over
// I_up and g over I_low, and the quadratic coefficient is
// K_ii + K_jj − 2K_ij. Sign flips are exact in floating point, so this is
// bit-for-bit LIBSVM's arithmetic, and one cached kernel column serves any
// labelling (one-vs-one pairs, one-vs-rest, S4VM label switching).
//
// Per iteration the cost is O(active) for the selection and the gradient
// update plus, on a cache miss, one kernel column (O(active·d) for point
// kernels, an O(active) gather for a Gram matrix). The maximisation of the
// first working-set pass is fused into the gradient-update loop of the
// previous iteration (same values, same tie rule), saving one pass over the
// active set.

const tau = 1e-12 // LIBSVM's TAU: the quadratic coefficient floor

const (
	atLower = 0
	atUpper = 1
	isFree  = 2
)

const (
	inUp  = 1 // α_i can move in the direction that increases y_iα_i
	inLow = 2 // α_i can move in the direction that decreases y_iα_i
)

// Problem is one instance of the dual problem. All slices are indexed by
// variable (the order of the rows given to NewCache for Q).
type Problem struct {
	Q     *Cache
	P     []float64 // linear term p
	Y     []int8    // labels ±1
	C     []float64 // upper bounds C_i > 0
	Alpha []float64 // feasible start (0 ≤ α ≤ C, yᵀα = Δ); overwritten by the solution
	Tol   float64   // stopping tolerance on the maximal violation
	// MaxIter bounds the iterations; 0 means LIBSVM's max(10⁷, 100·l).
	MaxIter int
	Shrink  bool // LIBSVM's shrinking heuristic
	// Warm, if not nil, carries the kernel sums of the previous Solve on
	// the same Q (empty on the first call). Solve then forms the starting
	// gradient by updating those sums for the variables whose y_iα_i or
	// bound status changed (one kernel column each) instead of from every
	// nonzero α_i, and stores the sums at the new solution. The iterates
	// differ from a cold start only by rounding.
	Warm *Warm
	// Serial runs the solve on the calling goroutine only (no team for
	// the passes): for callers that already run several solves at once,
	// such as S4VM's candidates. The iterates are the same either way.
	Serial bool
}

// Warm holds Σ_j y_jα_jK_ij and Σ_{α_j=C_j} y_jC_jK_ij for every variable i
// at a solution, with the y, C and α they were formed from, and the
// solver's working arrays for the next solve (no allocation per refit). The
// zero value is empty; one Warm serves one sequence of solves at a time.
type Warm struct {
	y     []int8
	c     []float64
	alpha []float64
	kb    []float64 // Σ_j y_jα_jK_ij
	kbar  []float64 // Σ_{α_j = C_j} y_jC_jK_ij
	buf   solveBuf
	s     smo       // the solver's state, kept for its queue of swaps
	g     []float64 // Result.Grad
}

// Reset empties w, so that the next Solve with it starts from α alone as
// with a zero Warm, and keeps its buffers for the solves that follow (no
// allocation when their size is the same).
func (w *Warm) Reset() {
	w.y, w.c, w.alpha = w.y[:0], w.c[:0], w.alpha[:0]
	w.kb, w.kbar = w.kb[:0], w.kbar[:0]
}

func (w *Warm) grad(l int) []float64 {
	if cap(w.g) < l {
		w.g = make([]float64, l)
	}
	w.g = w.g[:l]
	return w.g
}

// solveBuf holds a solve's working arrays; a Warm keeps them for the next
// solve. Every entry is set by Solve before it is read.
type solveBuf struct {
	y             []int8
	status, flags []uint8
	ys, p, c      []float64
	alpha, g      []float64
	gbar          []float64
	set           []int
}

func (b *solveBuf) resize(l int) {
	if len(b.y) == l {
		return
	}
	if cap(b.y) >= l {
		b.y, b.status, b.flags = b.y[:l], b.status[:l], b.flags[:l]
		b.ys, b.p, b.c = b.ys[:l], b.p[:l], b.c[:l]
		b.alpha, b.g, b.gbar = b.alpha[:l], b.g[:l], b.gbar[:l]
		b.set = b.set[:l]
		return
	}
	b.y, b.status, b.flags = make([]int8, l), make([]uint8, l), make([]uint8, l)
	b.ys, b.p, b.c = make([]float64, l), make([]float64, l), make([]float64, l)
	b.alpha, b.g, b.gbar = make([]float64, l), make([]float64, l), make([]float64, l)
	b.set = make([]int, l)
}

// Result is what a solve reports besides α.
type Result struct {
	Rho float64 // LIBSVM's ρ: mean of y_i∇_i f over free variables
	Obj float64 // ½αᵀQα + pᵀα
	// Grad is ∇f by variable. With Problem.Warm it is the Warm's buffer,
	// overwritten by the next Solve with that Warm.
	Grad      []float64
	Iter      int
	Converged bool
}

// DefaultMaxIter is LIBSVM's iteration limit max(10⁷, 100·l).
func DefaultMaxIter(l int) int {
	if l > math.MaxInt32/100 {
		return math.MaxInt32
	}
	return max(10000000, 100*l)
}

type smo struct {
	q      *Cache
	l      int
	active int
	tol    float64

	y      []int8
	ys     []float64 // y as ±1.0
	p      []float64
	c      []float64
	alpha  []float64
	status []uint8
	flags  []uint8
	g      []float64 // y∘∇f
	gbar   []float64 // y∘Ḡ, Ḡ = Σ_{α_j = C_j} C_j Q_{:,j}
	set    []int     // set[k] = original index of the variable at position k
	qd     []float64

	unshrink bool
	pending  []int32 // queued Q-matrix swaps

	team  *parallel.Team // nil: one goroutine (see team.go)
	start time.Time      // of the solve
	part  []chunkPart    // per-chunk results of the parallel passes
}

func (s *smo) setStatus(i int) {
	a := s.alpha[i]
	st := uint8(isFree)
	if a >= s.c[i] {
		st = atUpper
	} else if a <= 0 {
		st = atLower
	}
	s.status[i] = st
	var f uint8
	if s.y[i] > 0 {
		if st != atUpper {
			f |= inUp
		}
		if st != atLower {
			f |= inLow
		}
	} else {
		if st != atLower {
			f |= inUp
		}
		if st != atUpper {
			f |= inLow
		}
	}
	s.flags[i] = f
}

// swapIndex exchanges the variables at positions i and j in the solver's
// arrays; the Q-matrix swap is queued in s.pending (applied by flushSwaps).
func (s *smo) swapIndex(i, j int) {
	s.pending = append(s.pending, int32(i), int32(j))
	s.y[i], s.y[j] = s.y[j], s.y[i]
	s.ys[i], s.ys[j] = s.ys[j], s.ys[i]
	s.p[i], s.p[j] = s.p[j], s.p[i]
	s.c[i], s.c[j] = s.c[j], s.c[i]
	s.alpha[i], s.alpha[j] = s.alpha[j], s.alpha[i]
	s.status[i], s.status[j] = s.status[j], s.status[i]
	s.flags[i], s.flags[j] = s.flags[j], s.flags[i]
	s.g[i], s.g[j] = s.g[j], s.g[i]
	s.gbar[i], s.gbar[j] = s.gbar[j], s.gbar[i]
	s.set[i], s.set[j] = s.set[j], s.set[i]
}

// Solve runs SMO on pr. It checks ctx every min(l, 1000) iterations.
func Solve(ctx context.Context, pr *Problem) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	l := len(pr.Alpha)
	vars := pr.Q.vars
	var b *solveBuf
	var s *smo
	if pr.Warm != nil {
		// The arrays, the solver's state and its queue of swaps are
		// reused from solve to solve.
		b, s = &pr.Warm.buf, &pr.Warm.s
		defer func() { *s = smo{pending: s.pending[:0]} }() // keeps no reference to the Q-matrix
	} else {
		b, s = new(solveBuf), new(smo)
	}
	b.resize(l)
	*s = smo{
		q: pr.Q, l: l, active: l, tol: pr.Tol,
		y: b.y, ys: b.ys, p: b.p, c: b.c, alpha: b.alpha, status: b.status,
		flags: b.flags, g: b.g, gbar: b.gbar, set: b.set,
		qd: pr.Q.diag(), pending: s.pending[:0],
	}
	for k, v := range vars {
		s.y[k], s.p[k], s.c[k], s.alpha[k] = pr.Y[v], pr.P[v], pr.C[v], pr.Alpha[v]
		s.ys[k] = float64(s.y[k])
		s.set[k] = v
		s.setStatus(k)
	}
	if t := newTeam(l, pr.Serial); t != nil {
		s.team, s.part, s.start = t, make([]chunkPart, t.Workers()*chunksPerWorker), time.Now()
		pr.Q.team, pr.Q.serial = t, false
		defer func() {
			pr.Q.team = nil
			t.Close()
		}()
	}
	if w := pr.Warm; w != nil && len(w.kb) == l {
		s.warmGradient(w)
	} else {
		clear(s.gbar)
		for i := range l {
			s.g[i] = s.ys[i] * s.p[i]
		}
		for i := range l {
			if s.status[i] == atLower {
				continue
			}
			ki := s.q.column(i, l)
			axpy32(s.g[:l], s.alpha[i]*s.ys[i], ki)
			if s.status[i] == atUpper {
				axpy32(s.gbar[:l], s.c[i]*s.ys[i], ki)
			}
			if i&1023 == 1023 {
				if err := ctx.Err(); err != nil {
					return Result{}, err
				}
			}
		}
	}

	maxIter := pr.MaxIter
	if maxIter <= 0 {
		maxIter = DefaultMaxIter(l)
	}
	iter := 0
	counter := min(l, 1000) + 1
	converged := false
	fused := false // gmax/gi below hold the first selection pass
	var gmax float64
	var gi int
	for iter < maxIter {
		counter--
		if counter == 0 {
			counter = min(l, 1000)
			if pr.Shrink {
				s.doShrinking()
				fused = false
			}
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
		}
		if !fused {
			gmax, gi = s.maxUp()
		}
		i, j, ok := s.selectJ(gmax, gi)
		if !ok {
			s.reconstruct()
			s.active = l
			gmax, gi = s.maxUp()
			i, j, ok = s.selectJ(gmax, gi)
			if !ok {
				converged = true
				break
			}
			counter = 1
		}
		iter++
		gmax, gi = s.update(i, j)
		fused = true
	}
	if !converged && s.active < l {
		s.reconstruct()
		s.active = l
	}

	res := Result{Rho: s.rho(), Iter: iter, Converged: converged}
	var v float64
	for i := range l {
		v += s.alpha[i] * (s.ys[i]*s.g[i] + s.p[i])
	}
	res.Obj = v / 2
	if pr.Warm != nil {
		res.Grad = pr.Warm.grad(l)
	} else {
		res.Grad = make([]float64, l)
	}
	for k, i := range s.set {
		pr.Alpha[i] = s.alpha[k]
		res.Grad[i] = s.ys[k] * s.g[k]
	}
	if w := pr.Warm; w != nil {
		s.saveWarm(w)
	}
	return res, nil
}

// warmGradient forms g and Ḡ from the sums of the previous solve, with one
// kernel column for every variable whose y_iα_i or y_iC_i·[α_i = C_i]
// changed.
func (s *smo) warmGradient(w *Warm) {
	l := s.l
	for k, v := range s.set {
		s.g[k] = w.kb[v] + s.ys[k]*s.p[k]
		s.gbar[k] = w.kbar[v]
	}
	for k, v := range s.set {
		db := s.alpha[k]*s.ys[k] - w.alpha[v]*float64(w.y[v])
		var oldBar, newBar float64
		if w.alpha[v] >= w.c[v] {
			oldBar = w.c[v] * float64(w.y[v])
		}
		if s.status[k] == atUpper {
			newBar = s.c[k] * s.ys[k]
		}
		dbar := newBar - oldBar
		if db == 0 && dbar == 0 {
			continue
		}
		col := s.q.column(k, l)[:l]
		if db != 0 {
			axpy32(s.g[:l], db, col)
		}
		if dbar != 0 {
			axpy32(s.gbar[:l], dbar, col)
		}
	}
}

// saveWarm stores the sums at the solution (the gradient is complete:
// the solver reconstructs it before returning).
func (s *smo) saveWarm(w *Warm) {
	l := s.l
	if len(w.kb) != l {
		if cap(w.kb) >= l {
			w.y, w.c, w.alpha = w.y[:l], w.c[:l], w.alpha[:l]
			w.kb, w.kbar = w.kb[:l], w.kbar[:l]
		} else {
			w.y, w.c, w.alpha = make([]int8, l), make([]float64, l), make([]float64, l)
			w.kb, w.kbar = make([]float64, l), make([]float64, l)
		}
	}
	for k, v := range s.set {
		w.y[v], w.c[v], w.alpha[v] = s.y[k], s.c[k], s.alpha[k]
		w.kb[v] = s.g[k] - s.ys[k]*s.p[k]
		w.kbar[v] = s.gbar[k]
	}
}

// maxUp is the first pass of the working-set selection: the index in I_up
// maximising −y_t∇_t f = −g_t (the last one on ties, as LIBSVM's ≥).
func (s *smo) maxUp() (float64, int) {
	gmax, gi := math.Inf(-1), -1
	n := s.active
	g, fl := s.g[:n], s.flags[:n]
	for t, v := range g {
		if fl[t]&inUp != 0 && -v >= gmax {
			gmax, gi = -v, t
		}
	}
	return gmax, gi
}

// selectJ is the second pass of WSS3: given i (maximal violator in I_up),
// the j in I_low with −y_j∇_j f < −y_i∇_i f that minimises the second-order
// decrease −(b_ij)²/a_ij. It reports false when the maximal violation
// m(α) − M(α) is below Tol (or no j exists).
func (s *smo) selectJ(gmax float64, i int) (int, int, bool) {
	if i < 0 {
		return 0, 0, false
	}
	n := s.active
	ki := s.q.column(i, n)[:n]
	qdi := s.qd[i]
	var gmax2, objMin float64
	var gminIdx int
	if nc := s.chunks(n); nc > 1 {
		r := s.part[:nc]
		s.team.Run(nc, func(c int) {
			lo, hi := chunkRange(c, nc, n)
			r[c].max, r[c].obj, r[c].idx = s.selectRange(lo, hi, ki, qdi, gmax)
		})
		// In chunk order: the same maximum and the same last minimiser as
		// one pass over [0, n).
		gmax2, objMin, gminIdx = math.Inf(-1), math.Inf(1), -1
		for _, p := range r {
			gmax2 = max(gmax2, p.max)
			if p.idx >= 0 && p.obj <= objMin {
				objMin, gminIdx = p.obj, p.idx
			}
		}
	} else {
		gmax2, _, gminIdx = s.selectRange(0, n, ki, qdi, gmax)
	}
	if gmax+gmax2 < s.tol || gminIdx == -1 {
		return 0, 0, false
	}
	return i, gminIdx, true
}

// selectRange is selectJ's pass over positions [lo, hi): the largest g_j
// over I_low and the last j minimising −b_ij²/a_ij (-1 if none).
func (s *smo) selectRange(lo, hi int, ki []float32, qdi, gmax float64) (float64, float64, int) {
	gmax2, objMin, gminIdx := selectPass(s.g[lo:hi], s.flags[lo:hi], s.qd[lo:hi], ki[lo:hi], qdi, gmax)
	if gminIdx >= 0 {
		gminIdx += lo
	}
	return gmax2, objMin, gminIdx
}

// update optimises the pair (i, j) analytically (LIBSVM's clipping rules),
// updates the gradient of the active variables and Ḡ, and returns the first
// selection pass of the next iteration, computed in the same loop.
func (s *smo) update(i, j int) (float64, int) {
	n := s.active
	ki := s.q.column(i, n)
	kj := s.q.column(j, n)
	ci, cj := s.c[i], s.c[j]
	yi, yj := s.ys[i], s.ys[j]
	oldI, oldJ := s.alpha[i], s.alpha[j]
	Gi, Gj := yi*s.g[i], yj*s.g[j]
	qij := yi * yj * float64(ki[j])
	ai, aj := oldI, oldJ
	if s.y[i] != s.y[j] {
		quad := s.qd[i] + s.qd[j] + 2*qij
		if quad <= 0 {
			quad = tau
		}
		delta := (-Gi - Gj) / quad
		diff := ai - aj
		ai += delta
		aj += delta
		if diff > 0 {
			if aj < 0 {
				aj = 0
				ai = diff
			}
		} else {
			if ai < 0 {
				ai = 0
				aj = -diff
			}
		}
		if diff > ci-cj {
			if ai > ci {
				ai = ci
				aj = ci - diff
			}
		} else {
			if aj > cj {
				aj = cj
				ai = cj + diff
			}
		}
	} else {
		quad := s.qd[i] + s.qd[j] - 2*qij
		if quad <= 0 {
			quad = tau
		}
		delta := (Gi - Gj) / quad
		sum := ai + aj
		ai -= delta
		aj += delta
		if sum > ci {
			if ai > ci {
				ai = ci
				aj = sum - ci
			}
		} else {
			if aj < 0 {
				aj = 0
				ai = sum
			}
		}
		if sum > cj {
			if aj > cj {
				aj = cj
				ai = sum - cj
			}
		} else {
			if ai < 0 {
				ai = 0
				aj = sum
			}
		}
	}
	s.alpha[i], s.alpha[j] = ai, aj
	di := yi * (ai - oldI)
	dj := yj * (aj - oldJ)

	ui := s.status[i] == atUpper
	uj := s.status[j] == atUpper
	s.setStatus(i)
	s.setStatus(j)

	var gmax float64
	var gidx int
	if nc := s.chunks(n); nc > 1 {
		r := s.part[:nc]
		s.team.Run(nc, func(c int) {
			lo, hi := chunkRange(c, nc, n)
			r[c].max, r[c].idx = s.updateRange(lo, hi, ki, kj, di, dj)
		})
		gmax, gidx = math.Inf(-1), -1
		for _, p := range r {
			if p.idx >= 0 && p.max >= gmax {
				gmax, gidx = p.max, p.idx
			}
		}
	} else {
		gmax, gidx = s.updateRange(0, n, ki, kj, di, dj)
	}

	if nu := s.status[i] == atUpper; ui != nu {
		s.updateGbar(i, ui)
	}
	if nu := s.status[j] == atUpper; uj != nu {
		s.updateGbar(j, uj)
	}
	return gmax, gidx
}

// updateRange adds K_{k,i}·di + K_{k,j}·dj to g_k for k in [lo, hi) and
// returns the largest −g_k over I_up there and its last position (-1 if
// none).
func (s *smo) updateRange(lo, hi int, ki, kj []float32, di, dj float64) (float64, int) {
	gmax, gidx := updatePass(s.g[lo:hi], s.flags[lo:hi], ki[lo:hi], kj[lo:hi], di, dj)
	if gidx >= 0 {
		gidx += lo
	}
	return gmax, gidx
}

// updateGbar removes (wasUpper) or adds C_i·Q_{:,i} to Ḡ.
func (s *smo) updateGbar(i int, wasUpper bool) {
	l := s.l
	k := s.q.column(i, l)[:l]
	ci := s.c[i] * s.ys[i]
	if nc := s.chunks(l); nc > 1 {
		s.team.Run(nc, func(c int) {
			lo, hi := chunkRange(c, nc, l)
			s.gbarRange(lo, hi, k, ci, wasUpper)
		})
		return
	}
	s.gbarRange(0, l, k, ci, wasUpper)
}

func (s *smo) gbarRange(lo, hi int, k []float32, ci float64, wasUpper bool) {
	// Ḡ − ci·K equals Ḡ + (−ci)·K bit for bit (IEEE 754 defines x − y as
	// x + (−y), and (−ci)·v = −(ci·v)).
	if wasUpper {
		ci = -ci
	}
	axpy32(s.gbar[lo:hi], ci, k[lo:hi])
}

// reconstruct recomputes the gradient of the inactive variables from Ḡ and
// the free variables (LIBSVM's reconstruct_gradient, same loop choice).
func (s *smo) reconstruct() {
	n, l := s.active, s.l
	if n == l {
		return
	}
	for j := n; j < l; j++ {
		s.g[j] = s.gbar[j] + s.ys[j]*s.p[j]
	}
	nrFree := 0
	for j := range n {
		if s.status[j] == isFree {
			nrFree++
		}
	}
	if nrFree*l > 2*n*(l-n) {
		for i := n; i < l; i++ {
			ki := s.q.column(i, n)[:n]
			var acc = s.g[i]
			for j, v := range ki {
				if s.status[j] == isFree {
					acc += (s.alpha[j] * s.ys[j]) * float64(v)
				}
			}
			s.g[i] = acc
		}
	} else {
		for i := range n {
			if s.status[i] != isFree {
				continue
			}
			ki := s.q.column(i, l)[:l]
			axpy32(s.g[n:l], s.alpha[i]*s.ys[i], ki[n:l])
		}
	}
}

// flushSwaps applies the queued swaps to the Q-matrix in one pass over
// its cached columns (the same final state as swapping one by one).
func (s *smo) flushSwaps() {
	s.q.swapMany(s.pending)
	s.pending = s.pending[:0]
}

// beShrunk reports whether a variable at a bound cannot enter the next
// working set (LIBSVM's be_shrunk in signed form).
func (s *smo) beShrunk(i int, gmax1, gmax2 float64) bool {
	switch s.flags[i] {
	case inLow:
		return -s.g[i] > gmax1
	case inUp:
		return s.g[i] > gmax2
	}
	return false
}

func (s *smo) doShrinking() {
	gmax1, gmax2 := math.Inf(-1), math.Inf(-1)
	n := s.active
	for i, v := range s.g[:n] {
		f := s.flags[i]
		if f&inUp != 0 && -v >= gmax1 {
			gmax1 = -v
		}
		if f&inLow != 0 && v >= gmax2 {
			gmax2 = v
		}
	}
	if !s.unshrink && gmax1+gmax2 <= s.tol*10 {
		s.unshrink = true
		s.reconstruct()
		s.active = s.l
	}
	defer s.flushSwaps()
	for i := 0; i < s.active; i++ {
		if !s.beShrunk(i, gmax1, gmax2) {
			continue
		}
		s.active--
		for s.active > i {
			if !s.beShrunk(s.active, gmax1, gmax2) {
				s.swapIndex(i, s.active)
				break
			}
			s.active--
		}
	}
}

// rho is LIBSVM's calculate_rho: the mean of y_i∇_i f over free variables,
// or the midpoint of the feasible interval when none is free.
func (s *smo) rho() float64 {
	ub, lb := math.Inf(1), math.Inf(-1)
	sum, nFree := 0.0, 0
	for i := range s.active {
		yg := s.g[i]
		switch s.status[i] {
		case atUpper:
			if s.y[i] < 0 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		case atLower:
			if s.y[i] > 0 {
				ub = min(ub, yg)
			} else {
				lb = max(lb, yg)
			}
		default:
			nFree++
			sum += yg
		}
	}
	if nFree > 0 {
		return sum / float64(nFree)
	}
	return (ub + lb) / 2
}
