package hibust

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/arbor-ml/arbor/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// Unlabeled marks a row without a class in y (learner.Unlabeled).
const Unlabeled = -1

// MCCK holds the settings of Multiple Clusters per Class k-means (paper
// 003 Fig. 2, Sestaro et al. 2012) in the feature space of a kernel.
// Zero values mean the defaults. Settings are never mutated.
type MCCK struct {
	// Restarts is the number of runs from different random seeds and
	// visiting orders; the partition with the best simplified silhouette
	// is kept (default 10, as paper 003 §4.1). Must be ≥ 1 when set; 0
	// means 10.
	Restarts int
	// MaxIter bounds the passes of one run (default 100). Reaching it is
	// reported in Partition.Warnings.
	MaxIter int
	// Seed drives every random choice: run r uses the PCG stream
	// (Seed, r+1) for its initial prototypes and its visiting orders.
	Seed uint64
	// Progress, if not nil, is called after each run with stage "mcck".
	Progress func(stage string, done, total int)

	// choices, if not nil, replaces the PCG streams (tests replay the
	// reference's generator).
	choices func(run int) chooser
}

func (m MCCK) restarts() int {
	if m.Restarts == 0 {
		return 10
	}
	return m.Restarts
}

func (m MCCK) maxIter() int {
	if m.MaxIter == 0 {
		return 100
	}
	return m.MaxIter
}

// Validate checks the settings.
func (m MCCK) Validate() error {
	switch {
	case m.Restarts < 0:
		return fmt.Errorf("%w: Restarts = %d, want ≥ 1 (0 = 10)", ErrBadParam, m.Restarts)
	case m.MaxIter < 0:
		return fmt.Errorf("%w: MaxIter = %d, want ≥ 1 (0 = 100)", ErrBadParam, m.MaxIter)
	}
	return nil
}

// Partition is the result of MCCK: clusters, the class each belongs to
// (the mapping {H_i} of Fig. 2) and the run's statistics.
type Partition struct {
	// Assign is the cluster of each row, in [0, len(Class)).
	Assign []int
	// Class is the class label of each cluster.
	Class []int
	// Size is the number of rows of each cluster.
	Size []int
	// Silhouette is the simplified silhouette of the partition
	// (Hruschka et al. 2006), the criterion that chose it among the runs.
	Silhouette float64
	// Run is the index of the chosen run in [0, Restarts).
	Run int
	// Iter is the number of passes of the chosen run; Converged is false
	// when it stopped at MaxIter.
	Iter      int
	Converged bool
	// Warnings holds ErrNotConverged for each run that stopped at MaxIter.
	Warnings []error

	// dist2 is the squared feature-space distance of each row to each
	// cluster's centroid (n × k, row-major).
	dist2 []float64
}

// K returns the number of clusters.
func (p *Partition) K() int { return len(p.Class) }

// Dist2 returns the squared distance of row i to the centroid of cluster j
// in the kernel's feature space.
func (p *Partition) Dist2(i, j int) float64 { return p.dist2[i*len(p.Class)+j] }

// Cluster runs MCCK Restarts times on the n×n kernel matrix K with labels y
// (class ≥ 0, or Unlabeled) and returns the partition with the largest
// simplified silhouette (ties: the lowest run). Runs execute in parallel;
// the result does not depend on GOMAXPROCS.
//
// Errors: ErrBadParam, ErrEmpty, ErrShape, ErrNonFinite, ErrBadLabel (a
// single class among the labelled rows, or a label < −1), or ctx.Err().
func (m MCCK) Cluster(ctx context.Context, K mat.Symmetric, y []int) (*Partition, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	g, err := newGram(K)
	if err != nil {
		return nil, err
	}
	byClass, err := classRows(y, g.n)
	if err != nil {
		return nil, err
	}
	return m.cluster(ctx, g, y, byClass)
}

func (m MCCK) cluster(ctx context.Context, g *gram, y []int, byClass map[int][]int) (*Partition, error) {
	R := m.restarts()
	runs := make([]*Partition, R)
	errs := make([]error, R)
	done := 0
	err := parallel.For(ctx, R, func(r int) {
		var ch chooser = rngChooser{rand.New(rand.NewPCG(m.Seed, uint64(r)+1))}
		if m.choices != nil {
			ch = m.choices(r)
		}
		runs[r], errs[r] = g.mcck(ctx, y, byClass, ch, m.maxIter())
	})
	if err != nil {
		return nil, err
	}
	best := -1
	var warns []error
	for r, p := range runs {
		if errs[r] != nil {
			return nil, errs[r]
		}
		if !p.Converged {
			warns = append(warns, fmt.Errorf("%w: run %d stopped after %d passes", ErrNotConverged, r, p.Iter))
		}
		if best < 0 || p.Silhouette > runs[best].Silhouette {
			best = r
		}
		done++
		if m.Progress != nil {
			m.Progress("mcck", done, R)
		}
	}
	p := runs[best]
	p.Run = best
	p.Warnings = warns
	return p, nil
}

// chooser supplies MCCK's random choices: the initial prototype of each
// class (step 4 of Fig. 2) and the visiting order of each pass.
type chooser interface {
	// seed returns one of rows (the labelled rows of one class).
	seed(rows []int) int
	// order returns a permutation of 0..n-1 for the given pass.
	order(pass, n int) []int
}

type rngChooser struct{ r *rand.Rand }

func (c rngChooser) seed(rows []int) int      { return rows[c.r.IntN(len(rows))] }
func (c rngChooser) order(_ int, n int) []int { return c.r.Perm(n) }

// gram is a full row-major copy of K with its diagonal.
type gram struct {
	n    int
	k    []float64
	diag []float64
	// tie: squared distances within tie of the smallest count as ties,
	// broken by the lowest index, so that rows exactly equidistant in
	// exact arithmetic (common for data on a grid, such as iris) do not
	// depend on rounding. 1e-9 × the mean |K_ii|: far above the rounding
	// error of K_ii − 2K_ij + K_jj, far below real differences.
	tie float64
}

// argminTie returns the first index whose value is within g.tie of the
// smallest.
func (g *gram) argminTie(d []float64) int {
	m := math.Inf(1)
	for _, v := range d {
		m = min(m, v)
	}
	for j, v := range d {
		if v <= m+g.tie {
			return j
		}
	}
	return 0
}

func (g *gram) row(i int) []float64 { return g.k[i*g.n : (i+1)*g.n] }

func newGram(K mat.Symmetric) (*gram, error) {
	if K == nil {
		return nil, fmt.Errorf("%w: nil kernel matrix", ErrEmpty)
	}
	n := K.SymmetricDim()
	if n == 0 {
		return nil, fmt.Errorf("%w: 0 rows", ErrEmpty)
	}
	g := &gram{n: n, k: make([]float64, n*n), diag: make([]float64, n)}
	if s, ok := K.(*mat.SymDense); ok {
		raw := s.RawSymmetric()
		for i := 0; i < n; i++ {
			src := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
			copy(g.k[i*n+i:(i+1)*n], src)
		}
	} else {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				g.k[i*n+j] = K.At(i, j)
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := g.k[i*n+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: K[%d][%d] = %v", ErrNonFinite, i, j, v)
			}
			g.k[j*n+i] = v
		}
		g.diag[i] = g.k[i*n+i]
	}
	var s float64
	for _, v := range g.diag {
		s += math.Abs(v)
	}
	g.tie = 1e-9 * s / float64(n)
	return g, nil
}

// classRows groups the labelled rows by class and checks y.
func classRows(y []int, n int) (map[int][]int, error) {
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrShape, len(y), n)
	}
	by := map[int][]int{}
	for i, c := range y {
		switch {
		case c == Unlabeled:
		case c < 0:
			return nil, fmt.Errorf("%w: y[%d] = %d, want a class ≥ 0 or Unlabeled (−1)", ErrBadLabel, i, c)
		default:
			by[c] = append(by[c], i)
		}
	}
	switch len(by) {
	case 0:
		return nil, fmt.Errorf("%w: no labelled row", ErrBadLabel)
	case 1:
		for c := range by {
			return nil, fmt.Errorf("%w: only class %d has labelled rows; HiBUST needs at least two classes", ErrBadLabel, c)
		}
	}
	return by, nil
}

func sortedClasses(by map[int][]int) []int {
	cs := make([]int, 0, len(by))
	for c := range by {
		cs = append(cs, c)
	}
	slices.Sort(cs)
	return cs
}

// proto is a prototype μ = Σ_a w_a φ(x_{rows[a]}) with its squared norm.
type proto struct {
	rows  []int
	w     []float64
	norm  float64 // ‖μ‖² = wᵀ K w
	class int
}

// dots fills out[i*k+j] = ⟨φ(x_i), μ_j⟩ = Σ_r w_jr K_ir for every row i.
// The prototypes' supports are disjoint (centroids of disjoint clusters,
// single rows, means of two such), so each row r carries one weight for
// one prototype and a row of K is read once, in order. Serial: the runs
// of MCCK are what runs in parallel.
func (g *gram) dots(ctx context.Context, ps []proto, out []float64) error {
	k := len(ps)
	owner := make([]int32, g.n)
	wt := make([]float64, g.n)
	for i := range owner {
		owner[i] = int32(k) // a dummy slot
	}
	for j := range ps {
		for a, r := range ps[j].rows {
			owner[r] = int32(j)
			wt[r] = ps[j].w[a]
		}
	}
	acc := make([]float64, k+1)
	for i := 0; i < g.n; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		clear(acc)
		ri := g.row(i)
		for r, v := range ri {
			acc[owner[r]] += wt[r] * v
		}
		copy(out[i*k:(i+1)*k], acc[:k])
	}
	return nil
}

// centroids returns the centroid prototypes of the clusters of assign.
func centroids(assign []int, class []int) []proto {
	k := len(class)
	ps := make([]proto, k)
	for j := range ps {
		ps[j].class = class[j]
	}
	for i, c := range assign {
		ps[c].rows = append(ps[c].rows, i)
	}
	for j := range ps {
		w := 1 / float64(len(ps[j].rows))
		ps[j].w = make([]float64, len(ps[j].rows))
		for a := range ps[j].w {
			ps[j].w[a] = w
		}
	}
	return ps
}

// norms sets ps[j].norm = wᵀKw from the dot matrix (n × k).
func norms(ps []proto, dot []float64) {
	k := len(ps)
	for j := range ps {
		var s float64
		for a, r := range ps[j].rows {
			s += ps[j].w[a] * dot[r*k+j]
		}
		ps[j].norm = s
	}
}

// mcck is one run of Fig. 2.
func (g *gram) mcck(ctx context.Context, y []int, byClass map[int][]int, ch chooser, maxIter int) (*Partition, error) {
	n := g.n
	classes := sortedClasses(byClass)
	// Steps 2–7: one cluster per class, its prototype a random labelled
	// object of the class.
	ps := make([]proto, len(classes))
	for j, c := range classes {
		r := ch.seed(byClass[c])
		ps[j] = proto{rows: []int{r}, w: []float64{1}, norm: g.diag[r], class: c}
	}
	assign := make([]int, n)
	prev := make([]int, n)
	var dot, spare, dist []float64
	grow := func(b []float64, m int) []float64 {
		if cap(b) < m {
			return make([]float64, m, m+m/2)
		}
		return b[:m]
	}
	iter, converged := 0, false
	for iter < maxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		iter++
		k0 := len(ps)
		if dot == nil {
			dot = make([]float64, n*k0)
			if err := g.dots(ctx, ps, dot); err != nil {
				return nil, err
			}
		}
		// Steps 8–20: assign in a random order; a labelled object whose
		// nearest prototype belongs to another class founds a new cluster
		// of its own class.
		created := 0
		var fresh []int // rows founding clusters k0, k0+1, ...
		for _, i := range ch.order(iter, n) {
			dist = dist[:0]
			o := dot[i*k0 : (i+1)*k0]
			for j := 0; j < k0; j++ {
				dist = append(dist, g.diag[i]-2*o[j]+ps[j].norm)
			}
			ri := g.row(i)
			for _, r := range fresh {
				dist = append(dist, g.diag[i]-2*ri[r]+g.diag[r])
			}
			best := g.argminTie(dist)
			if c := y[i]; c != Unlabeled && ps[best].class != c {
				ps = append(ps, proto{rows: []int{i}, w: []float64{1}, norm: g.diag[i], class: c})
				fresh = append(fresh, i)
				created++
				assign[i] = len(ps) - 1
				continue
			}
			assign[i] = best
		}
		// Step 21: prototypes become centroids; clusters left empty are
		// dropped (each class keeps one: its labelled rows always join a
		// cluster of their class).
		class := make([]int, 0, len(ps))
		remap := make([]int, len(ps))
		size := make([]int, len(ps))
		for _, c := range assign {
			size[c]++
		}
		dropped := 0
		for j := range ps {
			if size[j] == 0 {
				remap[j] = -1
				dropped++
				continue
			}
			remap[j] = len(class)
			class = append(class, ps[j].class)
		}
		for i, c := range assign {
			assign[i] = remap[c]
		}
		ps = centroids(assign, class)
		dot, spare = grow(spare, n*len(ps)), dot
		if err := g.dots(ctx, ps, dot); err != nil {
			return nil, err
		}
		norms(ps, dot)
		// Steps 22–31: merge pairs of same-class prototypes that are each
		// other's nearest neighbour; the merged prototype is the mean of
		// the two.
		into, merged := g.mutualPairs(ps, dot)
		if merged > 0 {
			var md []float64
			ps, md = mergePairs(ps, dot, into, assign, grow(spare, n*countSelf(into)))
			dot, spare = md, dot
		}
		// Step 32: converged when nothing was created, dropped or merged
		// and every row kept its cluster (so the centroids did not move).
		if iter > 1 && created == 0 && dropped == 0 && merged == 0 && slices.Equal(assign, prev) {
			converged = true
			break
		}
		copy(prev, assign)
	}
	return g.finish(ctx, assign, ps, iter, converged)
}

// mutualPairs finds the pairs of prototypes of one class that are each
// other's nearest neighbour (ties: the lower index). into[q] = p < q when
// cluster q joins cluster p, into[j] = j otherwise; pairs counts them.
func (g *gram) mutualPairs(ps []proto, dot []float64) (into []int, pairs int) {
	k := len(ps)
	if k < 2 {
		return nil, 0
	}
	// ⟨μ_p, μ_q⟩ from the dot matrix.
	ip := make([]float64, k*k)
	for p := range ps {
		for a, r := range ps[p].rows {
			w := ps[p].w[a]
			o := dot[r*k : (r+1)*k]
			for q := range o {
				ip[p*k+q] += w * o[q]
			}
		}
	}
	nn := make([]int, k)
	d := make([]float64, k)
	for p := range ps {
		for q := range ps {
			d[q] = ps[p].norm + ps[q].norm - 2*ip[p*k+q]
		}
		d[p] = math.Inf(1)
		nn[p] = g.argminTie(d)
	}
	into = make([]int, k)
	for p := range into {
		into[p] = p
	}
	for p := range ps {
		q := nn[p]
		if q > p && nn[q] == p && ps[p].class == ps[q].class {
			into[q] = p
			pairs++
		}
	}
	return into, pairs
}

// mergePairs merges the pairs of mutualPairs: the merged prototype is
// (μ_p + μ_q)/2 (Fig. 2 step 28), the others are unchanged; clusters are
// renumbered in order and assign follows. The returned dot matrix holds
// ⟨φ(x_i), μ⟩ for the new prototypes.
func mergePairs(ps []proto, dot []float64, into []int, assign []int, nd []float64) ([]proto, []float64) {
	k := len(ps)
	partner := make([]int, k)
	for j := range partner {
		partner[j] = -1
	}
	for q, p := range into {
		if p != q {
			partner[p] = q
		}
	}
	remap := make([]int, k)
	var out []proto
	for p := range ps {
		if into[p] != p {
			continue
		}
		remap[p] = len(out)
		q := partner[p]
		if q < 0 {
			out = append(out, ps[p])
			continue
		}
		var cross float64
		for a, r := range ps[q].rows {
			cross += ps[q].w[a] * dot[r*k+p]
		}
		m := proto{class: ps[p].class}
		m.rows = append(append(m.rows, ps[p].rows...), ps[q].rows...)
		for _, w := range ps[p].w {
			m.w = append(m.w, w/2)
		}
		for _, w := range ps[q].w {
			m.w = append(m.w, w/2)
		}
		m.norm = (ps[p].norm + ps[q].norm + 2*cross) / 4
		out = append(out, m)
	}
	for q, p := range into {
		remap[q] = remap[p]
	}
	for i, c := range assign {
		assign[i] = remap[c]
	}
	k2 := len(out)
	nd = nd[:len(dot)/k*k2]
	for i := 0; i < len(dot)/k; i++ {
		o, d := nd[i*k2:(i+1)*k2], dot[i*k:(i+1)*k]
		for p := range ps {
			if into[p] != p {
				continue
			}
			if q := partner[p]; q >= 0 {
				o[remap[p]] = (d[p] + d[q]) / 2
			} else {
				o[remap[p]] = d[p]
			}
		}
	}
	return out, nd
}

// finish returns the run's partition with the distances of every row to
// the centroids of its final clusters and the simplified silhouette.
func (g *gram) finish(ctx context.Context, assign []int, ps []proto, iter int, converged bool) (*Partition, error) {
	class := make([]int, len(ps))
	for j := range ps {
		class[j] = ps[j].class
	}
	cs := centroids(assign, class)
	k := len(cs)
	dot := make([]float64, g.n*k)
	if err := g.dots(ctx, cs, dot); err != nil {
		return nil, err
	}
	norms(cs, dot)
	p := &Partition{Assign: slices.Clone(assign), Class: class, Size: make([]int, k), Iter: iter, Converged: converged}
	for _, c := range assign {
		p.Size[c]++
	}
	p.dist2 = dot // overwritten in place: d² = K_ii − 2⟨φ_i, μ_j⟩ + ‖μ_j‖²
	for i := 0; i < g.n; i++ {
		o := p.dist2[i*k : (i+1)*k]
		for j := range o {
			o[j] = max(0, g.diag[i]-2*o[j]+cs[j].norm)
		}
	}
	p.Silhouette = simplifiedSilhouette(p)
	return p, nil
}

// simplifiedSilhouette is Hruschka et al.'s (2006) simplified silhouette:
// the mean over rows of (b − a)/max(a, b), a the Euclidean distance of a
// row to its own centroid, b to the nearest other centroid; rows of
// singleton clusters score 0 (as in Rousseeuw's silhouette), and so does
// a partition with one cluster.
func simplifiedSilhouette(p *Partition) float64 {
	k := p.K()
	if k < 2 {
		return 0
	}
	var s float64
	for i, c := range p.Assign {
		if p.Size[c] == 1 {
			continue
		}
		a := math.Sqrt(p.Dist2(i, c))
		b := math.Inf(1)
		for j := 0; j < k; j++ {
			if j != c {
				b = min(b, math.Sqrt(p.Dist2(i, j)))
			}
		}
		if m := max(a, b); m > 0 {
			s += (b - a) / m
		}
	}
	return s / float64(len(p.Assign))
}

// countSelf counts the clusters that survive a merge (into[j] == j).
func countSelf(into []int) int {
	c := 0
	for j, p := range into {
		if p == j {
			c++
		}
	}
	return c
}
