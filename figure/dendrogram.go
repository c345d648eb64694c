package figure

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DendrogramOptions styles Dendrogram.
type DendrogramOptions struct {
	Title string
	// YLabel names the height axis (default "height").
	YLabel string
	// XLabel names the leaf axis (default: what the leaf labels are).
	XLabel string
	// Labels names the leaves (len N); nil names them by row number
	// 0..N−1, as SciPy does.
	Labels []string
	// Cut > 0 draws a dashed line at that height and colours each subtree
	// merged at or below it (one flat cluster, as hclust.Tree.CutHeight) in
	// its own colour; links above the cut are grey.
	Cut float64
	// K > 0 (with Cut = 0) colours K clusters: the cut is placed midway
	// between the (N−K)-th and (N−K+1)-th smallest merge heights.
	K int
	// Leaves caps the number of leaves drawn, as SciPy's
	// truncate_mode="lastp" with p = Leaves: only the last Leaves−1 merges
	// are drawn and every subtree formed before them is one leaf, labelled
	// "(n)" with its number of rows. 0 chooses: every leaf when N ≤
	// AutoLeaves, else max(DefaultLeaves, K). Negative draws every leaf.
	Leaves int
	// Width and Height of the page (0: DefaultWidth×DefaultHeight).
	Width, Height vg.Length
}

// Automatic truncation of Dendrogram (DendrogramOptions.Leaves = 0): trees
// over more than AutoLeaves leaves are drawn with DefaultLeaves leaves (or
// K, if larger).
const (
	AutoLeaves    = 50
	DefaultLeaves = 30
)

// maxNamedLeaves is the most leaf names an untruncated dendrogram prints;
// beyond it the names would overlap into a solid band.
const maxNamedLeaves = 200

// DendrogramLeaves returns the number of leaves Dendrogram draws for a tree
// over n leaves with options opt (see DendrogramOptions.Leaves).
func DendrogramLeaves(n int, opt DendrogramOptions) int {
	p := opt.Leaves
	switch {
	case p < 0:
		return n
	case p == 0 && n <= AutoLeaves:
		return n
	case p == 0:
		p = max(DefaultLeaves, opt.K)
	}
	return min(max(p, 2), n)
}

// Dendrogram draws t the way SciPy's dendrogram does: leaves along the x
// axis in t.Leaves() order at x = 0..N−1, each merge as a U-shaped link
// whose feet stand on its children (at height 0 for a leaf, at the child's
// merge height otherwise) and whose bar is at the merge height; an inner
// node sits midway between its children. Errors: ErrInput (nil tree,
// invalid merges, len(Labels) ≠ N, K outside 1..N, negative or non-finite
// Cut).
func Dendrogram(t *hclust.Tree, opt DendrogramOptions) (*Figure, error) {
	if t == nil || t.N < 1 {
		return nil, fmt.Errorf("%w: empty tree", ErrInput)
	}
	n := t.N
	if len(t.Merges) != n-1 {
		return nil, fmt.Errorf("%w: tree over %d leaves has %d merges, want %d", ErrInput, n, len(t.Merges), n-1)
	}
	if opt.Labels != nil && len(opt.Labels) != n {
		return nil, fmt.Errorf("%w: %d leaf labels for %d leaves", ErrInput, len(opt.Labels), n)
	}
	if opt.K < 0 || opt.K > n {
		return nil, fmt.Errorf("%w: K = %d, want 0..%d", ErrInput, opt.K, n)
	}
	if opt.Cut < 0 || !finite(opt.Cut) {
		return nil, fmt.Errorf("%w: Cut = %v, want ≥ 0", ErrInput, opt.Cut)
	}
	used := make([]bool, 2*n-1)
	for i, m := range t.Merges {
		if m.A < 0 || m.B < 0 || m.A >= n+i || m.B >= n+i || m.A == m.B || used[m.A] || used[m.B] {
			return nil, fmt.Errorf("%w: merge %d joins %d and %d", ErrInput, i, m.A, m.B)
		}
		if !finite(m.Height) {
			return nil, fmt.Errorf("%w: merge %d has height %v", ErrInput, i, m.Height)
		}
		used[m.A], used[m.B] = true, true
	}
	leaves := t.Leaves()
	x := make([]float64, 2*n-1)
	h := make([]float64, 2*n-1)
	// Truncation (SciPy's lastp): nodes ≥ first are the drawn merges; their
	// children below first are the drawn leaves, at height 0.
	np := DendrogramLeaves(n, opt)
	first := 2*n - np
	var shown []int // drawn leaves, left to right (tree nodes)
	if np == n {
		shown = leaves
		for pos, leaf := range leaves {
			x[leaf] = float64(pos)
		}
	} else {
		rep := make([]int, 2*n-1)
		for v := 2*n - 2; v >= n; v-- {
			m := t.Merges[v-n]
			for _, c := range []int{m.A, m.B} {
				switch {
				case v < first:
					rep[c] = rep[v]
				case c < first:
					rep[c] = c
				default:
					rep[c] = -1
				}
			}
		}
		seen := make(map[int]bool, np)
		for _, leaf := range leaves {
			if r := rep[leaf]; !seen[r] {
				seen[r] = true
				x[r] = float64(len(shown))
				shown = append(shown, r)
			}
		}
	}
	for i, m := range t.Merges {
		if n+i < first {
			continue
		}
		x[n+i] = (x[m.A] + x[m.B]) / 2
		h[n+i] = m.Height
	}
	cut := opt.Cut
	if cut == 0 && opt.K > 0 && n > 1 {
		hs := make([]float64, n-1)
		for i, m := range t.Merges {
			hs[i] = m.Height
		}
		sort.Float64s(hs)
		switch {
		case opt.K == 1:
			cut = hs[n-2] + 1e-9*math.Max(1, math.Abs(hs[n-2]))
		case opt.K == n:
			cut = hs[0] / 2
		default:
			cut = (hs[n-opt.K-1] + hs[n-opt.K]) / 2
		}
	}
	// Cluster of every node: an inner node merged at or below the cut whose
	// parent is above it (or which is the root) starts a cluster; clusters
	// are numbered left to right, as SciPy's color_threshold.
	cluster := make([]int, 2*n-1)
	for i := range cluster {
		cluster[i] = -1
	}
	if cut > 0 {
		parentH := make([]float64, 2*n-1)
		for i := range parentH {
			parentH[i] = math.Inf(1)
		}
		for _, m := range t.Merges {
			parentH[m.A], parentH[m.B] = m.Height, m.Height
		}
		type root struct {
			node int
			left float64
		}
		var roots []root
		var leftmost func(v int) float64
		leftmost = func(v int) float64 {
			for v >= n {
				m := t.Merges[v-n]
				if x[m.A] < x[m.B] {
					v = m.A
				} else {
					v = m.B
				}
			}
			return x[v]
		}
		for v := n; v < 2*n-1; v++ { // singletons keep the grey of links above the cut
			if h[v] <= cut && parentH[v] > cut {
				roots = append(roots, root{v, leftmost(v)})
			}
		}
		sort.Slice(roots, func(a, b int) bool { return roots[a].left < roots[b].left })
		for c, r := range roots {
			stack := []int{r.node}
			for len(stack) > 0 {
				v := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				cluster[v] = c
				if v >= n {
					stack = append(stack, t.Merges[v-n].A, t.Merges[v-n].B)
				}
			}
		}
	}
	p := plot.New()
	p.Title.Text = opt.Title
	p.Y.Label.Text = opt.YLabel
	if p.Y.Label.Text == "" {
		p.Y.Label.Text = "height"
	}
	for i, m := range t.Merges {
		v := n + i
		if v < first {
			continue
		}
		link := plotter.XYs{{X: x[m.A], Y: h[m.A]}, {X: x[m.A], Y: h[v]}, {X: x[m.B], Y: h[v]}, {X: x[m.B], Y: h[m.B]}}
		l, err := plotter.NewLine(link)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInput, err)
		}
		l.Color = color.Black
		if cut > 0 {
			l.Color = Grey
			if cluster[v] >= 0 {
				l.Color = ClassColor(cluster[v])
			}
		}
		l.Width = vg.Points(1)
		p.Add(l)
	}
	if cut > 0 {
		l, _ := plotter.NewLine(plotter.XYs{{X: -0.5, Y: cut}, {X: float64(np) - 0.5, Y: cut}})
		l.Color = color.RGBA{0x60, 0x60, 0x60, 0xff}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
	}
	p.X.Min, p.X.Max = -0.5, float64(np)-0.5
	p.Y.Min = 0
	if n == 1 {
		p.Y.Max = 1
	}
	// headroom above the root's link (and the cut line), as SciPy's 5 %:
	// at the very top of the axis the link would touch the title
	top := cut // (centroid and median trees may put a link above the root)
	for _, m := range t.Merges {
		top = math.Max(top, m.Height)
	}
	if top > 0 {
		p.Y.Max = 1.05 * top
	}
	p.Y.Tick.Marker = NiceTicks{}
	ticks := plot.ConstantTicks(nil)
	p.X.Label.Text = opt.XLabel
	if np <= maxNamedLeaves {
		for pos, v := range shown {
			var name string
			switch {
			case v >= n:
				name = fmt.Sprintf("(%d)", t.Merges[v-n].Size)
			case opt.Labels != nil:
				name = opt.Labels[v]
			default:
				name = strconv.Itoa(v)
			}
			ticks = append(ticks, plot.Tick{Value: float64(pos), Label: name})
		}
		if np > 12 {
			p.X.Tick.Label.Rotation = math.Pi / 2
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
			// One line of text per leaf: shrink the names to the space.
			w := orDefault(opt.Width, DefaultWidth) - vg.Inch
			size := min(max(0.9*w/vg.Length(np), vg.Points(5)), p.X.Tick.Label.Font.Size)
			p.X.Tick.Label.Font.Size = size
		}
		if p.X.Label.Text == "" {
			switch {
			case np < n && opt.Labels == nil:
				p.X.Label.Text = fmt.Sprintf("row, or (number of rows) of a subtree: %d of %d leaves", np, n)
			case np < n:
				p.X.Label.Text = fmt.Sprintf("leaf, or (number of leaves) of a subtree: %d of %d leaves", np, n)
			case opt.Labels == nil:
				p.X.Label.Text = "row"
			default:
				p.X.Label.Text = "leaf"
			}
		}
	} else if p.X.Label.Text == "" {
		p.X.Label.Text = fmt.Sprintf("%d leaves (too many to name; truncate to name them)", n)
	}
	p.X.Tick.Marker = ticks
	return single(p, opt.Width, opt.Height), nil
}
