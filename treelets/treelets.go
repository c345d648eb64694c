package treelets

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/arbor-ml/arbor/internal/hugepage"
	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Errors returned by the package (wrapped with details; test with errors.Is).
var (
	// ErrBadParam: a setting is out of range (λ < 0 or not finite, an
	// unknown similarity rule, a sample size outside 2..n, ...).
	ErrBadParam = errors.New("treelets: invalid settings")
	// ErrMatrix: the input matrix is not square, not symmetric, has a
	// non-finite entry or a diagonal entry ≤ 0.
	ErrMatrix = errors.New("treelets: invalid matrix")
	// ErrK: a cut into K clusters with K outside 1..n, or a level outside
	// 0..n−1.
	ErrK = errors.New("treelets: invalid number of clusters or level")
)

// Similarity is the rule that scores a pair of active variables; the pair
// with the largest score is rotated and merged (see the package doc).
type Similarity int

const (
	// Abs is the paper's rule: M_ij = |A_ij| / sqrt(A_ii·A_jj) + λ|A_ij|.
	Abs Similarity = iota
	// Signed is R's treelet (Run_JTree) rule:
	// M_ij = A_ij / sqrt(A_ii·A_jj) + λ|A_ij|.
	Signed
	// Raw is the kernel treelets authors' entry rule: M_ij = A_ij + λ|A_ij|,
	// applied to active indices only.
	Raw
)

// String returns the rule's name as ParseSimilarity reads it.
func (s Similarity) String() string {
	switch s {
	case Abs:
		return "abs"
	case Signed:
		return "signed"
	case Raw:
		return "raw"
	}
	return fmt.Sprintf("Similarity(%d)", int(s))
}

// ParseSimilarity reads "abs", "signed" or "raw".
func ParseSimilarity(s string) (Similarity, error) {
	switch s {
	case "abs":
		return Abs, nil
	case "signed":
		return Signed, nil
	case "raw":
		return Raw, nil
	}
	return 0, fmt.Errorf("%w: similarity %q, want abs, signed or raw", ErrBadParam, s)
}

// Settings of a treelets run. The zero value is the paper's algorithm with
// λ = 0 and the Abs rule.
type Settings struct {
	// Lambda ≥ 0 weighs |A_ij| into the similarity (the paper's λ; 0 in
	// all its experiments).
	Lambda float64
	// Similarity is the pair rule (default Abs).
	Similarity Similarity
	// Progress, if not nil, is called with stage "treelets" and the number
	// of levels done out of n−1, about a hundred times per run.
	Progress func(stage string, done, total int)
}

// Validate checks the settings.
func (s Settings) Validate() error {
	if !(s.Lambda >= 0) || math.IsInf(s.Lambda, 1) {
		return fmt.Errorf("%w: lambda = %v, want a finite value ≥ 0", ErrBadParam, s.Lambda)
	}
	if s.Similarity < Abs || s.Similarity > Raw {
		return fmt.Errorf("%w: similarity %v, want abs, signed or raw", ErrBadParam, s.Similarity)
	}
	return nil
}

// Level is one merge of the treelets hierarchy: the Jacobi rotation of the
// (Sum, Diff) plane at that level and the similarity that chose the pair.
// After the rotation A_{Diff,Diff} ≤ A_{Sum,Sum}; Sum stays active (the sum
// or scaling variable) and Diff leaves the active set (the difference or
// detail variable). The basis vectors change as
//
//	φ_Sum  ← Cos·φ_Sum + Sin·φ_Diff
//	φ_Diff ← −Sin·φ_Sum + Cos·φ_Diff
//
// (a rotation by the angle θ with cos θ = Cos, sin θ = Sin, |θ| ≤ π/4 in
// the plane ordered (Sum, Diff) as the two variables' indices are).
type Level struct {
	Sum, Diff  int
	Similarity float64
	Cos, Sin   float64
}

// Model is a fitted treelets hierarchy over n variables (or points, for a
// kernel matrix). It is immutable.
type Model struct {
	// N is the number of variables.
	N int
	// Lambda and Similarity are the settings it was fitted with.
	Lambda     float64
	Similarity Similarity
	// Levels are the n−1 merges in order.
	Levels []Level
	// Variance is the final diagonal of A: the variance (for a kernel
	// matrix, the squared norm) of each final basis coordinate.
	Variance []float64
}

// Similarities returns the similarity of each level's merge, in order.
// They are not monotone in general.
func (m *Model) Similarities() []float64 {
	out := make([]float64, len(m.Levels))
	for i, l := range m.Levels {
		out[i] = l.Similarity
	}
	return out
}

// Fit runs treelets on a copy of the symmetric matrix A (n ≥ 2; any
// mat.Matrix: a non-Symmetric one is checked for symmetry within
// 1e-10·max|A|). A itself is not modified.
func (s Settings) Fit(ctx context.Context, A mat.Matrix) (*Model, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	r, c := A.Dims()
	if r != c {
		return nil, fmt.Errorf("%w: %d×%d, want a square matrix", ErrMatrix, r, c)
	}
	n := r
	buf := hugepage.Float64s(n * n)
	if sym, ok := A.(mat.Symmetric); ok {
		if sd, ok := sym.(*mat.SymDense); ok {
			raw := sd.RawSymmetric()
			for i := 0; i < n; i++ {
				copy(buf[i*n+i:i*n+n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
			}
		} else {
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					buf[i*n+j] = sym.At(i, j)
				}
			}
		}
		mirror(buf, n, n)
	} else {
		var amax float64
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := A.At(i, j)
				buf[i*n+j] = v
				if a := math.Abs(v); a > amax {
					amax = a
				}
			}
		}
		tol := 1e-10 * amax
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if d := math.Abs(buf[i*n+j] - buf[j*n+i]); d > tol || math.IsNaN(d) {
					return nil, fmt.Errorf("%w: not symmetric: A[%d,%d] = %v but A[%d,%d] = %v", ErrMatrix, i, j, buf[i*n+j], j, i, buf[j*n+i])
				}
			}
		}
		mirror(buf, n, n)
	}
	return s.run(ctx, buf, n, n, false)
}

// FitInPlace runs treelets on A's own storage, the one n×n buffer of the
// run: on return (also on error or cancellation) A holds the rotated
// matrix, on success A^{(n−1)} = B_{n−1}ᵀ A B_{n−1}, with both triangles of
// its storage written. Use it for large n, where a second n×n copy would
// not fit.
func (s Settings) FitInPlace(ctx context.Context, A *mat.SymDense) (*Model, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	raw := A.RawSymmetric()
	n := raw.N
	if raw.Uplo != 'U' && raw.Uplo != 'L' {
		return nil, fmt.Errorf("%w: storage", ErrMatrix)
	}
	if raw.Uplo == 'L' {
		// gonum's SymDense is upper; handle lower by mirroring the other way
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				raw.Data[j*raw.Stride+i] = raw.Data[i*raw.Stride+j]
			}
		}
	}
	mirror(raw.Data, n, raw.Stride)
	return s.run(ctx, raw.Data, n, raw.Stride, true)
}

// fitFull is FitInPlace for a matrix whose storage already holds both
// triangles (as Gram.Sym writes them) and that the caller discards
// afterwards: no mirroring pass (at n = 10 000 a strided 800 MB transpose)
// and no final repair of the entries between inactive variables, so on
// return A is scratch.
func (s Settings) fitFull(ctx context.Context, A *mat.SymDense) (*Model, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	raw := A.RawSymmetric()
	return s.run(ctx, raw.Data, raw.N, raw.Stride, false)
}

// mirror copies the upper triangle of the n×n row-major a (row stride st)
// into the lower one.
func mirror(a []float64, n, st int) {
	const b = 64
	for i0 := 0; i0 < n; i0 += b {
		for j0 := 0; j0 <= i0; j0 += b {
			for i := i0; i < min(n, i0+b); i++ {
				for j := j0; j < min(i, j0+b); j++ {
					a[i*st+j] = a[j*st+i]
				}
			}
		}
	}
}

// state is one run: the full symmetric matrix in a (row stride st), the
// active set and each active column's best partner.
type state struct {
	n, st  int
	a      []float64
	rule   Similarity
	lambda float64
	active []bool
	list   []int32   // active indices, increasing
	rs     []float64 // 1/sqrt(A_ii) for active i
	best   []int32   // best active partner of active i
	bval   []float64 // its similarity
	// Columns: a rotation rewrites rows p and q; the pass that follows
	// copies their entries into columns p and q of the active rows only
	// (two strided writes per active row and level; refreshing rows
	// lazily when scanned was measured 1.6–3× slower on RBF kernels).
	// Inactive rows go stale and are repaired by fixup. last[j] is the
	// level that last rotated row j, cur[i] the level at which row i was
	// last current; entry a[i][j] is right iff last[j] ≤ cur[i], and
	// otherwise a[j][i] is.
	last, cur []int32
	lev       int32 // levels done
	// keep: the whole rotated matrix is wanted at the end (FitInPlace);
	// otherwise a is scratch and only the active submatrix is maintained.
	keep bool
	// ids maps the positions in a to the variables' indices (the identity
	// until the first compaction; see compact).
	ids []int32
}

// compactMin: matrices smaller than this are not compacted (they sit in
// cache whole).
const compactMin = 128

// compact moves the active variables' submatrix to the front of the buffer
// as a dense L×L matrix (row stride L), keeping their order, and renames
// positions accordingly; it returns bi's new position. Only for a scratch buffer: the entries between
// inactive variables are dropped. Done when half the positions are
// inactive, it costs O(n²) copies over a whole run and makes every later
// scan contiguous and every later rotation O(L). The copy runs in place,
// row by row in increasing order: entry (r, c) is read from position
// list[r]·st + list[c] ≥ r·L + c, which no earlier write has reached.
func (s *state) compact(bi int) int {
	L := len(s.list)
	a, st := s.a, s.st
	for r, pr := range s.list {
		dst := a[r*L : r*L+L]
		src := a[int(pr)*st:]
		for c, pc := range s.list {
			dst[c] = src[pc]
		}
	}
	newpos := make([]int32, s.n)
	for i := range newpos {
		newpos[i] = -1
	}
	for r, pr := range s.list {
		newpos[pr] = int32(r)
	}
	for r, pr := range s.list {
		b := s.best[pr]
		if !(newpos[b] >= 0 && s.list[newpos[b]] == b) {
			panic("treelets: best partner of an active variable is not active")
		}
		s.ids[r], s.rs[r], s.bval[r], s.best[r] = s.ids[pr], s.rs[pr], s.bval[pr], newpos[b]
	}
	bi = int(newpos[bi])
	for r := range s.list {
		s.list[r] = int32(r)
	}
	s.n, s.st = L, L
	s.ids, s.rs, s.bval, s.best = s.ids[:L], s.rs[:L], s.bval[:L], s.best[:L]
	s.last, s.cur = s.last[:L], s.cur[:L]
	clear(s.last) // every row is current: refresh has nothing to copy
	for i := range s.cur {
		s.cur[i] = s.lev
	}
	return bi
}

// refresh makes row i current: every entry whose column was rotated after
// the row was last current is copied from that column's row, which is
// right because last[i] ≤ cur[i] < last[j] ≤ cur[j]. Two refreshes running
// at once never touch the same entry: row i reads a[j][i] only when
// last[j] > cur[i], and row j writes it only when last[i] > cur[j].
func (s *state) refresh(i int) {
	ci := s.cur[i]
	if ci == s.lev {
		return
	}
	a, st := s.a, s.st
	row := a[i*st : i*st+s.n]
	for j, lj := range s.last {
		if lj > ci {
			row[j] = a[j*st+i]
		}
	}
	s.cur[i] = s.lev
}

// sim is the similarity of the active pair (i, j). Both orders give the
// same bits: A is kept exactly symmetric and the products commute.
func (s *state) sim(i, j int) float64 {
	v := s.a[i*s.st+j]
	av := math.Abs(v)
	switch s.rule {
	case Abs:
		return av*(s.rs[i]*s.rs[j]) + s.lambda*av
	case Signed:
		return v*(s.rs[i]*s.rs[j]) + s.lambda*av
	default:
		return v + s.lambda*av
	}
}

// pairLess orders pairs for tie-breaking: by the larger index, then the
// smaller (R's column-major which() over the upper triangle).
func pairLess(i1, j1, i2, j2 int) bool {
	a1, b1 := max(i1, j1), min(i1, j1)
	a2, b2 := max(i2, j2), min(i2, j2)
	return a1 < a2 || a1 == a2 && b1 < b2
}

// better reports whether pair (i, j) with value v beats (i2, j2) with w.
func better(v float64, i, j int, w float64, i2, j2 int) bool {
	return v > w || v == w && pairLess(i, j, i2, j2)
}

// rescan finds the best active partner of active column i. Scanning j in
// increasing order with a strict comparison keeps the smallest pair key
// among ties (for fixed i the key order is the order of j). The loops are
// sim written out per rule (same expression, same bits).
func (s *state) rescan(i int) {
	s.refresh(i)
	row := s.a[i*s.st : i*s.st+s.n]
	rs, ri, lam := s.rs, s.rs[i], s.lambda
	bj, bv := -1, math.Inf(-1)
	switch s.rule {
	case Abs:
		for _, j32 := range s.list {
			j := int(j32)
			av := math.Abs(row[j])
			if v := av*(ri*rs[j]) + lam*av; (v > bv || bj < 0) && j != i {
				bj, bv = j, v
			}
		}
	case Signed:
		for _, j32 := range s.list {
			j := int(j32)
			a := row[j]
			if v := a*(ri*rs[j]) + lam*math.Abs(a); (v > bv || bj < 0) && j != i {
				bj, bv = j, v
			}
		}
	default:
		for _, j32 := range s.list {
			j := int(j32)
			a := row[j]
			if v := a + lam*math.Abs(a); (v > bv || bj < 0) && j != i {
				bj, bv = j, v
			}
		}
	}
	s.best[i], s.bval[i] = int32(bj), bv
}

const (
	parallelMin = 384 // fewer active columns than this: one goroutine
	chunk       = 256 // active columns per task of the fused pass
)

// argmaxChunk returns the active column in list whose (value, pair) is
// best.
func (s *state) argmaxChunk(list []int32) int {
	bi := -1
	for _, i32 := range list {
		i := int(i32)
		if bi < 0 || better(s.bval[i], i, int(s.best[i]), s.bval[bi], bi, int(s.best[bi])) {
			bi = i
		}
	}
	return bi
}

// update is the fused pass after the rotation of (p, q) into (sum, ·):
// for every active row i ≠ sum it writes columns p and q of row i (the
// rotated rows' entries, so that row i is current for its next scan:
// inactive rows are left stale and repaired by fixup), updates i's best
// partner (a full rescan only if that partner was p or q; otherwise one
// comparison with the new sum variable) and takes the best column of its
// chunk. The chunks' winners are combined in chunk order with sum's own
// (already rescanned) best, so the pick does not depend on the schedule.
func (s *state) update(ctx context.Context, p, q, sum int, cbest []int) int {
	a, st := s.a, s.st
	rsum := a[sum*st : sum*st+s.n]
	L := len(s.list)
	nch := (L + chunk - 1) / chunk
	body := func(t int) {
		lo, hi := t*chunk, min(L, (t+1)*chunk)
		for _, i32 := range s.list[lo:hi] {
			i := int(i32)
			if i == sum {
				continue
			}
			if s.keep {
				a[i*st+p], a[i*st+q] = a[p*st+i], a[q*st+i]
			} else {
				// the difference variable's column is never read again
				a[i*st+sum] = rsum[i]
			}
			s.cur[i] = s.lev
			b := int(s.best[i])
			v := rsum[i]
			var m float64
			av := math.Abs(v)
			switch s.rule {
			case Abs:
				m = av*(s.rs[i]*s.rs[sum]) + s.lambda*av
			case Signed:
				m = v*(s.rs[i]*s.rs[sum]) + s.lambda*av
			default:
				m = v + s.lambda*av
			}
			switch {
			case b != p && b != q:
				// the partner is untouched: only the new sum can beat it
				if better(m, i, sum, s.bval[i], i, b) {
					s.best[i], s.bval[i] = int32(sum), m
				}
			case m > s.bval[i] || m == s.bval[i] && b == sum:
				// the partner was rotated but the sum beats (or, under
				// the same name, equals) its old value, which bounded
				// every other entry of the column
				s.best[i], s.bval[i] = int32(sum), m
			default:
				s.rescan(i)
			}
		}
		cbest[t] = s.argmaxChunk(s.list[lo:hi])
	}
	if L < parallelMin {
		for t := 0; t < nch; t++ {
			body(t)
		}
	} else {
		_ = parallel.For(ctx, nch, body)
	}
	bi := -1
	for _, c := range cbest[:nch] {
		if c >= 0 && (bi < 0 || better(s.bval[c], c, int(s.best[c]), s.bval[bi], bi, int(s.best[bi]))) {
			bi = c
		}
	}
	return bi
}

// fixup makes the stored matrix exactly symmetric again at the end of a
// run (or on cancellation): for each pair the right entry (see state) is
// copied over the stale one.
func (s *state) fixup() {
	n, st, a := s.n, s.st, s.a
	last, cur := s.last, s.cur
	const b = 64
	_ = parallel.For(context.Background(), (n+b-1)/b, func(bi int) {
		i0 := bi * b
		for j0 := i0; j0 < n; j0 += b {
			for i := i0; i < min(n, i0+b); i++ {
				for j := max(j0, i+1); j < min(n, j0+b); j++ {
					if last[j] <= cur[i] {
						a[j*st+i] = a[i*st+j]
					} else {
						a[i*st+j] = a[j*st+i]
					}
				}
			}
		}
	})
}

// run is the treelets loop on the n×n matrix a (row stride stride, both
// triangles written). keep asks for the whole rotated matrix on return
// (FitInPlace); otherwise only the active variables' entries, which alone
// decide the merges, are kept current, and a is scratch.
func (st Settings) run(ctx context.Context, a []float64, n, stride int, keep bool) (*Model, error) {
	if n < 2 {
		return nil, fmt.Errorf("%w: %d×%d, want n ≥ 2", ErrMatrix, n, n)
	}
	for i := 0; i < n; i++ {
		d := a[i*stride+i]
		if !(d > 0) || math.IsInf(d, 1) {
			return nil, fmt.Errorf("%w: diagonal entry A[%d,%d] = %v, want a finite value > 0", ErrMatrix, i, i, d)
		}
	}
	s := &state{
		n: n, st: stride, a: a, rule: st.Similarity, lambda: st.Lambda,
		active: make([]bool, n), list: make([]int32, n), rs: make([]float64, n),
		best: make([]int32, n), bval: make([]float64, n),
		last: make([]int32, n), cur: make([]int32, n), ids: make([]int32, n), keep: keep,
	}
	for i := 0; i < n; i++ {
		s.active[i] = true
		s.list[i] = int32(i)
		s.ids[i] = int32(i)
		s.rs[i] = 1 / math.Sqrt(a[i*stride+i])
	}
	m := &Model{N: n, Lambda: st.Lambda, Similarity: st.Similarity, Levels: make([]Level, 0, n-1), Variance: make([]float64, n)}
	progress := st.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	progress("treelets", 0, n-1)
	every := max(1, (n-1)/100)
	// one pass over the rows: the finiteness of the off-diagonal entries
	// and each column's best partner, in parallel by rows (a row is read
	// once: checked, then scanned while in cache)
	bad := make([]int, n)
	first := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			bad[i] = -1
			for j, v := range a[i*stride : i*stride+n] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad[i] = j
					break
				}
			}
			if bad[i] < 0 {
				s.rescan(i)
			}
		}
	}
	if n < parallelMin {
		first(0, n)
	} else {
		_ = parallel.Chunks(ctx, n, chunk, first)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, j := range bad {
		if j >= 0 {
			return nil, fmt.Errorf("%w: A[%d,%d] = %v, want a finite value", ErrMatrix, i, j, a[i*stride+j])
		}
	}
	if keep {
		defer s.fixup()
	}
	// the first pick: serial scan of the column bests
	bi := s.argmaxChunk(s.list)
	nchunk := (n + chunk - 1) / chunk
	cbest := make([]int, nchunk) // per-chunk winners of the fused pass
	for lev := 0; lev < n-1; lev++ {
		if lev%32 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p, q := bi, int(s.best[bi])
		if p > q {
			p, q = q, p
		}
		simv := s.bval[bi]
		s.refresh(p)
		s.refresh(q)
		c, sn := s.rotate(p, q)
		s.lev = int32(lev + 1)
		s.last[p], s.last[q] = s.lev, s.lev
		s.cur[p], s.cur[q] = s.lev, s.lev
		sum, diff := p, q
		cs, ss := c, -sn
		a, stride := s.a, s.st
		if a[p*stride+p] < a[q*stride+q] {
			sum, diff = q, p
			ss = sn
		}
		m.Levels = append(m.Levels, Level{Sum: int(s.ids[sum]), Diff: int(s.ids[diff]), Similarity: simv, Cos: cs, Sin: ss})
		// a difference variable is never rotated again: its variance is final
		m.Variance[s.ids[diff]] = a[diff*stride+diff]
		s.active[diff] = false
		for k, v := range s.list {
			if int(v) == diff {
				s.list = append(s.list[:k], s.list[k+1:]...)
				break
			}
		}
		s.rs[sum] = 1 / math.Sqrt(a[sum*stride+sum])
		if len(s.list) > 1 {
			s.rescan(sum)
			bi = s.update(ctx, p, q, sum, cbest)
			if !keep && s.n >= compactMin && 2*len(s.list) <= s.n {
				bi = s.compact(bi)
			}
		}
		if (lev+1)%every == 0 || lev == n-2 {
			progress("treelets", lev+1, n-1)
		}
	}
	last := int(s.list[0]) // the top sum variable
	m.Variance[s.ids[last]] = s.a[last*s.st+last]
	return m, nil
}

// rotate applies the Jacobi rotation of the (p, q) plane (p < q) that
// zeroes A_pq, A ← G·A·Gᵀ with G = [[c, −s], [s, c]] on rows/columns p, q
// (Golub & Van Loan's JᵀAJ with J = Gᵀ; paper §2.1: b = (A_qq − A_pp) /
// (2A_pq), t = sign(b)/(|b| + sqrt(b² + 1)), sign(0) = −sign(A_pq),
// c = 1/sqrt(t² + 1), s = c·t). A_pq = 0 gives the identity. Returns c, s.
func (s *state) rotate(p, q int) (c, sn float64) {
	a, st, n := s.a, s.st, s.n
	app, aqq, e := a[p*st+p], a[q*st+q], a[p*st+q]
	if e == 0 {
		return 1, 0
	}
	b := (aqq - app) / (2 * e)
	// sign(b), with equal diagonals (b = 0) taken as −sign(A_pq), R's
	// choice: the rotated p is then (x_p + sign(A_pq)·x_q)/√2, the sum
	// variable, so the smaller index stays active
	sign := 1.0
	if b < 0 || b == 0 && e > 0 {
		sign = -1
	}
	t := sign / (math.Abs(b) + math.Sqrt(b*b+1))
	if math.IsInf(b, 0) {
		t = 0
	}
	c = 1 / math.Sqrt(t*t+1)
	sn = c * t
	rp := a[p*st : p*st+n]
	rq := a[q*st : q*st+n]
	// four entries per step (the same operations per entry as the plain
	// loop, so the same bits; fewer bounds checks and loop branches)
	j := 0
	for ; j+4 <= n; j += 4 {
		p4, q4 := rp[j:j+4:j+4], rq[j:j+4:j+4]
		x0, x1, x2, x3 := p4[0], p4[1], p4[2], p4[3]
		y0, y1, y2, y3 := q4[0], q4[1], q4[2], q4[3]
		p4[0], p4[1], p4[2], p4[3] = c*x0-sn*y0, c*x1-sn*y1, c*x2-sn*y2, c*x3-sn*y3
		q4[0], q4[1], q4[2], q4[3] = sn*x0+c*y0, sn*x1+c*y1, sn*x2+c*y2, sn*x3+c*y3
	}
	for ; j < n; j++ {
		x, y := rp[j], rq[j]
		rp[j] = c*x - sn*y
		rq[j] = sn*x + c*y
	}
	// the 2×2 block: diagonal by the accurate update, off-diagonal by the
	// full formula (zero up to rounding; kept so that tests can see it)
	off := c*sn*(app-aqq) + (c*c-sn*sn)*e
	rp[p], rq[q] = app-t*e, aqq+t*e
	rp[q], rq[p] = off, off
	return c, sn
}
