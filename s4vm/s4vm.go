package s4vm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/internal/smo"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrBadParam: a setting out of range (C1 or C2 < 0, Groups > Samples, ...).
	ErrBadParam = errors.New("s4vm: bad parameter")
	// ErrShape: len(y) differs from the number of rows, or Kt is not t×n.
	ErrShape = errors.New("s4vm: shape mismatch")
	// ErrNonFinite: NaN or ±Inf in X, K or Kt.
	ErrNonFinite = errors.New("s4vm: non-finite value")
	// ErrBadLabel: a label below −1 (learner.Unlabeled).
	ErrBadLabel = errors.New("s4vm: bad label")
	// ErrOneClass: fewer than two classes among the labelled rows.
	ErrOneClass = errors.New("s4vm: labelled rows in fewer than two classes")
	// ErrNoLabel: a class listed in S4VM.Classes has no labelled row.
	ErrNoLabel = errors.New("s4vm: class without a labelled row")
	// ErrAllLabeled (a warning in Model.Warnings): no unlabelled row, so
	// S4VM is the inductive SVM.
	ErrAllLabeled = errors.New("s4vm: every row is labelled")
	// ErrNotConverged (a warning): an SVM fit stopped at its iteration
	// limit.
	ErrNotConverged = errors.New("s4vm: not converged")
	// ErrFormat: Load met a malformed or unsupported model file.
	ErrFormat = errors.New("s4vm: model format")
)

// S4VM holds the settings of the safe semi-supervised SVM (Li & Zhou,
// ICML 2011) as the reference implementation (RSSL's S4VM) runs it. Zero
// values select the reference's defaults. Settings are never mutated.
type S4VM struct {
	// C1 is the SVM penalty of labelled rows (default 100); C2 that of
	// unlabelled rows (default 0.1). Both must be > 0 when set.
	C1, C2 float64
	// Samples is sampleTime, the number of random candidate assignments
	// (default 100).
	Samples int
	// Lambda is λ, the weight of a loss against the inductive SVM in the
	// safe combination (default 3; must be > 0 when set).
	Lambda float64
	// Groups is the number of k-medoids groups of candidates (default
	// ⌊Samples/10⌋, at least 1); it must not exceed Samples.
	Groups int
	// Kernel is the point kernel of Fit (default kernel.Linear{}).
	// FitGram ignores it.
	Kernel kernel.Kernel
	// Tol is the SMO stopping tolerance (default 1e-3, LIBSVM's).
	Tol float64
	// MaxSteps bounds the refits of one local descent (default 200).
	MaxSteps int
	// CacheMB is the kernel-column cache budget per running candidate
	// in MiB (default 200). Besides, a class pair whose kernel matrix
	// (n² float32 values) fits in that budget holds the matrix once while
	// its candidates run, which read its columns in place (warm starts
	// only).
	CacheMB float64
	// Cold refits every SVM from α = 0 on a fresh column cache with
	// LIBSVM's row order, as the reference does; the default warm-starts
	// each refit from the previous α with the column cache kept. Both
	// solve every SVM to Tol; Cold reproduces the reference's iterates.
	Cold bool
	// Classes, if set, lists the classes the data have; a class without
	// a labelled row is then ErrNoLabel (otherwise it cannot be seen).
	Classes []int
	// Seed drives every random choice (candidate assignments and the 20 %
	// of rows kept in each local-descent step).
	Seed uint64
	// Progress, if not nil, is called after each candidate with stage
	// "s4vm", done and total candidates (over all class pairs; Samples+1
	// per pair, the inductive start counted when it is not run). Calls
	// come from one goroutine at a time, done = 1, 2, ..., total.
	Progress func(stage string, done, total int)
}

// Name is the learner's short name.
func (s S4VM) Name() string { return "s4vm" }

// Validate checks the settings.
func (s S4VM) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBadParam, fmt.Sprintf(format, a...))
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"C1", s.C1}, {"C2", s.C2}, {"Lambda", s.Lambda}} {
		if !(c.v >= 0) || math.IsInf(c.v, 0) {
			return bad("%s = %v, want finite > 0 (0 = default)", c.name, c.v)
		}
	}
	switch {
	case s.Samples < 0:
		return bad("Samples = %d, want ≥ 1 (0 = 100)", s.Samples)
	case s.Groups < 0:
		return bad("Groups = %d, want ≥ 1 (0 = Samples/10)", s.Groups)
	case s.Groups > s.samples():
		return bad("Groups = %d exceeds Samples = %d (sampleTime < groups)", s.Groups, s.samples())
	case !(s.Tol >= 0) || math.IsInf(s.Tol, 0):
		return bad("Tol = %v, want ≥ 0 (0 = 1e-3)", s.Tol)
	case s.MaxSteps < 0:
		return bad("MaxSteps = %d, want ≥ 0 (0 = 200)", s.MaxSteps)
	case !(s.CacheMB >= 0) || math.IsInf(s.CacheMB, 0):
		return bad("CacheMB = %v, want ≥ 0 (0 = 200)", s.CacheMB)
	}
	if s.Kernel != nil {
		if err := kernel.Check(s.Kernel); err != nil {
			return fmt.Errorf("%w: %w", ErrBadParam, err)
		}
	}
	return nil
}

func (s S4VM) samples() int {
	if s.Samples == 0 {
		return 100
	}
	return s.Samples
}

func (s S4VM) resolve() resolved {
	r := resolved{c1: s.C1, c2: s.C2, samples: s.samples(), lambda: s.Lambda, groups: s.Groups,
		tol: s.Tol, cacheMB: s.CacheMB, maxSteps: s.MaxSteps, cold: s.Cold, seed: s.Seed}
	if r.c1 == 0 {
		r.c1 = 100
	}
	if r.c2 == 0 {
		r.c2 = 0.1
	}
	if r.lambda == 0 {
		r.lambda = 3
	}
	if r.groups == 0 {
		r.groups = max(r.samples/10, 1)
	}
	if r.tol == 0 {
		r.tol = 1e-3
	}
	if r.cacheMB == 0 {
		r.cacheMB = 200
	}
	if r.maxSteps == 0 {
		r.maxSteps = 200
	}
	return r
}

// Fit computes the Gram matrix of the rows of X with s.Kernel (default
// linear) and calls FitGram. Predictions on new points need their kernel
// rows against the rows of X (kernel.Cross).
func (s S4VM) Fit(ctx context.Context, X *mat.Dense, y []int) (*Model, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if X == nil || X.IsEmpty() {
		return nil, fmt.Errorf("%w: no rows in X", ErrShape)
	}
	r, c := X.Dims()
	for i := range r {
		for j := range c {
			if v := X.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	k := s.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	K, err := kernel.Gram(ctx, nil, k, X)
	if err != nil {
		return nil, err
	}
	return s.FitGram(ctx, K, y)
}

// FitGram runs S4VM on the n×n kernel matrix K over all rows, labels y
// (a class ≥ 0, or learner.Unlabeled). Two classes give one binary S4VM
// (the lower class is +1); more give one S4VM per pair of classes (the
// rows labelled with the two classes plus every unlabelled row) and
// max-wins voting, ties to the lower class.
func (s S4VM) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	return s.fitGram(ctx, K, y, true)
}

// Transduce runs S4VM on K and y as FitGram does and returns only the
// transductive labels (Model.Transduction): the predictor SVMs that
// Model.Predict needs are not trained. It is what a caller that labels
// only the given rows wants (HiBUST's node learner).
func (s S4VM) Transduce(ctx context.Context, K mat.Symmetric, y []int) ([]int, error) {
	m, err := s.fitGram(ctx, K, y, false)
	if err != nil {
		return nil, err
	}
	return m.trans, nil
}

func (s S4VM) fitGram(ctx context.Context, K mat.Symmetric, y []int, predictor bool) (*Model, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	src, n, err := gramSource(ctx, K)
	if err != nil {
		return nil, err
	}
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrShape, len(y), n)
	}
	var classes []int
	var unl []int
	for i, v := range y {
		switch {
		case v == learner.Unlabeled:
			unl = append(unl, i)
		case v < 0:
			return nil, fmt.Errorf("%w: y[%d] = %d (labels are ≥ 0, or −1 for unlabelled)", ErrBadLabel, i, v)
		default:
			classes = append(classes, v)
		}
	}
	slices.Sort(classes)
	classes = slices.Compact(classes)
	for _, c := range s.Classes {
		if _, ok := slices.BinarySearch(classes, c); !ok {
			return nil, fmt.Errorf("%w: class %d", ErrNoLabel, c)
		}
	}
	if len(classes) < 2 {
		if len(classes) == 0 {
			return nil, fmt.Errorf("%w: no labelled row", ErrOneClass)
		}
		return nil, fmt.Errorf("%w: every labelled row is class %d", ErrOneClass, classes[0])
	}
	set := s.resolve()
	m := &Model{classes: classes, n: n, Converged: true}
	if len(unl) == 0 {
		m.Warnings = append(m.Warnings, fmt.Errorf("%w: S4VM is the inductive SVM (C1 = %v)", ErrAllLabeled, set.c1))
	}
	// One binary problem per pair of classes.
	type pairJob struct {
		a, b int
		rows []int
		lab  []int8
	}
	var jobs []pairJob
	for a := range classes {
		for b := a + 1; b < len(classes); b++ {
			j := pairJob{a: a, b: b}
			for i, v := range y {
				if v == classes[a] || v == classes[b] {
					j.rows = append(j.rows, i)
					if v == classes[a] {
						j.lab = append(j.lab, 1)
					} else {
						j.lab = append(j.lab, -1)
					}
				}
			}
			j.rows = append(j.rows, unl...)
			jobs = append(jobs, j)
		}
	}
	total := len(jobs) * set.candidates(len(unl))
	// Candidates finish on several goroutines: the count and the call to
	// s.Progress are serialised, so the callback runs on one goroutine at
	// a time and sees done = 1, 2, ..., total in order.
	var mu sync.Mutex
	done := 0
	progress := func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		if s.Progress != nil {
			s.Progress("s4vm", done, total)
		}
	}
	bins := make([]*bin, len(jobs))
	drs := make([]draws, len(jobs))
	for p, j := range jobs {
		bins[p] = &bin{src: src, rows: j.rows, n: len(j.rows), l: len(j.lab), lab: j.lab, set: set, noMachine: !predictor}
		drs[p] = pcgDraws(set.seed, uint64(p))
	}
	results, err := runPairs(ctx, bins, drs, progress)
	if err != nil {
		return nil, err
	}
	votes := make([][]int, len(unl))
	for j := range votes {
		votes[j] = make([]int, len(classes))
	}
	for p, j := range jobs {
		res := results[p]
		res.pair.Pos, res.pair.Neg = j.a, j.b
		res.machine.Pos, res.machine.Neg = j.a, j.b
		m.Pairs = append(m.Pairs, res.pair)
		m.Machines = append(m.Machines, res.machine)
		m.Iter += res.pair.Iter
		m.Converged = m.Converged && res.pair.Converged
		for _, w := range res.warnings {
			m.Warnings = append(m.Warnings, fmt.Errorf("classes %d vs %d: %w", classes[j.a], classes[j.b], w))
		}
		l := len(j.lab)
		for k := range unl {
			if res.labels[l+k] > 0 {
				votes[k][j.a]++
			} else {
				votes[k][j.b]++
			}
		}
	}
	m.trans = slices.Clone(y)
	for k, i := range unl {
		m.trans[i] = classes[argmax(votes[k])]
	}
	return m, nil
}

func argmax(v []int) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// candidates is the number of local descents per binary problem (the
// inductive SVM's own candidate is counted when it is run).
func (r resolved) candidates(u int) int {
	if u == 0 {
		return 0
	}
	return r.samples + 1
}

// draws gives a candidate its starting assignment of the unlabelled rows
// and its local-descent changer.
type draws func(cand int) (start func(dst, ysvm []int8), chg changer)

// pcgDraws is the default randomness: candidate i of pair p draws from
// PCG(seed, p·2³² + i + 1): the unlabelled labels (uniform ±1 for the
// first 80 % of candidates, the inductive labels with 20 % flipped for the
// rest), then the rows kept in each step.
func pcgDraws(seed, pair uint64) draws {
	return func(cand int) (func(dst, ysvm []int8), changer) {
		r := rand.New(rand.NewPCG(seed, pair<<32|uint64(cand+1)))
		return func(dst, ysvm []int8) {
			for j := range dst {
				v := r.Float64()
				if ysvm == nil {
					dst[j] = -1
					if v > 0.5 {
						dst[j] = 1
					}
				} else {
					dst[j] = ysvm[j]
					if v > 0.8 {
						dst[j] = -ysvm[j]
					}
				}
			}
		}, pcgChanger(r)
	}
}

// gramSource validates K (finite; a *mat.SymDense is read in place, its
// lower triangle used when it mirrors the upper one) and returns it as the
// source of every fit: with the float32 block of all of K when that has at
// most maxBlock32 entries (see gramBlock).
func gramSource(ctx context.Context, K mat.Symmetric) (smo.Source, int, error) {
	if K == nil || K.SymmetricDim() == 0 {
		return nil, 0, fmt.Errorf("%w: empty kernel matrix", ErrShape)
	}
	n := K.SymmetricDim()
	var src smo.Source = smo.SymGram{M: K}
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		g := &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: n, Mirrored: true}
		for i := range n {
			for j := i; j < n; j++ {
				v := raw.Data[i*raw.Stride+j]
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, 0, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, j, v)
				}
				if raw.Data[j*raw.Stride+i] != v {
					g.Mirrored = false
				}
			}
		}
		src = g
	} else {
		for i := range n {
			for j := i; j < n; j++ {
				if v := K.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, 0, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, j, v)
				}
			}
		}
	}
	if n*n > maxBlock32 {
		return src, n, nil
	}
	blk, err := newGramBlock(ctx, src, n)
	if err != nil {
		return nil, 0, err
	}
	return blk, n, nil
}

// maxBlock32 bounds the entries of the float32 kernel block (256 MiB);
// larger kernels fill cache columns from the source.
const maxBlock32 = 1 << 26

// gramBlock is a Source that holds float32(K) of all n rows (row-major,
// shared read-only by every fit of every class pair): Fill gathers from
// it, the same values as converting the source's float64 entries, instead
// of re-reading and converting the source for each column of each fit.
// Fill64 and At read the float64 source.
type gramBlock struct {
	src smo.Source
	n   int
	m32 []float32
}

// newGramBlock fills the block in parallel by rows (each row by one
// worker). The block is asked of the OS in huge pages where it offers them
// (internal/hugepage): column fills read its rows at random, and 4 KiB
// pages would cost a TLB miss on most of them.
func newGramBlock(ctx context.Context, src smo.Source, n int) (*gramBlock, error) {
	m := hugepage.Float32s(n * n)
	const rowsPer = 64
	err := parallel.For(ctx, (n+rowsPer-1)/rowsPer, func(k int) {
		cols := identity(n)
		for r := k * rowsPer; r < min((k+1)*rowsPer, n); r++ {
			src.Fill(m[r*n:(r+1)*n], r, cols)
		}
	})
	if err != nil {
		return nil, err
	}
	return &gramBlock{src: src, n: n, m32: m}, nil
}

func (g *gramBlock) At(r, c int) float64                     { return g.src.At(r, c) }
func (g *gramBlock) Fill64(dst []float64, r int, cols []int) { g.src.Fill64(dst, r, cols) }
func (g *gramBlock) Fill(dst []float32, r int, cols []int) {
	row := g.m32[r*g.n : (r+1)*g.n]
	dst = dst[:len(cols)]
	// Four at a time: independent loads, one bounds check of dst.
	t := 0
	for ; t+4 <= len(cols); t += 4 {
		c := cols[t : t+4 : t+4]
		d := dst[t : t+4 : t+4]
		d[0], d[1], d[2], d[3] = row[c[0]], row[c[1]], row[c[2]], row[c[3]]
	}
	for ; t < len(cols); t++ {
		dst[t] = row[cols[t]]
	}
}

// base returns the kernel on the problem's rows in their order (n×n
// float32, row a holding K(rows[a], rows[b]) for every b) when the source
// is a float32 block, the candidates warm-start and the matrix takes no
// more than one candidate's column cache budget; otherwise nil. Every
// candidate's descent starts with its variables in this order, and its
// first solve reads nearly every column before shrinking first permutes
// them: lent this matrix (smo.Cache.Lend), the candidates read those
// columns in place instead of each gathering them from the block.
//
// The matrix is taken from pool when one there is large enough (the
// matrix of a finished problem, every entry overwritten here); nil pool
// allocates.
func (b *bin) base(pool *bufPool) []float32 {
	blk, ok := b.src.(*gramBlock)
	n := b.n
	if !ok || b.set.cold || 4*float64(n)*float64(n) > b.set.cacheMB*(1<<20) {
		return nil
	}
	var m []float32
	if pool != nil {
		m = pool.takeBase(n * n)
	}
	if m == nil {
		m = hugepage.Float32s(n * n)
	}
	for a, r := range b.rows {
		blk.Fill(m[a*n:(a+1)*n], r, b.rows)
	}
	return m
}

func identity(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// binResult is the outcome of one binary problem.
type binResult struct {
	labels   []int8 // n, labelled rows keep theirs
	pair     Pair
	machine  Machine
	warnings []error
}

// run is S4VM on one binary problem (runPairs with one pair).
func (b *bin) run(ctx context.Context, dr draws, progress func()) (binResult, error) {
	res, err := runPairs(ctx, []*bin{b}, []draws{dr}, progress)
	if err != nil {
		return binResult{}, err
	}
	return res[0], nil
}

// runPairs runs S4VM on every binary problem, all on one pool of
// goroutines: the tasks are (problem, candidate slot) in problem order,
// handed out in that order, so the problems overlap only at their ends
// and few are in memory at once. The first task of a problem to start
// trains its inductive SVM (the others of that problem wait for it); the
// last to finish groups the candidates, combines them and trains the
// predictor. Every candidate's descent depends only on its problem and its
// draws, and everything across candidates is combined in candidate order,
// so the results do not depend on the number of goroutines. It returns
// the first error in problem order.
func runPairs(ctx context.Context, bins []*bin, drs []draws, progress func()) ([]binResult, error) {
	runs := make([]*pairRun, len(bins))
	pool := &bufPool{}
	var tasks []int // first task of each problem, then the total
	total := 0
	for p, b := range bins {
		runs[p] = &pairRun{b: b, dr: drs[p], pool: pool}
		tasks = append(tasks, total)
		slots := 1
		if b.n > b.l {
			slots = b.set.samples + 1
		}
		runs[p].left.Store(int32(slots))
		total += slots
	}
	err := parallel.For(ctx, total, func(t int) {
		p, _ := slices.BinarySearch(tasks, t+1)
		p--
		runs[p].task(ctx, t-tasks[p], progress)
	})
	out := make([]binResult, len(bins))
	for p, r := range runs {
		if r.err != nil {
			return nil, r.err
		}
		if err != nil {
			return nil, err
		}
		out[p] = r.res
	}
	return out, nil
}

// pairRun is the state of one binary problem while its candidates run.
type pairRun struct {
	b    *bin
	dr   draws
	pool *bufPool
	left atomic.Int32 // slots not yet finished

	once sync.Once
	// Set by prepare (under once).
	ysvm []int8
	nc   int // candidates run (samples, +1 for the inductive start)
	cs   []float64
	bal  balance
	// base is the kernel on the problem's rows in their order, lent to
	// the candidates' column caches (smo.Cache.Lend), or nil.
	base []float32

	mu    sync.Mutex
	err   error // the first error (of prepare, a candidate or finish)
	cands []descent
	stats []fitStats
	res   binResult
}

// fitStats are a candidate's fitter counters.
type fitStats struct {
	iter, fits int
	conv       bool
}

func (r *pairRun) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
}

func (r *pairRun) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err != nil
}

// task runs candidate slot i (the inductive start is slot samples): it
// prepares the problem first if no slot has, and finishes it if it is the
// last slot.
func (r *pairRun) task(ctx context.Context, i int, progress func()) {
	r.once.Do(func() {
		if err := r.prepare(ctx); err != nil {
			r.fail(err)
		}
	})
	b := r.b
	if b.n > b.l {
		if i < r.nc && !r.failed() {
			if err := r.candidate(ctx, i); err != nil {
				r.fail(err)
			}
		}
		// A slot not run (the inductive start when the inductive SVM
		// labels every row alike) is counted so that done reaches the
		// total.
		progress()
	}
	if r.left.Add(-1) == 0 && !r.failed() {
		if err := r.finish(ctx); err != nil {
			r.fail(err)
		}
	}
}

// prepare trains the inductive SVM and sets up the candidates.
func (r *pairRun) prepare(ctx context.Context) error {
	b := r.b
	set := b.set
	n, l := b.n, b.l
	r.res = binResult{pair: Pair{Converged: true}}
	ysvm, it, ok, err := b.inductive(ctx)
	if err != nil {
		return err
	}
	r.ysvm = ysvm
	r.res.pair.Iter += it
	r.conv(ok, "inductive SVM")
	r.res.pair.Inductive = make([]int8, n-l)
	copy(r.res.pair.Inductive, ysvm[l:])
	if n == l {
		return nil
	}
	pos, neg := false, false
	for _, v := range ysvm[l:] {
		pos, neg = pos || v > 0, neg || v < 0
	}
	r.nc = set.samples
	if pos && neg {
		r.nc++
	}
	r.cands = make([]descent, r.nc)
	r.stats = make([]fitStats, r.nc)
	r.cs = make([]float64, n)
	for i := range r.cs {
		r.cs[i] = set.c2
		if i < l {
			r.cs[i] = set.c1
		}
	}
	r.bal = newBalance(n, b.lab)
	r.base = b.base(r.pool)
	return nil
}

func (r *pairRun) conv(ok bool, what string) {
	if !ok {
		r.res.pair.Converged = false
		r.res.warnings = append(r.res.warnings, fmt.Errorf("%w: %s", ErrNotConverged, what))
	}
}

// candidate runs the local descent of candidate i.
func (r *pairRun) candidate(ctx context.Context, i int) error {
	b := r.b
	n, l, T := b.n, b.l, b.set.samples
	ft := r.pool.fitter(b.source(), b.rows, r.cs, b.set.tol, b.set.cacheMB, b.set.cold, r.base)
	defer r.pool.idle(ft)
	startFn, chg := r.dr(i)
	ft.scratch.resize(n, n-l)
	start := ft.scratch.start
	if i == T {
		copy(start, r.ysvm)
	} else {
		copy(start, b.lab)
		var base []int8
		if float64(i+1) > float64(T)*0.8 {
			base = r.ysvm[l:]
		}
		startFn(start[l:], base)
	}
	d, err := b.localDescent(ctx, ft, r.bal, start, chg, b.set.maxSteps)
	if err != nil {
		return err
	}
	r.cands[i] = d
	r.stats[i] = fitStats{iter: ft.iter, fits: ft.fits, conv: ft.conv}
	return nil
}

// finish groups the candidates, keeps the best of each group, combines
// them safely and trains the predictor.
func (r *pairRun) finish(ctx context.Context) error {
	b := r.b
	l := b.l
	res := &r.res
	final := make([]int8, b.n)
	copy(final, b.lab)
	if b.n == l {
		res.pair.Fallback = true
	} else {
		for i, c := range r.cands {
			st := r.stats[i]
			res.pair.Iter += st.iter
			res.pair.Fits += st.fits
			res.pair.Steps += c.steps
			r.conv(st.conv, fmt.Sprintf("candidate %d", i))
		}
		res.pair.Candidates = r.nc
		// 3. Group the candidates; keep the best of each group.
		kept, groups := group(r.cands, b.set.groups)
		res.pair.Groups = groups
		sep := make([][]int8, len(kept))
		for t, c := range kept {
			sep[t] = r.cands[c].labels[l:]
		}
		// 4. The safe combination.
		res.pair.Theta, res.pair.Fallback = safeCombine(final[l:], sep, r.ysvm[l:], b.set.lambda)
		r.cands, r.stats = nil, nil
	}
	res.labels = final
	// Every candidate has finished: their caches' buffers serve the
	// predictor and the next problems.
	r.pool.drop(b.source(), b.rows, b.set.cacheMB)
	if r.base != nil {
		r.pool.putBase(r.base)
		r.base = nil
	}
	if b.noMachine {
		return nil
	}
	// The predictor: an SVM on all rows with the final labels.
	mc, it, ok, err := b.machine(ctx, final, r.pool)
	if err != nil {
		return err
	}
	res.pair.Iter += it
	r.conv(ok, "final SVM")
	res.machine = mc
	return nil
}

// group clusters the candidate label vectors by k-medoids (L1) into
// min(k, distinct vectors) groups and returns the best candidate (largest
// objective, first on ties) of each group, in group order.
func group(cands []descent, k int) (kept []int, groups int) {
	m := len(cands)
	distinct := 0
	for i := range cands {
		dup := false
		for j := range i {
			if slices.Equal(cands[i].labels, cands[j].labels) {
				dup = true
				break
			}
		}
		if !dup {
			distinct++
		}
	}
	k = min(k, distinct)
	idx := make([]int, m)
	if k > 1 {
		d := make([]float64, m*m)
		for i := range m {
			for j := i + 1; j < m; j++ {
				s := 0
				for t, v := range cands[i].labels {
					if v != cands[j].labels[t] {
						s += 2
					}
				}
				d[i*m+j], d[j*m+i] = float64(s), float64(s)
			}
		}
		idx, _ = pam(d, m, k)
	} else {
		k = 1
	}
	kept = make([]int, k)
	for g := range kept {
		kept[g] = -1
	}
	for i, g := range idx {
		if kept[g] < 0 || cands[i].obj > cands[kept[g]].obj {
			kept[g] = i
		}
	}
	return kept, k
}

// inductive trains the C-SVC with C1 on the labelled rows (LIBSVM's order:
// the class of row 0 first) and returns its labels on all n rows with
// LIBSVM's rule (label of row 0 when the decision value is > 0).
func (b *bin) inductive(ctx context.Context) ([]int8, int, bool, error) {
	l := b.l
	c := make([]float64, l)
	for i := range c {
		c[i] = b.set.c1
	}
	ft := newFitter(b.source(), b.rows[:l], c, b.set.tol, b.set.cacheMB, true)
	_, sv, coef, rho, it, ok, err := ft.solveOrdered(ctx, b.lab)
	if err != nil {
		return nil, 0, false, err
	}
	src := b.source()
	y := make([]int8, b.n)
	buf := make([]float64, len(sv))
	for i, r := range b.rows {
		src.Fill64(buf, r, sv)
		s := 0.0
		for t, v := range buf {
			s += coef[t] * v
		}
		if s-rho > 0 {
			y[i] = b.lab[0]
		} else {
			y[i] = -b.lab[0]
		}
	}
	return y, it, ok, nil
}

// machine trains the predictor: a C-SVC on all rows with labels y (C1 on
// labelled rows, C2 on unlabelled), oriented so that f > 0 means +1. Its
// column cache takes its buffers from pool and gives them back (nil: new
// memory).
func (b *bin) machine(ctx context.Context, y []int8, pool *bufPool) (Machine, int, bool, error) {
	n := b.n
	c := make([]float64, n)
	for i := range c {
		c[i] = b.set.c2
		if i < b.l {
			c[i] = b.set.c1
		}
	}
	ft := newFitter(b.source(), b.rows, c, b.set.tol, b.set.cacheMB, true)
	ft.pool = pool
	_, sv, coef, rho, it, ok, err := ft.solveOrdered(ctx, y)
	if err != nil {
		return Machine{}, 0, false, err
	}
	// solveOrdered's decision values are oriented to y[0]'s class.
	if y[0] < 0 {
		for t := range coef {
			coef[t] = -coef[t]
		}
		rho = -rho
	}
	mc := Machine{Rho: rho}
	mc.SV = append(mc.SV, sv...)
	mc.Coef = append(mc.Coef, coef...)
	// Support vectors in increasing training row order.
	perm := identity(len(mc.SV))
	slices.SortFunc(perm, func(a, c int) int { return mc.SV[a] - mc.SV[c] })
	svs, cf := make([]int, len(perm)), make([]float64, len(perm))
	for k, p := range perm {
		svs[k], cf[k] = mc.SV[p], mc.Coef[p]
	}
	mc.SV, mc.Coef = svs, cf
	return mc, it, ok, nil
}

// solveOrdered is one LIBSVM fit on the fitter's rows with labels y: rows
// grouped by class (the class of row 0 first, internal +1), α = 0. It
// returns the support vectors (rows of the source), their coefficients y_iα_i
// and ρ, in the orientation "f > 0 means y[0]'s class". The column cache
// takes its buffers from ft.pool, if set, and gives them back.
func (ft *fitter) solveOrdered(ctx context.Context, y []int8) (order []int, sv []int, coef []float64, rho float64, iter int, ok bool, err error) {
	l := len(ft.rows)
	for _, first := range []bool{true, false} {
		for i := range l {
			if (y[i] == y[0]) == first {
				order = append(order, i)
			}
		}
	}
	rows := make([]int, l)
	yy := make([]int8, l)
	cc := make([]float64, l)
	for k, i := range order {
		rows[k] = ft.rows[i]
		yy[k] = 1
		if y[i] != y[0] {
			yy[k] = -1
		}
		cc[k] = ft.c[i]
	}
	alpha := make([]float64, l)
	var q *smo.Cache
	if ft.pool != nil {
		q = ft.pool.cache(ft.src, rows, ft.mb)
		defer ft.pool.putCache(q)
	} else {
		q = smo.NewCache(ft.src, rows, ft.mb)
	}
	res, err := smo.Solve(ctx, &smo.Problem{Q: q, P: ft.p, Y: yy, C: cc, Alpha: alpha,
		Tol: ft.tol, Shrink: true, Serial: ft.serial})
	if err != nil {
		return nil, nil, nil, 0, 0, false, err
	}
	for k, a := range alpha {
		if a > 0 {
			sv = append(sv, rows[k])
			coef = append(coef, float64(yy[k])*a)
		}
	}
	ft.lastObj = res.Obj
	return order, sv, coef, res.Rho, res.Iter, res.Converged, nil
}

// WorkBytes estimates the memory a fit of s on n rows of classes classes
// holds at its peak besides the caller's float64 Gram matrix, with procs
// candidates running at once (GOMAXPROCS): the live heap of LiveBytes and
// the collector's share (heapSlack), the memory the fit allocates and
// drops per class pair, which stays in the heap until the collector runs.
// That share is the Go runtime's slack, not a margin: the collector starts
// a cycle when the heap reaches twice the live heap of the previous cycle
// (GOGC=100), so the dropped memory adds to the peak up to that bound.
func (s S4VM) WorkBytes(n, classes, procs int) float64 {
	set := s.resolve()
	live := s.LiveBytes(n, classes, procs)
	pairs := max(classes*(classes-1)/2, 1)
	return live + heapSlack(n, pairs, set.samples, 8*float64(n)*float64(n)+live)
}

// LiveBytes is the largest live heap of a fit of s on n rows of classes
// classes besides the caller's float64 Gram matrix, with procs candidates
// running at once: the float32 kernel block, 4·n² when n² ≤ 2²⁶; the
// float32 matrix of each running class pair's m ≤ n rows (bin.base),
// 4·m², when it fits a cache budget (CacheMB), for min(procs, pairs)
// pairs; and every running candidate's column cache, filled up to its
// budget or to m columns, min(CacheMB MiB, 4·m²). A pair's rows are
// counted as n, an upper bound.
func (s S4VM) LiveBytes(n, classes, procs int) float64 {
	set := s.resolve()
	nn := 4 * float64(n) * float64(n)
	pairs := max(classes*(classes-1)/2, 1)
	p := max(procs, 1)
	budget := set.cacheMB * (1 << 20)
	var live float64
	if float64(n)*float64(n) <= maxBlock32 {
		live += nn
	}
	if nn <= budget {
		live += float64(min(p, pairs)) * nn
	}
	return live + float64(p)*math.Min(budget, nn)
}

// heapSlack is the memory a fit of pairs class pairs of m rows each, with
// samples candidates per pair, drops while it runs (the collector frees
// it): per pair, the candidates' label vectors ((samples+1)·m) and the
// distances that group them (8·(samples+1)²), and dropPerRow bytes per
// row. Go's collector lets the heap grow to twice the live heap (GOGC=100)
// before it collects, so the slack is capped at live, the live heap with
// the caller's Gram matrix.
func heapSlack(m, pairs, samples int, live float64) float64 {
	c := float64(samples + 1)
	per := (dropPerRow+c)*float64(m) + 8*c*c
	return math.Min(float64(pairs)*per, live)
}

// dropPerRow is what a class pair drops per row besides the candidates'
// labels: the predictor SVM's solver arrays, gradient, order, bounds and α
// and its column cache's index arrays, the lists of pooled column buffers
// the pair's caches take and give back, the warm solvers' arrays. It is
// measured: bench/s4vm/digits allocates 110.4 MiB in FitGram over 45
// pairs of 1,717 rows, of which about 70 MiB stays live (the float32
// block, two pairs' matrices and the cache slabs, each with the 2 MiB of
// its huge-page alignment), so each pair drops about 0.9 MiB: 400 bytes a
// row with the labels and distances of 101 candidates besides.
const dropPerRow = 400
