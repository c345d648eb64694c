package figure

import (
	"fmt"
	"image"
	"image/color"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ScatterOptions styles Scatter, Embedding and DecisionRegions.
type ScatterOptions struct {
	Title string
	// XLabel and YLabel name the axes (default "feature 1", "feature 2").
	XLabel, YLabel string
	// Classes names the classes in the legend (nil: "class 0", "class 1", ...).
	Classes []string
	// Unlabeled names the points with a negative label in the legend
	// (default "unlabelled"; e.g. "outlier" for clusterings).
	Unlabeled string
	// Labeled lists the rows drawn as labelled points: larger markers with
	// a black outline. Nil draws every point at the small size.
	Labeled []int
	// Width and Height of the page (0: DefaultWidth×DefaultHeight).
	Width, Height vg.Length
}

// Scatter draws the first two columns of X, one colour per class y[i]
// (y[i] < 0, e.g. dataset.Unlabeled, is grey; nil y colours all points as
// class 0). Points listed in opt.Labeled are drawn larger. Errors: ErrInput
// (X empty, fewer than 2 columns or non-finite; len(y) ≠ rows; Labeled
// index out of range).
func Scatter(X mat.Matrix, y []int, opt ScatterOptions) (*Figure, error) {
	p := plot.New()
	if err := addPoints(p, X, y, opt, "X"); err != nil {
		return nil, err
	}
	return single(p, opt.Width, opt.Height), nil
}

// Embedding is Scatter for a kernel embedding Z (e.g. kernel.Embed, the
// first two components), with axes labelled "component 1" and
// "component 2" unless opt says otherwise.
func Embedding(Z mat.Matrix, y []int, opt ScatterOptions) (*Figure, error) {
	if opt.XLabel == "" {
		opt.XLabel = "component 1"
	}
	if opt.YLabel == "" {
		opt.YLabel = "component 2"
	}
	return Scatter(Z, y, opt)
}

// addPoints draws the points of X on p with the legend and labels of opt.
func addPoints(p *plot.Plot, X mat.Matrix, y []int, opt ScatterOptions, name string) error {
	xs, ys, err := points2(X, name)
	if err != nil {
		return err
	}
	n := len(xs)
	if y != nil && len(y) != n {
		return fmt.Errorf("%w: %d labels for %d points", ErrInput, len(y), n)
	}
	big := make([]bool, n)
	for _, i := range opt.Labeled {
		if i < 0 || i >= n {
			return fmt.Errorf("%w: labelled index %d out of range [0, %d)", ErrInput, i, n)
		}
		big[i] = true
	}
	p.Title.Text = opt.Title
	p.X.Label.Text, p.Y.Label.Text = opt.XLabel, opt.YLabel
	if p.X.Label.Text == "" {
		p.X.Label.Text = "feature 1"
	}
	if p.Y.Label.Text == "" {
		p.Y.Label.Text = "feature 2"
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = NiceTicks{}, NiceTicks{}
	class := func(i int) int {
		if y == nil {
			return 0
		}
		return y[i]
	}
	// Group by (class, labelled) so each group is one Scatter; unlabelled
	// small points first, labelled ones on top.
	maxClass := -1
	for i := 0; i < n; i++ {
		maxClass = max(maxClass, class(i))
	}
	thumbs := make([]plot.Thumbnailer, maxClass+2) // legend entries: unlabelled, class 0, ...
	for _, pass := range []bool{false, true} {
		for c := -1; c <= maxClass; c++ {
			var pts plotter.XYs
			for i := 0; i < n; i++ {
				if big[i] == pass && (class(i) == c || c == -1 && class(i) < 0) {
					pts = append(pts, plotter.XY{X: xs[i], Y: ys[i]})
				}
			}
			if len(pts) == 0 {
				continue
			}
			col := ClassColor(c)
			if pass {
				outline, err := plotter.NewScatter(pts)
				if err != nil {
					return fmt.Errorf("%w: %v", ErrInput, err)
				}
				outline.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.2), Shape: draw.CircleGlyph{}}
				p.Add(outline)
			}
			s, err := plotter.NewScatter(pts)
			if err != nil {
				return fmt.Errorf("%w: %v", ErrInput, err)
			}
			r := vg.Points(2)
			if pass {
				r = vg.Points(3.3)
			}
			s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: r, Shape: draw.CircleGlyph{}}
			p.Add(s)
			if y != nil && thumbs[c+1] == nil {
				// One entry per class, in the small glyph when the class has
				// small points, else in the labelled one.
				thumbs[c+1] = s
			}
		}
	}
	for c := 0; c <= maxClass+1; c++ {
		if k := (c + 1) % (maxClass + 2); thumbs[k] != nil { // classes first, unlabelled last
			p.Legend.Add(className(k-1, opt.Classes, opt.Unlabeled), thumbs[k])
		}
	}
	if len(opt.Labeled) > 0 && len(opt.Labeled) < n {
		s, _ := plotter.NewScatter(plotter.XYs{{X: xs[opt.Labeled[0]], Y: ys[opt.Labeled[0]]}})
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.2), Shape: draw.RingGlyph{}}
		p.Legend.Add("labelled", s)
	}
	p.Legend.Top = true
	return nil
}

func className(c int, names []string, unlabeled string) string {
	switch {
	case c < 0 && unlabeled != "":
		return unlabeled
	case c < 0:
		return "unlabelled"
	case c < len(names):
		return names[c]
	default:
		return fmt.Sprintf("class %d", c)
	}
}

// Predictor labels a batch of 2-D points (one per row of grid), e.g. a
// fitted model's Predict. Negative labels leave the background white.
type Predictor func(grid *mat.Dense) ([]int, error)

// RegionOptions styles DecisionRegions.
type RegionOptions struct {
	ScatterOptions
	// Grid is the number of cells per axis (default 200).
	Grid int
	// Pad is the margin around the points as a fraction of their range
	// (default 0.05).
	Pad float64
}

// DecisionRegions colours the plane around the points X (2 columns) by the
// class predict gives each cell centre of a Grid×Grid raster (one batch
// call), in light class colours, and draws the points on top as Scatter
// does. Errors: those of Scatter, ErrInput (X not 2 columns, Grid < 2,
// predictor returns the wrong number of labels), and the predictor's error.
func DecisionRegions(predict Predictor, X mat.Matrix, y []int, opt RegionOptions) (*Figure, error) {
	if predict == nil {
		return nil, fmt.Errorf("%w: nil predictor", ErrInput)
	}
	xs, ys, err := points2(X, "X")
	if err != nil {
		return nil, err
	}
	if _, d := X.Dims(); d != 2 {
		return nil, fmt.Errorf("%w: DecisionRegions needs 2-D points, X has %d columns", ErrInput, d)
	}
	g := opt.Grid
	if g == 0 {
		g = 200
	}
	pad := opt.Pad
	if pad == 0 {
		pad = 0.05
	}
	if g < 2 || g > 4000 || pad < 0 || !finite(pad) {
		return nil, fmt.Errorf("%w: Grid = %d (want 2..4000), Pad = %v (want ≥ 0)", ErrInput, opt.Grid, opt.Pad)
	}
	x0, x1, y0, y1 := bounds(xs, ys, pad)
	grid := mat.NewDense(g*g, 2, nil)
	dx, dy := (x1-x0)/float64(g), (y1-y0)/float64(g)
	for r := 0; r < g; r++ { // r = 0 is the top row of the image
		for c := 0; c < g; c++ {
			grid.Set(r*g+c, 0, x0+(float64(c)+0.5)*dx)
			grid.Set(r*g+c, 1, y1-(float64(r)+0.5)*dy)
		}
	}
	labels, err := predict(grid)
	if err != nil {
		return nil, err
	}
	if len(labels) != g*g {
		return nil, fmt.Errorf("%w: predictor returned %d labels for %d grid points", ErrInput, len(labels), g*g)
	}
	img := image.NewRGBA(image.Rect(0, 0, g, g))
	for r := 0; r < g; r++ {
		for c := 0; c < g; c++ {
			col := color.RGBA{0xff, 0xff, 0xff, 0xff}
			if l := labels[r*g+c]; l >= 0 {
				col = regionColor(l)
			}
			img.SetRGBA(c, r, col)
		}
	}
	p := plot.New()
	p.Add(plotter.NewImage(img, x0, y0, x1, y1))
	if err := addPoints(p, X, y, opt.ScatterOptions, "X"); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
	return single(p, opt.Width, opt.Height), nil
}

// regionColor is the light background of class c's decision region.
func regionColor(c int) color.RGBA { return lighten(ClassColor(c), 0.65) }
