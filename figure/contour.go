package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Field evaluates a scalar function on a batch of 2-D points (one per row
// of grid), e.g. R²(x) of a fitted SVDD model.
type Field func(grid *mat.Dense) ([]float64, error)

// Marks is a named subset of a panel's points drawn with a distinct glyph
// (e.g. the support vectors or the bounded support vectors).
type Marks struct {
	Name string
	Idx  []int // rows of the panel's X
	// Hollow draws the marked points as hollow circles in their own
	// colour instead of adding a glyph around them: for a subset as large
	// as the rest (e.g. 90 % bounded support vectors), so that the colours
	// and the contour stay visible.
	Hollow bool
}

// ContourPanel is one panel of Contours: the level set F(x) = Level over
// the points X (2 columns, optional colours Y as in Scatter) and marked
// subsets.
type ContourPanel struct {
	Title string
	// XLabel and YLabel name the axes (default "feature 1", "feature 2").
	XLabel, YLabel string
	F              Field
	Level          float64
	X              mat.Matrix
	Y              []int
	// Classes names the groups of Y in the legend (nil: "class 0", ...);
	// Unlabeled names Y < 0 (default "unlabelled").
	Classes   []string
	Unlabeled string
	Marks     []Marks
	// Shade fills the region F(x) ≤ Level in light grey (e.g. the inside
	// of the sphere), so that a small region stays visible.
	Shade bool
}

// ContourOptions styles Contours.
type ContourOptions struct {
	// Grid is the number of grid points per axis (default 200).
	Grid int
	// Pad is the margin around all panels' points as a fraction of their
	// range (default 0.1); every panel shares the same window.
	Pad float64
	// Width and Height of one panel (0: 4×4 inches).
	Width, Height vg.Length
}

// markGlyphs cycle over Marks: rings (e.g. support vectors), squares
// (bounded support vectors), triangles, all hollow and larger than a point
// so that the point's colour shows inside.
var markGlyphs = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}

// markColors are the outline colours of markGlyphs: black, then dark greys.
var markColors = []color.RGBA{{0, 0, 0, 0xff}, {0x40, 0x40, 0x40, 0xff}, {0x40, 0x40, 0x40, 0xff}}

// ShadeColor fills the region F ≤ Level of a shaded contour panel.
var ShadeColor = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}

// Contours draws the panels side by side (e.g. support vector clustering
// boundaries R(x) = R for several q, paper 001 Fig. 1): each panel
// evaluates its F once on a Grid×Grid batch over the common window and
// draws the contour at Level in black (Isolines: the same input gives the
// same picture, byte for byte), the points (grey, or coloured by Y) and
// the Marks as hollow rings, squares and triangles around the points. Errors:
// ErrInput (no panels, nil F, points not 2-D or non-finite, index out of
// range, F returns the wrong number of values or only non-finite values,
// bad Grid or Pad) and F's errors.
func Contours(panels []ContourPanel, opt ContourOptions) (*Figure, error) {
	if len(panels) == 0 {
		return nil, fmt.Errorf("%w: no contour panels", ErrInput)
	}
	g := opt.Grid
	if g == 0 {
		g = 200
	}
	pad := opt.Pad
	if pad == 0 {
		pad = 0.1
	}
	if g < 3 || g > 2000 || pad < 0 || !finite(pad) {
		return nil, fmt.Errorf("%w: Grid = %d (want 3..2000), Pad = %v (want ≥ 0)", ErrInput, opt.Grid, opt.Pad)
	}
	var allX, allY []float64
	for k, pn := range panels {
		if pn.F == nil {
			return nil, fmt.Errorf("%w: panel %d has no function", ErrInput, k)
		}
		if !finite(pn.Level) {
			return nil, fmt.Errorf("%w: panel %d level %v", ErrInput, k, pn.Level)
		}
		xs, ys, err := points2(pn.X, fmt.Sprintf("panel %d X", k))
		if err != nil {
			return nil, err
		}
		if _, d := pn.X.Dims(); d != 2 {
			return nil, fmt.Errorf("%w: panel %d X has %d columns, want 2", ErrInput, k, d)
		}
		allX, allY = append(allX, xs...), append(allY, ys...)
	}
	x0, x1, y0, y1 := bounds(allX, allY, pad)
	grid := mat.NewDense(g*g, 2, nil)
	gx, gy := make([]float64, g), make([]float64, g)
	for i := 0; i < g; i++ {
		gx[i] = x0 + (x1-x0)*float64(i)/float64(g-1)
		gy[i] = y0 + (y1-y0)*float64(i)/float64(g-1)
	}
	for r := 0; r < g; r++ {
		for c := 0; c < g; c++ {
			grid.Set(r*g+c, 0, gx[c])
			grid.Set(r*g+c, 1, gy[r])
		}
	}
	row := make([]*plot.Plot, len(panels))
	for k, pn := range panels {
		z, err := pn.F(grid)
		if err != nil {
			return nil, err
		}
		if len(z) != g*g {
			return nil, fmt.Errorf("%w: panel %d: F returned %d values for %d grid points", ErrInput, k, len(z), g*g)
		}
		ok := false
		for _, v := range z {
			ok = ok || finite(v)
		}
		if !ok {
			return nil, fmt.Errorf("%w: panel %d: F has no finite value on the grid", ErrInput, k)
		}
		p := plot.New()
		if pn.Shade {
			// Under the points: drawn first.
			p.Add(shadePlotter(z, gx, gy, pn.Level, ShadeColor))
		}
		if err := addPoints(p, pn.X, pn.Y, ScatterOptions{Title: pn.Title, XLabel: pn.XLabel, YLabel: pn.YLabel, Classes: pn.Classes, Unlabeled: pn.Unlabeled}, fmt.Sprintf("panel %d X", k)); err != nil {
			return nil, err
		}
		xs, ys, _ := points2(pn.X, "X")
		mi := 0 // glyph of the next non-hollow mark
		for _, m := range pn.Marks {
			var pts plotter.XYs
			for _, i := range m.Idx {
				if i < 0 || i >= len(xs) {
					return nil, fmt.Errorf("%w: panel %d marks %q: index %d out of range [0, %d)", ErrInput, k, m.Name, i, len(xs))
				}
				pts = append(pts, plotter.XY{X: xs[i], Y: ys[i]})
			}
			if len(pts) == 0 {
				continue
			}
			if m.Hollow {
				if err := addHollow(p, m, pn.Y, xs, ys); err != nil {
					return nil, err
				}
				continue
			}
			s, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInput, err)
			}
			s.GlyphStyle = draw.GlyphStyle{Color: markColors[mi%len(markColors)], Radius: vg.Points(4), Shape: markGlyphs[mi%len(markGlyphs)]}
			p.Add(s)
			p.Legend.Add(m.Name, s)
			mi++
		}
		// The level set on top of every point.
		p.Add(isolinePlotter{lines: Isolines(z, gx, gy, pn.Level), style: draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}})
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
		row[k] = p
	}
	w := orDefault(opt.Width, 4*vg.Inch)
	h := orDefault(opt.Height, 4*vg.Inch)
	return &Figure{Plots: [][]*plot.Plot{row}, Width: w * vg.Length(len(panels)), Height: h}, nil
}

// Series is one line of Line.
type Series struct {
	Name string
	X, Y []float64
}

// LineOptions styles Line.
type LineOptions struct {
	Title, XLabel, YLabel string
	// Points also marks every data point.
	Points bool
	// LogX uses a logarithmic x axis (all X must be > 0).
	LogX bool
	// IntegerY labels the y axis at whole numbers only (e.g. counts).
	IntegerY bool
	// YFromZero starts the y axis at 0 (e.g. for fractions and counts).
	YFromZero     bool
	Width, Height vg.Length
}

// Line draws each series as a polyline in the class colours (e.g. the
// number of clusters against q). Errors: ErrInput (no series, empty or
// mismatched X and Y, non-finite values, X ≤ 0 with LogX).
func Line(series []Series, opt LineOptions) (*Figure, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("%w: no series", ErrInput)
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = opt.Title, opt.XLabel, opt.YLabel
	for k, s := range series {
		if len(s.X) == 0 || len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("%w: series %d (%q) has %d x and %d y values", ErrInput, k, s.Name, len(s.X), len(s.Y))
		}
		pts := make(plotter.XYs, len(s.X))
		for i := range s.X {
			if !finite(s.X[i]) || !finite(s.Y[i]) || opt.LogX && s.X[i] <= 0 {
				return nil, fmt.Errorf("%w: series %d (%q) point %d = (%v, %v)", ErrInput, k, s.Name, i, s.X[i], s.Y[i])
			}
			pts[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInput, err)
		}
		l.Color = ClassColor(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		if opt.Points {
			sc, _ := plotter.NewScatter(pts)
			sc.GlyphStyle = draw.GlyphStyle{Color: ClassColor(k), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
			p.Add(sc)
		}
		if s.Name != "" {
			p.Legend.Add(s.Name, l)
		}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = NiceTicks{}, NiceTicks{Integer: opt.IntegerY}
	if opt.YFromZero {
		p.Y.Min = math.Min(p.Y.Min, 0)
	}
	if opt.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	return single(p, opt.Width, opt.Height), nil
}

// addHollow redraws the points of m as hollow circles in their class
// colours (Y, as addPoints; nil is class 0) with one legend entry.
func addHollow(p *plot.Plot, m Marks, y []int, xs, ys []float64) error {
	groups := map[int]plotter.XYs{}
	var order []int
	for _, i := range m.Idx {
		c := 0
		if y != nil {
			c = max(y[i], -1)
		}
		if _, ok := groups[c]; !ok {
			order = append(order, c)
		}
		groups[c] = append(groups[c], plotter.XY{X: xs[i], Y: ys[i]})
	}
	for _, c := range order {
		s, err := plotter.NewScatter(groups[c])
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInput, err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: ClassColor(c), Radius: vg.Points(2.4), Shape: hollowGlyph{}}
		p.Add(s)
	}
	thumb, _ := plotter.NewScatter(plotter.XYs{{}})
	thumb.GlyphStyle = draw.GlyphStyle{Color: UnlabeledColor, Radius: vg.Points(2.4), Shape: hollowGlyph{}}
	p.Legend.Add(m.Name, thumb)
	return nil
}

// hollowGlyph is a white disc with a ring in the glyph's colour.
type hollowGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (hollowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	var path vg.Path
	path.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	path.Arc(pt, sty.Radius, 0, 2*math.Pi)
	path.Close()
	c.SetColor(color.White)
	c.Fill(path)
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.1)})
	c.Stroke(path)
}
