package figure

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/arbor-ml/arbor/hibust"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// HiBUSTOptions styles HiBUSTTree.
type HiBUSTOptions struct {
	Title string
	// Classes names the class labels (nil: numbers).
	Classes []string
	// Leaves caps the leaves drawn, as DendrogramOptions.Leaves: the
	// Leaves−1 internal nodes of highest merge level are drawn (ties: the
	// first in preorder) and every subtree below them is one leaf, labelled
	// "[n leaves]" with its classes. 0 chooses: every leaf up to
	// HiBUSTAutoLeaves, else HiBUSTDefaultLeaves. Negative draws every leaf.
	Leaves int
	// Width and Height of the page (0: sized to the leaves drawn and to
	// the key, at most HiBUSTMaxWidth wide).
	Width, Height vg.Length
}

// Automatic truncation of HiBUSTTree (HiBUSTOptions.Leaves = 0) and the
// widest page it chooses (1,536 px at 96 dpi).
const (
	HiBUSTAutoLeaves    = 24
	HiBUSTDefaultLeaves = 20
	HiBUSTMaxWidth      = 16 * vg.Inch
)

// HiBUSTLeaves returns the number of leaves HiBUSTTree draws for a tree
// with n leaves and options opt.
func HiBUSTLeaves(n int, opt HiBUSTOptions) int {
	p := opt.Leaves
	switch {
	case p < 0 || p == 0 && n <= HiBUSTAutoLeaves:
		return n
	case p == 0:
		p = HiBUSTDefaultLeaves
	}
	return min(max(p, 1), n)
}

// HiBUSTTree draws a fitted HiBUST tree (paper 003 Fig. 5c) as a
// dendrogram: leaves along the x axis, coloured and named by class with
// their labelled rows; each internal node at its merge level (1 + the
// higher child's level), numbered as in hibust.Model.WriteTree, with its
// number beside it; a key under the tree gives each drawn node's binary
// sub-problem, "left classes (labelled rows) | right classes (labelled
// rows)", and how many unlabelled rows reached it and went each way. The
// page is sized to the leaves drawn (Leaves truncates as SciPy's
// truncate_mode="lastp"), so that labels keep their size at any number of
// leaves, and no text is drawn over a link. Errors: ErrInput (a model
// without nodes).
func HiBUSTTree(m *hibust.Model, opt HiBUSTOptions) (*Figure, error) {
	nodes := m.Nodes()
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%w: HiBUST model without nodes", ErrInput)
	}
	name := func(c int) string {
		if c >= 0 && c < len(opt.Classes) {
			return opt.Classes[c]
		}
		return fmt.Sprint(c)
	}
	classes := func(cs []int) string {
		s := make([]string, len(cs))
		for i, c := range cs {
			s[i] = name(c)
		}
		txt := strings.Join(s, "+")
		if len([]rune(txt)) > 28 {
			txt = fmt.Sprintf("%d classes", len(cs))
		}
		return txt
	}
	// Merge levels and leaf counts, children before parents.
	level := make([]int, len(nodes))
	nleaves := make([]int, len(nodes))
	var measure func(i int)
	measure = func(i int) {
		nd := nodes[i]
		if nd.Leaf {
			nleaves[i] = 1
			return
		}
		measure(nd.Left)
		measure(nd.Right)
		level[i] = 1 + max(level[nd.Left], level[nd.Right])
		nleaves[i] = nleaves[nd.Left] + nleaves[nd.Right]
	}
	measure(0)
	total := nleaves[0]
	// Truncation: open the node of highest level on the frontier until
	// p leaves are shown (a parent's level exceeds its children's, so
	// this is SciPy's lastp with the level as the merge height).
	p := HiBUSTLeaves(total, opt)
	open := make([]bool, len(nodes))
	frontier := []int{0}
	for len(frontier) < p {
		best := -1
		for k, v := range frontier {
			if !nodes[v].Leaf && (best < 0 || level[v] > level[frontier[best]] || level[v] == level[frontier[best]] && v < frontier[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		v := frontier[best]
		open[v] = true
		frontier = append(frontier[:best], frontier[best+1:]...)
		frontier = append(frontier, nodes[v].Left, nodes[v].Right)
	}
	// x: shown leaves left to right; an open node midway between its children.
	x := make([]float64, len(nodes))
	var shown []int
	var place func(i int)
	place = func(i int) {
		if !open[i] {
			x[i] = float64(len(shown))
			shown = append(shown, i)
			return
		}
		place(nodes[i].Left)
		place(nodes[i].Right)
		x[i] = (x[nodes[i].Left] + x[nodes[i].Right]) / 2
	}
	place(0)
	y := func(i int) float64 {
		if open[i] {
			return float64(level[i])
		}
		return 0
	}
	pl := plot.New()
	pl.Title.Text = opt.Title
	if pl.Title.Text == "" {
		pl.Title.Text = fmt.Sprintf("HiBUST tree: %d leaves, %d binary sub-problem%s", total, total-1, plural(total-1))
		if len(shown) < total {
			pl.Title.Text += fmt.Sprintf(", the top %d drawn", len(shown)-1)
		}
	}
	pl.Y.Label.Text = "merge level"
	pl.X.Label.Text = "leaf: class (labelled rows)"
	if len(shown) < total {
		pl.X.Label.Text = "leaf: class (labelled rows); [n leaves]: a subtree"
	}
	var ticks []plot.Tick
	var leafPts []plotter.XY
	var leafCol []color.Color
	for _, i := range shown {
		nd := nodes[i]
		col := color.Color(ClassColor(nd.Class))
		label := fmt.Sprintf("%s (%d)", name(nd.Class), len(nd.Labeled))
		if !nd.Leaf {
			l, r := m.Subproblem(i)
			cs := mergeInts(l.Classes, r.Classes)
			label = fmt.Sprintf("[%d leaves] %s (%d)", nleaves[i], classes(cs), len(nd.Labeled))
			col = UnlabeledColor
			if len(cs) == 1 {
				col = ClassColor(cs[0])
			}
		}
		ticks = append(ticks, plot.Tick{Value: x[i], Label: label})
		leafPts = append(leafPts, plotter.XY{X: x[i], Y: 0})
		leafCol = append(leafCol, col)
	}
	// Links, then node boxes and numbers, in preorder.
	var boxes plotter.XYs
	var numPts plotter.XYs
	var nums []string
	var key []string
	for i, nd := range nodes {
		if !open[i] {
			continue
		}
		link := plotter.XYs{{X: x[nd.Left], Y: y(nd.Left)}, {X: x[nd.Left], Y: y(i)},
			{X: x[nd.Right], Y: y(i)}, {X: x[nd.Right], Y: y(nd.Right)}}
		l, err := plotter.NewLine(link)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInput, err)
		}
		l.LineStyle.Width = vg.Points(1.2)
		pl.Add(l)
		boxes = append(boxes, plotter.XY{X: x[i], Y: y(i)})
		numPts = append(numPts, plotter.XY{X: x[i], Y: y(i)})
		nums = append(nums, fmt.Sprint(i))
		ls, rs := m.Subproblem(i)
		key = append(key, fmt.Sprintf("%d: %s (%d) | %s (%d);  %d → %d | %d", i,
			classes(ls.Classes), ls.Labeled, classes(rs.Classes), rs.Labeled, nd.Reached, nd.Sent[0], nd.Sent[1]))
	}
	if len(boxes) > 0 {
		b, err := plotter.NewScatter(boxes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInput, err)
		}
		b.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.5), Shape: draw.BoxGlyph{}}
		pl.Add(b)
		// Each number to the right of its node's foot-free leg and above
		// its bar: that corner belongs to the node alone (the links of its
		// subtree are lower, its parent's bar higher, other subtrees to
		// the side).
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: numPts, Labels: nums})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInput, err)
		}
		for k := range lab.TextStyle {
			lab.TextStyle[k].XAlign = draw.XLeft
			lab.TextStyle[k].YAlign = draw.YBottom
			lab.TextStyle[k].Font.Size = vg.Points(8)
		}
		lab.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(1.5)}
		pl.Add(lab)
	}
	for k, pt := range leafPts {
		s, err := plotter.NewScatter(plotter.XYs{pt})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInput, err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: leafCol[k], Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		if !nodes[shown[k]].Leaf {
			s.GlyphStyle.Shape = draw.PyramidGlyph{}
			s.GlyphStyle.Radius = vg.Points(5)
		}
		pl.Add(s)
	}
	pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	pl.X.Tick.Label.Font.Size = vg.Points(9)
	pl.X.Min, pl.X.Max = -0.6, float64(len(shown))-0.4
	pl.Y.Min, pl.Y.Max = -0.3, float64(level[0])+0.6
	pl.Y.Tick.Marker = NiceTicks{Integer: true}
	// Page: about 0.38 inch per leaf; the key under the panel.
	w := opt.Width
	if w == 0 {
		w = min(HiBUSTMaxWidth, max(5*vg.Inch, vg.Length(len(shown))*0.38*vg.Inch+1.2*vg.Inch))
	}
	// Leaf names across when they fit between their neighbours, else
	// upright.
	widest := vg.Length(0)
	for _, tk := range ticks {
		widest = max(widest, pl.X.Tick.Label.Width(tk.Label))
	}
	if widest > 0.9*(w-1.2*vg.Inch)/vg.Length(len(shown)) {
		pl.X.Tick.Label.Rotation = math.Pi / 2
		pl.X.Tick.Label.XAlign = draw.XRight
		pl.X.Tick.Label.YAlign = draw.YCenter
	}
	var k *Key
	if len(key) > 0 {
		k = &Key{Heading: "node: left classes (labelled rows) | right classes (labelled rows); unlabelled rows that reached it → sent left | right", Lines: key}
	}
	h := opt.Height
	if h == 0 {
		h = DefaultHeight + KeyHeight(k, w)
	}
	f := single(pl, w, h)
	f.Key = k
	return f, nil
}

// mergeInts returns the sorted union of two sorted lists.
func mergeInts(a, b []int) []int {
	out := append(append([]int(nil), a...), b...)
	sort.Ints(out)
	k := 0
	for i, v := range out {
		if i == 0 || v != out[k-1] {
			out[k] = v
			k++
		}
	}
	return out[:k]
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
