package hibust

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/s4vm"
	"gonum.org/v1/gonum/mat"
)

// Classifier holds the settings of HiBUST (paper 003). Zero values mean
// the documented defaults; settings are never mutated by fitting.
type Classifier struct {
	// Restarts is the number of MCCK runs (0 = 10); the partition with
	// the best simplified silhouette is kept.
	Restarts int
	// Theta, if not 0, turns on the confidence labelling of §3.2: an
	// unlabelled row whose Eq. 5 posterior for a cluster is ≥ Theta takes
	// that cluster's class before the tree is built. Must lie in (0, 1].
	Theta float64
	// MaxIter bounds the passes of one MCCK run (0 = 100).
	MaxIter int
	// Seed drives MCCK's random choices (and is handed to nothing else:
	// node learners carry their own seeds).
	Seed uint64
	// Node is the binary learner at each internal node; nil means an
	// S4VM with the settings S4VM, its Seed plus the node's index
	// (preorder) at each node, as the paper.
	Node NodeLearner
	// S4VM holds the node S4VMs' settings when Node is nil (zero values:
	// the reference's defaults C1 = 100, C2 = 0.1, 100 samples, λ = 3).
	S4VM s4vm.S4VM
	// RouterC is the C of the C-SVC trained at each internal node on the
	// node's final transductive sides, which routes new points (0 = the
	// node S4VMs' C1, default 100: with C = 1 on min–max scaled features
	// the routers underfit and disagree with the transductive labels on
	// up to 26 % of the training rows; with C1 they reproduce them on iris
	// and wine exactly and on 94 % of gauss9).
	RouterC float64
	// Classes, if set, lists the classes the data have; a class without
	// a labelled row is then ErrBadLabel (otherwise it cannot be seen, and
	// the model simply cannot output it).
	Classes []int
	// Kernel is used by Fit (nil = kernel.Linear); FitGram ignores it.
	Kernel kernel.Kernel
	// Progress, if not nil, is called with stage "mcck" after each MCCK
	// run, "tree" after each internal node and, when the node learner is
	// the default S4VM, "node i s4vm" after each of node i's candidates.
	Progress func(stage string, done, total int)

	choices func(run int) chooser // tests: see MCCK.choices
}

func (c Classifier) routerC() float64 {
	if c.RouterC == 0 {
		if c.S4VM.C1 > 0 {
			return c.S4VM.C1
		}
		return 100 // the node S4VMs' default C1
	}
	return c.RouterC
}

// Validate checks the settings.
func (c Classifier) Validate() error {
	switch {
	case c.Restarts < 0:
		return fmt.Errorf("%w: Restarts = %d, want ≥ 1 (0 = 10)", ErrBadParam, c.Restarts)
	case c.Theta != 0 && !(c.Theta > 0 && c.Theta <= 1):
		return fmt.Errorf("%w: Theta = %v, want θ in (0, 1] (0 = no confidence labelling)", ErrBadParam, c.Theta)
	case c.MaxIter < 0:
		return fmt.Errorf("%w: MaxIter = %d, want ≥ 1 (0 = 100)", ErrBadParam, c.MaxIter)
	case !(c.RouterC >= 0) || math.IsInf(c.RouterC, 0):
		return fmt.Errorf("%w: RouterC = %v, want > 0 (0 = the node C1)", ErrBadParam, c.RouterC)
	}
	if c.Node == nil {
		if err := c.S4VM.Validate(); err != nil {
			return fmt.Errorf("%w: node S4VM: %w", ErrBadParam, err)
		}
	}
	return nil
}

// Model is a fitted HiBUST: the MCCK partition, the tree with its
// routers, and the transductive labels. It is immutable.
type Model struct {
	classes      []int
	n            int
	transduction []int
	// Nodes is the tree in preorder, Nodes[0] the root.
	nodes     []Node
	confident []int

	// Clusters is the number of MCCK clusters of the chosen partition,
	// Silhouette its simplified silhouette.
	Clusters   int
	Silhouette float64
	// Iter and Converged describe the chosen MCCK run; Warnings holds
	// ErrNotConverged for each run that stopped at MaxIter.
	Iter      int
	Converged bool
	Warnings  []error
}

// Classes returns the sorted class labels of the leaves.
func (m *Model) Classes() []int { return slices.Clone(m.classes) }

// Transduction returns the label of each of the n training rows:
// labelled rows keep theirs, confidence-labelled rows have the label
// Step 2 gave them, the others the class of the leaf they reached.
func (m *Model) Transduction() []int { return slices.Clone(m.transduction) }

// Nodes returns a copy of the tree in preorder (Nodes()[0] is the root).
func (m *Model) Nodes() []Node {
	out := make([]Node, len(m.nodes))
	for i, n := range m.nodes {
		out[i] = n
		out[i].Clusters = slices.Clone(n.Clusters)
		out[i].Labeled = slices.Clone(n.Labeled)
		out[i].SV = slices.Clone(n.SV)
		out[i].Coef = slices.Clone(n.Coef)
	}
	return out
}

// NTrain is the number of training rows (columns of Predict's Kt).
func (m *Model) NTrain() int { return m.n }

// Confident returns the rows labelled by the confidence step (ascending).
func (m *Model) Confident() []int { return slices.Clone(m.confident) }

// Fit computes the Gram matrix of c.Kernel (linear when nil) on X and
// calls FitGram.
func (c Classifier) Fit(ctx context.Context, X *mat.Dense, y []int) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	k := c.Kernel
	if k == nil {
		k = kernel.Linear{}
	}
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrEmpty)
	}
	K, err := kernel.Gram(ctx, nil, k, X)
	if err != nil {
		return nil, err
	}
	return c.FitGram(ctx, K, y)
}

// FitGram runs HiBUST on the n×n kernel matrix K of all rows with labels y
// (class ≥ 0 or Unlabeled): MCCK in the kernel's feature space (Fig. 2),
// the optional confidence labelling (Eq. 5), the tree (Fig. 3) and the
// top-down classification (Fig. 4), then a router at each internal node.
//
// Errors: ErrBadParam, ErrEmpty, ErrShape, ErrNonFinite, ErrBadLabel (fewer
// than two labelled classes, a label < −1), the node learner's errors, or
// ctx.Err().
func (c Classifier) FitGram(ctx context.Context, K mat.Symmetric, y []int) (*Model, error) {
	if err := c.Validate(); err != nil {
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
	for _, k := range c.Classes {
		if len(byClass[k]) == 0 {
			return nil, fmt.Errorf("%w: class %d has no labelled row; HiBUST needs at least one per class", ErrBadLabel, k)
		}
	}
	mc := MCCK{Restarts: c.Restarts, MaxIter: c.MaxIter, Seed: c.Seed, Progress: c.Progress, choices: c.choices}
	p, err := mc.cluster(ctx, g, y, byClass)
	if err != nil {
		return nil, err
	}
	return c.fitPartition(ctx, g, y, p)
}

// fitPartition runs Steps 2–4 on a partition.
func (c Classifier) fitPartition(ctx context.Context, g *gram, y []int, p *Partition) (*Model, error) {
	lab := slices.Clone(y)
	labeled := make([][]int, p.K())
	for i, c := range y {
		if c != Unlabeled {
			labeled[p.Assign[i]] = append(labeled[p.Assign[i]], i)
		}
	}
	var confident []int
	if c.Theta > 0 {
		rows, comp := p.Confident(y, c.Theta)
		for a, i := range rows {
			lab[i] = p.Class[comp[a]]
			labeled[comp[a]] = append(labeled[comp[a]], i)
		}
		for j := range labeled {
			slices.Sort(labeled[j])
		}
		confident = rows
	}
	nodes := buildTree(g, labeled, p.Class)
	m := &Model{n: g.n, nodes: nodes, Clusters: p.K(), Silhouette: p.Silhouette, confident: confident,
		Iter: p.Iter, Converged: p.Converged, Warnings: p.Warnings}
	for _, nd := range nodes {
		if nd.Leaf && !slices.Contains(m.classes, nd.Class) {
			m.classes = append(m.classes, nd.Class)
		}
	}
	slices.Sort(m.classes)
	var unl []int
	for i, c := range lab {
		if c == Unlabeled {
			unl = append(unl, i)
		}
	}
	m.transduction = lab
	if err := c.classify(ctx, g, m, 0, unl); err != nil {
		return nil, err
	}
	return m, nil
}

// classify is Fig. 4 from node i for the unlabelled rows u, followed by
// the node's router.
func (c Classifier) classify(ctx context.Context, g *gram, m *Model, i int, u []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	nd := &m.nodes[i]
	nd.Reached = len(u)
	if nd.Leaf {
		for _, r := range u {
			m.transduction[r] = nd.Class
		}
		return nil
	}
	left, right := m.nodes[nd.Left].Labeled, m.nodes[nd.Right].Labeled
	rows := make([]int, 0, len(left)+len(right)+len(u))
	rows = append(append(append(rows, left...), right...), u...)
	side := make([]int, len(rows))
	for a := range side {
		switch {
		case a < len(left):
			side[a] = 0
		case a < len(left)+len(right):
			side[a] = 1
		default:
			side[a] = Unlabeled
		}
	}
	if len(u) > 0 {
		node := c.Node
		if node == nil {
			s := c.S4VM
			s.Seed += uint64(i)
			s.Classes, s.Progress = nil, nil
			if c.Progress != nil {
				stage := fmt.Sprintf("node %d s4vm", i)
				s.Progress = func(_ string, done, total int) { c.Progress(stage, done, total) }
			}
			node = s // S4VM.Transduce: no predictor SVMs are trained
		}
		got, err := node.Transduce(ctx, g.subBlock(rows), side)
		if err != nil {
			return fmt.Errorf("hibust: node %d (%d vs %d labelled, %d unlabelled): %w", i, len(left), len(right), len(u), err)
		}
		if len(got) != len(rows) {
			return fmt.Errorf("hibust: node %d: node learner returned %d labels for %d rows", i, len(got), len(rows))
		}
		copy(side[len(left)+len(right):], got[len(left)+len(right):])
	}
	var to [2][]int
	for a, r := range u {
		s := side[len(left)+len(right)+a]
		if s != 0 && s != 1 {
			return fmt.Errorf("hibust: node %d: node learner gave side %d to row %d, want 0 or 1", i, s, r)
		}
		to[s] = append(to[s], r)
	}
	nd.Sent = [2]int{len(to[0]), len(to[1])}
	sv, coef, rho, err := router(ctx, g, c.routerC(), rows, side)
	if err != nil {
		return fmt.Errorf("hibust: node %d router: %w", i, err)
	}
	nd.SV, nd.Coef, nd.Rho = sv, coef, rho
	if c.Progress != nil {
		c.Progress("tree", i+1, len(m.nodes))
	}
	l, r := nd.Left, nd.Right
	if err := c.classify(ctx, g, m, l, to[0]); err != nil {
		return err
	}
	return c.classify(ctx, g, m, r, to[1])
}

// Predict labels t new points from their t×n kernel rows Kt against the
// training rows, routing each from the root by the nodes' routers. dst, if
// it has length t, is filled and returned; nil allocates.
//
// Errors: ErrShape (Kt not t×n), ErrNonFinite, or ctx.Err().
func (m *Model) Predict(ctx context.Context, dst []int, Kt mat.Matrix) ([]int, error) {
	t, n := Kt.Dims()
	if n != m.n {
		return nil, fmt.Errorf("%w: Kt has %d columns, the model %d training rows", ErrShape, n, m.n)
	}
	if len(dst) != t {
		dst = make([]int, t)
	}
	for p := 0; p < t; p++ {
		if p%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		i := 0
		for !m.nodes[i].Leaf {
			nd := &m.nodes[i]
			f := -nd.Rho
			for s, r := range nd.SV {
				f += nd.Coef[s] * Kt.At(p, r)
			}
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("%w: decision value at node %d for point %d", ErrNonFinite, i, p)
			}
			if f > 0 {
				i = nd.Right
			} else {
				i = nd.Left
			}
		}
		dst[p] = m.nodes[i].Class
	}
	return dst, nil
}

// WorkBytes estimates the memory FitGram on n rows holds at its peak
// besides the caller's float64 Gram matrix, with procs goroutines
// (GOMAXPROCS). The nodes run one at a time and the root (m ≤ n rows,
// counted as n) is the largest: the live heap is the fit's own dense copy
// of K (8·n²), the node's block of K (8·m²) and, when Node is nil, the
// node S4VM's (s4vm.S4VM.LiveBytes with two classes: its float32 block,
// the pair's matrix and procs column caches); the router's C-SVC that
// follows holds less (the node's block and one column cache). Each node
// drops its blocks when it is done, and Go's collector lets the heap grow
// to twice the live heap of its previous cycle (GOGC=100) before it
// collects: the nodes' dropped blocks add up to about the live heap or
// more, so the peak is counted as twice the live heap with the caller's
// Gram matrix. That is the runtime's slack, not a margin (the measured
// peaks are in docs/performance.md).
func (c Classifier) WorkBytes(n, procs int) float64 {
	nn := 8 * float64(n) * float64(n)
	live := 2 * nn
	if c.Node == nil {
		live += c.S4VM.LiveBytes(n, 2, procs)
	}
	return 2*(nn+live) - nn
}
