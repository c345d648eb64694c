package propagate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/arbor-ml/arbor/learner"
	"gonum.org/v1/gonum/mat"
)

// Model is a fitted transduction: scikit-learn's label_distributions_ and
// transduction_, with the solver's report. It follows the learner contract
// (package learner): its predictions on the training rows are the
// transductive labels (Transduction), and Predict labels new points by
// scikit-learn's out-of-sample rule from their affinities to the fitted
// rows. It is immutable.
type Model struct {
	// NClasses is the number of classes C (the columns of Distributions).
	NClasses int
	// Distributions is n×C: row i holds the class scores of point i
	// (label_distributions_). Single-label rows are normalised to sum 1;
	// multi-label rows hold the per-label harmonic scores in [0, 1]. Rows of
	// unreachable points are 0.
	Distributions *mat.Dense
	// transduction is the argmax class of each row (first on ties), or
	// learner.Unlabeled for an unreachable point (transduction_).
	transduction []int
	// Sets (multi-label fits only) lists the labels with score ≥ Threshold.
	Sets [][]int
	// Unreachable lists the unlabelled points no labelled point can reach
	// (only with Unreachable = UnreachableUnlabeled or UnreachableFirst;
	// otherwise they are an error).
	Unreachable []int
	// Method is the method used (Closed or Iterative).
	Method string
	// Iter is the number of iterations (scikit-learn's n_iter_ for
	// Iterative; conjugate-gradient or BiCGSTAB steps for Closed, 0 when
	// the direct envelope LU solved it).
	Iter int
	// Change is, for Iterative, Σ|F_t − F_{t−1}| of the last step; for
	// Closed, the largest relative residual ‖b − A·f‖/‖b‖ over the columns.
	Change float64
	// Converged reports Change < Tol within MaxIter.
	Converged bool
	// Warnings holds non-fatal problems (ErrNotConverged, unreachable
	// points left unlabelled).
	Warnings []error
}

// Result is the former name of Model.
//
// Deprecated: use Model.
type Result = Model

// problem is the labelled data shared by all methods.
type problem struct {
	n, C    int
	Y       []float64 // n×C: indicator rows of labelled points, 0 elsewhere
	labeled []bool
	multi   bool
}

func newProblem(y []int, sets [][]int, classes int, n int) (*problem, error) {
	p := &problem{n: n, labeled: make([]bool, n), multi: sets != nil}
	m := len(y)
	if sets != nil {
		m = len(sets)
	}
	if m != n {
		return nil, fmt.Errorf("%w: %d points, %d labels", ErrShape, n, m)
	}
	C := classes
	present := map[int]bool{}
	nl := 0
	add := func(i, c int) error {
		if c < 0 {
			return fmt.Errorf("%w: point %d has label %d (classes are ≥ 0, %d = unlabelled)", ErrBadLabel, i, c, learner.Unlabeled)
		}
		if classes > 0 && c >= classes {
			return fmt.Errorf("%w: point %d has label %d, Classes = %d", ErrBadLabel, i, c, classes)
		}
		present[c] = true
		if classes == 0 {
			C = max(C, c+1)
		}
		return nil
	}
	for i := 0; i < n; i++ {
		if sets != nil {
			if len(sets[i]) == 0 {
				continue
			}
			for _, c := range sets[i] {
				if err := add(i, c); err != nil {
					return nil, err
				}
			}
		} else {
			if y[i] == learner.Unlabeled {
				continue
			}
			if err := add(i, y[i]); err != nil {
				return nil, err
			}
		}
		p.labeled[i] = true
		nl++
	}
	if nl == 0 {
		return nil, ErrNoLabels
	}
	if nl == n {
		return nil, fmt.Errorf("%w: all %d points carry labels, nothing to propagate to", ErrNoUnlabeled, n)
	}
	if C < 2 && !p.multi {
		return nil, fmt.Errorf("%w: only class 0 is labelled", ErrOneClass)
	}
	var missing []string
	for c := 0; c < C; c++ {
		if !present[c] {
			missing = append(missing, fmt.Sprint(c))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%w: class %s of 0..%d", ErrEmptyClass, strings.Join(missing, ", "), C-1)
	}
	p.C = C
	p.Y = make([]float64, n*C)
	for i := 0; i < n; i++ {
		if !p.labeled[i] {
			continue
		}
		if sets != nil {
			for _, c := range sets[i] {
				p.Y[i*C+c] = 1
			}
		} else {
			p.Y[i*C+y[i]] = 1
		}
	}
	return p, nil
}

// unreachable applies the policy to the points no label reaches.
func unreachable(on, labeled []bool, policy string) ([]int, []error, error) {
	var u []int
	for i, a := range on {
		if !a && !labeled[i] {
			u = append(u, i)
		}
	}
	if len(u) == 0 {
		return nil, nil, nil
	}
	list := listInts(u, 20)
	switch policy {
	case UnreachableUnlabeled:
		return u, []error{fmt.Errorf("%w: %d points left unlabelled: %s", ErrUnreachable, len(u), list)}, nil
	case UnreachableFirst:
		return u, []error{fmt.Errorf("%w: %d points given class 0, as scikit-learn does: %s", ErrUnreachable, len(u), list)}, nil
	}
	return nil, nil, fmt.Errorf("%w: %d points (components of the affinity graph without a labelled point): %s", ErrUnreachable, len(u), list)
}

func listInts(v []int, max int) string {
	var b strings.Builder
	for i, x := range v {
		if i == max {
			fmt.Fprintf(&b, ", ... (%d more)", len(v)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

// Fit propagates the labels y (learner.Unlabeled = −1 for unlabelled points)
// over the affinity graph of the rows of X. See the package documentation
// for the methods, and the errors.
func (p Propagation) Fit(ctx context.Context, X mat.Matrix, y []int) (*Model, error) {
	return p.fit(ctx, X, nil, y, nil)
}

// FitSets is Fit for multi-label data: sets[i] lists the labels of point i
// (nil or empty = unlabelled). Each label column is propagated independently
// (paper 002 §3, E₂ = tr(fᵀLf)).
func (p Propagation) FitSets(ctx context.Context, X mat.Matrix, sets [][]int) (*Model, error) {
	if sets == nil {
		sets = [][]int{}
	}
	return p.fit(ctx, X, nil, nil, sets)
}

// FitGram propagates over a given symmetric matrix: the affinity W itself
// (Affinity.Kind "" or Precomputed; W ≥ 0), or an RBF / kNN graph over the
// matrix's kernel-induced distances.
func (p Propagation) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	return p.fit(ctx, nil, K, y, nil)
}

// FitGramSets is FitGram for multi-label data.
func (p Propagation) FitGramSets(ctx context.Context, K mat.Symmetric, sets [][]int) (*Model, error) {
	if sets == nil {
		sets = [][]int{}
	}
	return p.fit(ctx, nil, K, nil, sets)
}

func progress(f func(string, int, int), stage string, done, total int) {
	if f != nil {
		f(stage, done, total)
	}
}

func buildGraph(ctx context.Context, a Affinity, X mat.Matrix, K mat.Symmetric) (*graph, error) {
	if K != nil {
		return a.fromGram(ctx, K)
	}
	return a.fromPoints(ctx, X)
}

func dims(X mat.Matrix, K mat.Symmetric) (int, error) {
	if K != nil {
		return K.SymmetricDim(), nil
	}
	if X == nil {
		return 0, fmt.Errorf("%w: nil X", ErrShape)
	}
	n, _ := X.Dims()
	return n, nil
}

func (p Propagation) fit(ctx context.Context, X mat.Matrix, K mat.Symmetric, y []int, sets [][]int) (*Model, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	pr, g, on, res, err := setup(ctx, X, K, y, sets, p.Classes, p.Affinity, p.Unreachable, p.Method, Closed, p.Progress)
	if err != nil {
		return nil, err
	}
	var F []float64
	if res.Method == Closed {
		// L = D − W does not depend on W_ii; computing D_ii − W_ii and
		// (W·x)_i − W_ii·x_i would cancel the tiny neighbour weights of
		// a large RBF gamma (a zero Jacobi pivot: NaN scores).
		g.dropSelfLoops()
		F, err = p.closed(ctx, g, pr, on, res)
	} else {
		F, err = p.iterate(ctx, g, pr, on, res)
	}
	if err != nil {
		return nil, err
	}
	if err := checkScores(F, pr.C); err != nil {
		return nil, err
	}
	finish(res, pr, F, on, !pr.multi, p.Threshold)
	res.first(p.Unreachable)
	return res, nil
}

// checkScores fails when a score is NaN or infinite (an affinity whose row
// sums overflow, say): argmax would silently turn it into class 0.
func checkScores(F []float64, C int) error {
	for i, v := range F {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: the scores of point %d are %v (numerical breakdown: are the affinities too large or too small?)", ErrNonFinite, i/C, v)
		}
	}
	return nil
}

// finish normalises rows (single-label), fills Transduction and Sets.
func finish(res *Model, pr *problem, F []float64, on []bool, normalise bool, thr float64) {
	n, C := pr.n, pr.C
	if thr == 0 {
		thr = 0.5
	}
	res.transduction = make([]int, n)
	if pr.multi {
		res.Sets = make([][]int, n)
	}
	for i := 0; i < n; i++ {
		row := F[i*C : (i+1)*C]
		if !on[i] {
			for c := range row {
				row[c] = 0
			}
			res.transduction[i] = learner.Unlabeled
			continue
		}
		if normalise {
			s := 0.0
			for _, v := range row {
				s += v
			}
			if s != 0 {
				for c := range row {
					row[c] /= s
				}
			}
		}
		best := 0
		for c, v := range row {
			if v > row[best] {
				best = c
			}
		}
		res.transduction[i] = best
		if pr.multi {
			var set []int
			for c, v := range row {
				if v >= thr {
					set = append(set, c)
				}
			}
			res.Sets[i] = set
		}
	}
	res.Distributions = mat.NewDense(n, C, F)
}

// closed solves L_UU·f_U = W_UL·f_L (paper 002 eq. 2, L = D − W) over the
// reachable unlabelled points by Jacobi-preconditioned conjugate gradients
// (BiCGSTAB for the directed kNN graph).
func (p Propagation) closed(ctx context.Context, g *graph, pr *problem, on []bool, res *Model) ([]float64, error) {
	if g.dense != nil {
		return p.closedSolve(ctx, g, pr, on, res)
	}
	if !p.noDirect {
		if x, ok := p.closedDirect(ctx, g, pr, on, res); ok {
			return x, nil
		}
	}
	// Solve the sparse system in breadth-first order from the labelled
	// points: neighbours get nearby indices and the forward sweep of ILU(0)
	// carries the labels outwards (about 40% fewer BiCGSTAB steps than the
	// input order on two moons), and memory access is local. Results are
	// mapped back.
	g = &graph{n: g.n, ptr: g.ptr, col: g.col, val: g.val, sym: g.sym, order: g.bfs(pr.labeled)}
	n, C := pr.n, pr.C
	gp, perm := g.permuted()
	pp := &problem{n: n, C: C, multi: pr.multi, Y: make([]float64, n*C), labeled: make([]bool, n)}
	onp := make([]bool, n)
	for q, i := range perm {
		copy(pp.Y[q*C:(q+1)*C], pr.Y[i*C:(i+1)*C])
		pp.labeled[q] = pr.labeled[i]
		onp[q] = on[i]
	}
	xp, err := p.closedSolve(ctx, gp, pp, onp, res)
	if err != nil {
		return nil, err
	}
	x := make([]float64, n*C)
	for q, i := range perm {
		copy(x[i*C:(i+1)*C], xp[q*C:(q+1)*C])
	}
	return x, nil
}

func (p Propagation) closedSolve(ctx context.Context, g *graph, pr *problem, on []bool, res *Model) ([]float64, error) {
	n, C := pr.n, pr.C
	deg, self := g.rowSums(on)
	// U: reachable unlabelled rows
	uon := make([]bool, n)
	for i := range uon {
		uon[i] = on[i] && !pr.labeled[i]
	}
	// Single-label: the harmonic rows sum to 1 (A·1 = W_UL·1 with degrees
	// over the active points), so solve C−1 columns and take the last as
	// 1 − Σ of the others.
	Cs, Ys := C, pr.Y
	if !pr.multi {
		Cs = C - 1
		Ys = make([]float64, n*Cs)
		for i := 0; i < n; i++ {
			copy(Ys[i*Cs:(i+1)*Cs], pr.Y[i*C:i*C+Cs])
		}
	}
	b := make([]float64, n*Cs)
	if err := g.mul(ctx, b, Ys, Cs, uon); err != nil {
		return nil, err
	}
	diag := make([]float64, n)
	for i := range diag {
		if uon[i] {
			diag[i] = deg[i] - self[i]
		}
	}
	// A·x = deg∘x − W·x on U (x is zero outside U).
	tmp := make([]float64, n*Cs)
	apply := func(out, x []float64) error {
		if err := g.mul(ctx, tmp, x, Cs, uon); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if !uon[i] {
				continue
			}
			for c := 0; c < Cs; c++ {
				out[i*Cs+c] = deg[i]*x[i*Cs+c] - tmp[i*Cs+c]
			}
		}
		return nil
	}
	tol := p.Tol
	if tol == 0 {
		tol = 1e-10
	}
	nu := 0
	for _, v := range uon {
		if v {
			nu++
		}
	}
	maxIter := p.MaxIter
	if maxIter == 0 {
		maxIter = nu + 100
	}
	var prec func(out, in []float64)
	if g.dense != nil {
		prec = func(out, in []float64) { // Jacobi
			for i := 0; i < n; i++ {
				if uon[i] {
					for c := 0; c < Cs; c++ {
						out[i*Cs+c] = in[i*Cs+c] / diag[i]
					}
				}
			}
		}
	} else {
		f := newILU0(g, diag, uon)
		buf := make([]float64, n*Cs)
		prec = func(out, in []float64) { f.apply(out, in, buf, Cs) }
	}
	xs, it, rel, err := solve(ctx, apply, b, prec, uon, Cs, tol, maxIter, g.sym, p.Progress)
	if err != nil {
		return nil, err
	}
	if rel <= tol {
		if err := harmonicCheck(apply, b, xs, diag, uon, Cs, max(harmonicTol, tol)); err != nil {
			return nil, err
		}
	}
	x := xs
	if Cs != C {
		x = make([]float64, n*C)
		for i := 0; i < n; i++ {
			if !uon[i] {
				continue
			}
			s := 0.0
			for c := 0; c < Cs; c++ {
				v := xs[i*Cs+c]
				x[i*C+c] = v
				s += v
			}
			x[i*C+Cs] = 1 - s
		}
	}
	res.Iter, res.Change = it, rel
	res.Converged = rel <= tol
	if math.IsNaN(rel) || math.IsInf(rel, 0) {
		return nil, fmt.Errorf("%w: closed form: the solver's residual is %v (numerical breakdown: are the affinities too large or too small?)", ErrNonFinite, rel)
	}
	if !res.Converged {
		// The closed form is the fixed point of the iterative method or
		// nothing: a partial solve has no meaning of its own (issue 11: it
		// scored 40% where the iterative method scored 57%).
		return nil, fmt.Errorf("%w: closed form: the linear solver stopped at MaxIter = %d with relative residual %.3g > Tol = %g: the affinity is probably too narrow for these data; use a wider one (a smaller gamma, or knn:K), a larger MaxIter, or the iterative method", ErrNotConverged, maxIter, rel, tol)
	}
	for i := 0; i < n; i++ {
		if pr.labeled[i] {
			copy(x[i*C:(i+1)*C], pr.Y[i*C:(i+1)*C])
		}
	}
	return x, nil
}

// solve solves A·x = b column by column (C columns sharing each product
// with A) on the rows with on[i], preconditioned by prec (nil = identity):
// conjugate gradients when A is symmetric, BiCGSTAB otherwise. It returns x
// (zero off the active rows), the iterations and the largest relative
// residual.
func solve(ctx context.Context, apply func(out, x []float64) error, b []float64, prec func(out, in []float64), on []bool, C int,
	tol float64, maxIter int, sym bool, prog func(string, int, int)) ([]float64, int, float64, error) {
	N := len(b)
	x := make([]float64, N)
	r := append([]float64(nil), b...)
	bn := colNorms(b, C, on)
	if prec == nil {
		prec = func(out, in []float64) { copy(out, in) }
	}
	relres := func() (float64, []bool) {
		rn := colNorms(r, C, on)
		worst := 0.0
		done := make([]bool, C)
		for c := range rn {
			rel := 0.0
			if bn[c] > 0 {
				rel = rn[c] / bn[c]
			}
			done[c] = rel <= tol
			worst = max(worst, rel)
		}
		return worst, done
	}
	worst, done := relres()
	if worst <= tol {
		return x, 0, worst, nil
	}
	if sym {
		z := make([]float64, N)
		prec(z, r)
		pv := append([]float64(nil), z...)
		q := make([]float64, N)
		rz := colDots(r, z, C, on)
		for it := 1; it <= maxIter; it++ {
			if err := ctx.Err(); err != nil {
				return nil, 0, 0, err
			}
			if err := apply(q, pv); err != nil {
				return nil, 0, 0, err
			}
			pq := colDots(pv, q, C, on)
			alpha := make([]float64, C)
			for c := range alpha {
				if !done[c] && pq[c] > 0 {
					alpha[c] = rz[c] / pq[c]
				}
			}
			axpyCols(x, alpha, pv, C, on, 1)
			axpyCols(r, alpha, q, C, on, -1)
			worst, done = relres()
			progress(prog, "solve", it, maxIter)
			if worst <= tol {
				return x, it, worst, nil
			}
			prec(z, r)
			rzNew := colDots(r, z, C, on)
			for i := 0; i < N/C; i++ {
				if !on[i] {
					continue
				}
				for c := 0; c < C; c++ {
					beta := 0.0
					if rz[c] > 0 {
						beta = rzNew[c] / rz[c]
					}
					pv[i*C+c] = z[i*C+c] + beta*pv[i*C+c]
				}
			}
			rz = rzNew
		}
		return x, maxIter, worst, nil
	}
	// BiCGSTAB (van der Vorst 1992), right-preconditioned, per column.
	rh := append([]float64(nil), r...)
	pv := make([]float64, N)
	v := make([]float64, N)
	s := make([]float64, N)
	t := make([]float64, N)
	ph := make([]float64, N)
	sh := make([]float64, N)
	rho := make([]float64, C)
	alpha := make([]float64, C)
	omega := make([]float64, C)
	for c := range rho {
		rho[c], alpha[c], omega[c] = 1, 1, 1
	}
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, 0, err
		}
		rhoNew := colDots(rh, r, C, on)
		for c := 0; c < C; c++ {
			if done[c] {
				continue
			}
			if rhoNew[c] == 0 || omega[c] == 0 { // breakdown: restart the shadow residual
				for i := 0; i < N/C; i++ {
					rh[i*C+c] = r[i*C+c]
					pv[i*C+c] = 0
					v[i*C+c] = 0
				}
				rho[c], alpha[c], omega[c] = 1, 1, 1
				rhoNew[c] = colDot(rh, r, C, on, c)
			}
			beta := (rhoNew[c] / rho[c]) * (alpha[c] / omega[c])
			for i := 0; i < N/C; i++ {
				if on[i] {
					k := i*C + c
					pv[k] = r[k] + beta*(pv[k]-omega[c]*v[k])
				}
			}
			rho[c] = rhoNew[c]
		}
		prec(ph, pv)
		if err := apply(v, ph); err != nil {
			return nil, 0, 0, err
		}
		rv := colDots(rh, v, C, on)
		for c := 0; c < C; c++ {
			alpha[c] = 0
			if !done[c] && rv[c] != 0 {
				alpha[c] = rho[c] / rv[c]
			}
		}
		copy(s, r)
		axpyCols(s, alpha, v, C, on, -1)
		prec(sh, s)
		if err := apply(t, sh); err != nil {
			return nil, 0, 0, err
		}
		ts, tt := colDots(t, s, C, on), colDots(t, t, C, on)
		for c := 0; c < C; c++ {
			omega[c] = 0
			if !done[c] && tt[c] > 0 {
				omega[c] = ts[c] / tt[c]
			}
		}
		axpyCols(x, alpha, ph, C, on, 1)
		axpyCols(x, omega, sh, C, on, 1)
		copy(r, s)
		axpyCols(r, omega, t, C, on, -1)
		worst, done = relres()
		progress(prog, "solve", it, maxIter)
		if worst <= tol {
			return x, it, worst, nil
		}
	}
	return x, maxIter, worst, nil
}

// The vector helpers below ignore the mask: every vector of solve is zero
// off the active rows (b is, and apply and prec write only active rows), so
// the inactive rows add nothing.

func colNorms(a []float64, C int, on []bool) []float64 {
	out := colDots(a, a, C, on)
	for c := range out {
		out[c] = math.Sqrt(out[c])
	}
	return out
}

func colDots(a, b []float64, C int, _ []bool) []float64 {
	out := make([]float64, C)
	if C == 1 {
		b = b[:len(a)]
		var s0, s1 float64
		i := 0
		for ; i+2 <= len(a); i += 2 {
			s0 += a[i] * b[i]
			s1 += a[i+1] * b[i+1]
		}
		for ; i < len(a); i++ {
			s0 += a[i] * b[i]
		}
		out[0] = s0 + s1
		return out
	}
	for i := 0; i < len(a)/C; i++ {
		for c := 0; c < C; c++ {
			out[c] += a[i*C+c] * b[i*C+c]
		}
	}
	return out
}

func colDot(a, b []float64, C int, _ []bool, c int) float64 {
	s := 0.0
	for i := 0; i < len(a)/C; i++ {
		s += a[i*C+c] * b[i*C+c]
	}
	return s
}

// axpyCols: y[:, c] += sign·alpha[c]·x[:, c].
func axpyCols(y, alpha, x []float64, C int, _ []bool, sign float64) {
	if C == 1 {
		a := sign * alpha[0]
		x = x[:len(y)]
		for i := range y {
			y[i] += a * x[i]
		}
		return
	}
	for i := 0; i < len(y)/C; i++ {
		for c := 0; c < C; c++ {
			y[i*C+c] += sign * alpha[c] * x[i*C+c]
		}
	}
}

// iterate is scikit-learn's LabelPropagation loop: F ← rownorm(W·F) on the
// unlabelled rows, labelled rows clamped to their labels, stop when
// Σ|F − F_prev| < Tol (tested before each step). Multi-label: F ← D⁻¹W·F,
// clamped, without normalisation (paper 002 §3 steps 3-4).
func (p Propagation) iterate(ctx context.Context, g *graph, pr *problem, on []bool, res *Model) ([]float64, error) {
	n, C := pr.n, pr.C
	tol := p.Tol
	if tol == 0 {
		tol = 1e-3
	}
	maxIter := p.MaxIter
	if maxIter == 0 {
		maxIter = 1000
	}
	uon := make([]bool, n)
	for i := range uon {
		uon[i] = !pr.labeled[i]
	}
	var deg []float64
	if pr.multi {
		deg, _ = g.rowSums(on)
	}
	F := append([]float64(nil), pr.Y...)
	prev := make([]float64, n*C)
	next := make([]float64, n*C)
	// Single-label shortcut: once every row of F sums to 1, the row sums of
	// W·F are the degrees, so the last column of W·F is deg − Σ of the
	// others and only C−1 columns need the product (the rows are then
	// normalised as before; the results agree to rounding).
	var degAll, Fs, Ns []float64
	if !pr.multi {
		degAll, _ = g.rowSums(allTrue(n))
		Fs = make([]float64, n*(C-1))
		Ns = make([]float64, n*(C-1))
	}
	res.Converged = false
	it := 0
	for ; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Change = sumAbsDiff(F, prev)
		if res.Change < tol {
			res.Converged = true
			break
		}
		if Fs != nil && rowsFull(F, C) {
			Cs := C - 1
			for i := 0; i < n; i++ {
				copy(Fs[i*Cs:(i+1)*Cs], F[i*C:i*C+Cs])
			}
			if err := g.mul(ctx, Ns, Fs, Cs, uon); err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				if !uon[i] {
					continue
				}
				s := 0.0
				for c := 0; c < Cs; c++ {
					v := Ns[i*Cs+c]
					next[i*C+c] = v
					s += v
				}
				next[i*C+Cs] = degAll[i] - s
			}
		} else if err := g.mul(ctx, next, F, C, uon); err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			row := next[i*C : (i+1)*C]
			if pr.labeled[i] {
				copy(row, pr.Y[i*C:(i+1)*C])
				continue
			}
			if pr.multi {
				if deg[i] > 0 {
					for c := range row {
						row[c] /= deg[i]
					}
				}
				continue
			}
			s := 0.0
			for _, v := range row {
				s += v
			}
			if s != 0 {
				for c := range row {
					row[c] /= s
				}
			}
		}
		F, prev, next = next, F, prev
		progress(p.Progress, "iterate", it+1, maxIter)
	}
	res.Iter = it
	if !res.Converged {
		res.Change = sumAbsDiff(F, prev)
		res.Warnings = append(res.Warnings, fmt.Errorf("%w: MaxIter = %d reached with Σ|ΔF| = %.3g ≥ Tol = %g", ErrNotConverged, maxIter, res.Change, tol))
	}
	return F, nil
}

// rowsFull reports whether every row of F has a positive sum.
func rowsFull(F []float64, C int) bool {
	for i := 0; i < len(F); i += C {
		s := 0.0
		for _, v := range F[i : i+C] {
			s += v
		}
		if !(s > 0) {
			return false
		}
	}
	return true
}

func allTrue(n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = true
	}
	return b
}

// bfs returns the points in breadth-first order from the labelled points
// along reversed edges (unreached points last, in index order).
func (g *graph) bfs(labeled []bool) []int32 {
	n := g.n
	cnt := make([]int, n+1)
	for u := 0; u < n; u++ {
		for t := g.ptr[u]; t < g.ptr[u+1]; t++ {
			cnt[g.col[t]+1]++
		}
	}
	for v := 0; v < n; v++ {
		cnt[v+1] += cnt[v]
	}
	src := make([]int32, cnt[n])
	fill := append([]int(nil), cnt[:n]...)
	for u := 0; u < n; u++ {
		for t := g.ptr[u]; t < g.ptr[u+1]; t++ {
			v := g.col[t]
			src[fill[v]] = int32(u)
			fill[v]++
		}
	}
	seen := make([]bool, n)
	order := make([]int32, 0, n)
	for i, l := range labeled {
		if l {
			seen[i] = true
			order = append(order, int32(i))
		}
	}
	for h := 0; h < len(order); h++ {
		v := order[h]
		for _, u := range src[cnt[v]:cnt[v+1]] {
			if !seen[u] {
				seen[u] = true
				order = append(order, u)
			}
		}
	}
	for i := range seen {
		if !seen[i] {
			order = append(order, int32(i))
		}
	}
	return order
}

// envBudget bounds the flops of the direct envelope factorisation; above it
// (wide envelopes: 2-D or higher-dimensional neighbourhoods) the iterative
// solver is cheaper.
const envBudget = 6e7

// closedDirect solves the sparse closed form by an envelope LU in reverse
// Cuthill–McKee order when that is cheap; ok is false otherwise (or if the
// factorisation or its residual check fails), and the caller iterates.
func (p Propagation) closedDirect(ctx context.Context, g *graph, pr *problem, on []bool, res *Model) ([]float64, bool) {
	n, C := pr.n, pr.C
	deg, self := g.rowSums(on)
	loc := make([]int32, n)
	var glob []int
	for i := 0; i < n; i++ {
		loc[i] = -1
		if on[i] && !pr.labeled[i] {
			loc[i] = int32(len(glob))
			glob = append(glob, i)
		}
	}
	m := len(glob)
	if m == 0 {
		return nil, false
	}
	// symmetric pattern for the ordering
	adj := make([][]int32, m)
	for li, i := range glob {
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			if lj := loc[g.col[t]]; lj >= 0 && int(lj) != li && g.val[t] != 0 {
				adj[li] = append(adj[li], lj)
				adj[lj] = append(adj[lj], int32(li))
			}
		}
	}
	ord := rcm(m, adj)
	pos := make([]int32, m)
	for q, li := range ord {
		pos[li] = int32(q)
	}
	rows := make([][]int32, m)
	vals := make([][]float64, m)
	diag := make([]float64, m)
	for q, li := range ord {
		i := glob[li]
		diag[q] = deg[i] - self[i]
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			if lj := loc[g.col[t]]; lj >= 0 && int(lj) != li && g.val[t] != 0 {
				rows[q] = append(rows[q], pos[lj])
				vals[q] = append(vals[q], -g.val[t])
			}
		}
	}
	cost, lf, uf := envelopeCost(m, rows)
	if cost > envBudget || ctx.Err() != nil {
		return nil, false
	}
	f, ok := newEnvLU(m, diag, rows, vals, lf, uf)
	if !ok {
		return nil, false
	}
	Cs := C
	if !pr.multi {
		Cs = C - 1
	}
	x := make([]float64, n*C)
	col := make([]float64, m)
	worst := 0.0
	for c := 0; c < Cs; c++ {
		// b_i = Σ_{j labelled} W_ij·Y_jc
		b := make([]float64, m)
		for q, li := range ord {
			i := glob[li]
			s := 0.0
			for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
				if j := int(g.col[t]); pr.labeled[j] {
					s += g.val[t] * pr.Y[j*C+c]
				}
			}
			b[q] = s
		}
		copy(col, b)
		f.solve(col)
		// relative residual ‖b − A·x‖/‖b‖
		rn, bn := 0.0, 0.0
		for q := 0; q < m; q++ {
			s := b[q] - diag[q]*col[q]
			for t, j := range rows[q] {
				s -= vals[q][t] * col[j]
			}
			rn += s * s
			bn += b[q] * b[q]
		}
		if bn > 0 {
			worst = max(worst, math.Sqrt(rn/bn))
		}
		for q, li := range ord {
			x[glob[li]*C+c] = col[q]
		}
	}
	tol := p.Tol
	if tol == 0 {
		tol = 1e-10
	}
	if !(worst <= tol) {
		return nil, false
	}
	for i := 0; i < n; i++ {
		if pr.labeled[i] {
			copy(x[i*C:(i+1)*C], pr.Y[i*C:(i+1)*C])
		} else if Cs != C && on[i] {
			s := 0.0
			for c := 0; c < Cs; c++ {
				s += x[i*C+c]
			}
			x[i*C+Cs] = 1 - s
		}
	}
	res.Iter, res.Change, res.Converged = 0, worst, true
	return x, true
}

// setup is the part Propagation and Spreading share: the labelled problem,
// the affinity graph, which points a label can reach, and the Result shell
// (Method defaults to def).
func setup(ctx context.Context, X mat.Matrix, K mat.Symmetric, y []int, sets [][]int, classes int, aff Affinity,
	unrPolicy, method, def string, prog func(string, int, int)) (*problem, *graph, []bool, *Model, error) {
	n, err := dims(X, K)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	pr, err := newProblem(y, sets, classes, n)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	progress(prog, "affinity", 0, 1)
	g, err := buildGraph(ctx, aff, X, K)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	progress(prog, "affinity", 1, 1)
	on := g.reach(pr.labeled)
	unr, warns, err := unreachable(on, pr.labeled, unrPolicy)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	res := &Model{NClasses: pr.C, Unreachable: unr, Warnings: warns, Method: method}
	if res.Method == "" {
		res.Method = def
	}
	return pr, g, on, res, nil
}

// harmonicTol bounds the harmonic defect |f_i − Σ_j W_ij f_j / d_i| that
// the closed form accepts at any point and class: what one more step of
// the iterative method could still change.
const harmonicTol = 1e-6

// harmonicCheck verifies the solution point by point. The solver's test is
// a relative residual over all points; when an affinity is too narrow for
// the data (say rbf:20 on 13 standardised features) most points' weights
// to the others are below 1e-20 and their equations carry no weight in
// that norm: the solver "converges" while those points are far from
// harmonic, and the labels differ from the iterative method's. Then this
// returns an error wrapping ErrNotConverged that names the worst point and
// says what to do.
func harmonicCheck(apply func(out, x []float64) error, b, x, diag []float64, on []bool, C int, tol float64) error {
	Ax := make([]float64, len(b))
	if err := apply(Ax, x); err != nil {
		return err
	}
	worst, at := 0.0, -1
	for i, ok := range on {
		if !ok || !(diag[i] > 0) {
			continue
		}
		last := 0.0 // the implied column (1 − Σ) has minus the sum as residual
		for c := 0; c < C; c++ {
			r := b[i*C+c] - Ax[i*C+c]
			last += r
			if d := math.Abs(r) / diag[i]; d > worst {
				worst, at = d, i
			}
		}
		if d := math.Abs(last) / diag[i]; d > worst {
			worst, at = d, i
		}
	}
	if worst > tol || math.IsNaN(worst) {
		return fmt.Errorf("%w: closed form: the harmonic equations hold only to %.3g at point %d, whose weights to the other points sum to %.3g: the affinity is too narrow for these data; use a wider one (a smaller gamma, or knn:K) or the iterative method",
			ErrNotConverged, worst, at, diag[at])
	}
	return nil
}
