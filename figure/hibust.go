package figure

import (
	"fmt"
	"math"
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
	// Width and Height of the page (0: 1 inch per leaf, at least
	// DefaultWidth; DefaultHeight).
	Width, Height vg.Length
}

// HiBUSTTree draws a fitted HiBUST tree (paper 003 Fig. 5c) as a
// dendrogram: leaves along the x axis, coloured by class and named by
// class, MCCK clusters and labelled rows; each internal node at the level
// of its merge (1 + the higher child's level) with its binary
// sub-problem, "left classes | right classes", and how many unlabelled
// rows it sent each way. Errors: ErrInput (a model without nodes).
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
	side := func(s hibust.Side) string {
		cs := make([]string, len(s.Classes))
		for i, c := range s.Classes {
			cs[i] = name(c)
		}
		txt := strings.Join(cs, "+")
		if len(txt) > 28 {
			txt = fmt.Sprintf("%d classes", len(cs))
		}
		return fmt.Sprintf("%s (%d)", txt, s.Labeled)
	}
	// Leaves left to right in order; internal x = midpoint of children.
	x := make([]float64, len(nodes))
	level := make([]float64, len(nodes))
	leaves := 0
	var place func(i int)
	place = func(i int) {
		nd := nodes[i]
		if nd.Leaf {
			x[i] = float64(leaves)
			leaves++
			return
		}
		place(nd.Left)
		place(nd.Right)
		x[i] = (x[nd.Left] + x[nd.Right]) / 2
		level[i] = 1 + math.Max(level[nd.Left], level[nd.Right])
	}
	place(0)
	p := plot.New()
	p.Title.Text = opt.Title
	if p.Title.Text == "" {
		p.Title.Text = fmt.Sprintf("HiBUST tree: %d leaves, %d binary sub-problems (left | right, labelled rows)", leaves, leaves-1)
	}
	p.Y.Label.Text = "merge level"
	p.X.Label.Text = "leaf: class, MCCK clusters, labelled rows"
	var lx, ly []float64
	var ltext []string
	var ticks []plot.Tick
	for i, nd := range nodes {
		if nd.Leaf {
			ticks = append(ticks, plot.Tick{Value: x[i], Label: fmt.Sprintf("%s c%s n%d", name(nd.Class), joinInts(nd.Clusters), len(nd.Labeled))})
			pts, err := plotter.NewScatter(plotter.XYs{{X: x[i], Y: 0}})
			if err != nil {
				return nil, err
			}
			pts.GlyphStyle.Shape = draw.CircleGlyph{}
			pts.GlyphStyle.Radius = vg.Points(5)
			pts.GlyphStyle.Color = ClassColor(nd.Class)
			p.Add(pts)
			continue
		}
		link := plotter.XYs{{X: x[nd.Left], Y: level[nd.Left]}, {X: x[nd.Left], Y: level[i]},
			{X: x[nd.Right], Y: level[i]}, {X: x[nd.Right], Y: level[nd.Right]}}
		l, err := plotter.NewLine(link)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Width = vg.Points(1.2)
		p.Add(l)
		box, err := plotter.NewScatter(plotter.XYs{{X: x[i], Y: level[i]}})
		if err != nil {
			return nil, err
		}
		box.GlyphStyle.Shape = draw.BoxGlyph{}
		box.GlyphStyle.Radius = vg.Points(3)
		p.Add(box)
		ls, rs := m.Subproblem(i)
		lx, ly = append(lx, x[i]), append(ly, level[i])
		ltext = append(ltext, fmt.Sprintf("%s | %s\n%d → %d | %d", side(ls), side(rs), nd.Reached, nd.Sent[0], nd.Sent[1]))
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys(lx, ly), Labels: ltext})
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].XAlign = draw.XLeft
		labels.TextStyle[i].YAlign = draw.YBottom
		labels.TextStyle[i].Font.Size = vg.Points(7)
		labels.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(2)}
	}
	p.Add(labels)
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Min, p.X.Max = -0.7, float64(leaves)-0.3
	p.Y.Min, p.Y.Max = -0.2, level[0]+1
	w := opt.Width
	if w == 0 {
		w = max(DefaultWidth, vg.Length(leaves)*1.1*vg.Inch)
	}
	return single(p, w, opt.Height), nil
}

func xys(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i].X, out[i].Y = x[i], y[i]
	}
	return out
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, a := range v {
		s[i] = fmt.Sprint(a)
	}
	return strings.Join(s, ",")
}
