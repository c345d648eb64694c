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

// Projection is what a 2-D picture of a data set draws: n×2 points and
// the names of their axes.
type Projection struct {
	Z              *mat.Dense
	XLabel, YLabel string
}

// Project returns the two columns a 2-D picture of X draws, with their
// axis labels: columns features[0] and features[1] of X when features is
// given (named by names, if not nil), X itself when it has two columns,
// else its first two principal components (X centred, thin SVD
// Xc = UΣVᵀ, scores U[:, :2]·Σ[:2] with scikit-learn's svd_flip signs, as
// svcluster.PCA), each labelled with its share
// of the total variance, ‖Z_j‖² / ‖X − mean‖²_F. O(n·d·min(n, d)) for the
// components. Errors: ErrInput (fewer than 2 columns, a non-finite value,
// len(features) not 0 or 2, a feature out of range).
func Project(X mat.Matrix, features []int, names []string) (*Projection, error) {
	Z, xl, yl, err := project(X, features, names)
	if err != nil {
		return nil, err
	}
	return &Projection{Z: Z, XLabel: xl, YLabel: yl}, nil
}

func project(X mat.Matrix, features []int, names []string) (Z *mat.Dense, xlabel, ylabel string, err error) {
	if X == nil {
		return nil, "", "", fmt.Errorf("%w: no data", ErrInput)
	}
	n, d := X.Dims()
	if n == 0 || d < 2 {
		return nil, "", "", fmt.Errorf("%w: %d×%d data: a picture needs at least 2 columns", ErrInput, n, d)
	}
	name := func(j int) string {
		if j < len(names) && names[j] != "" {
			return names[j]
		}
		return fmt.Sprintf("feature %d", j+1)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := X.At(i, j); !finite(v) {
				return nil, "", "", fmt.Errorf("%w: row %d, column %d is %v", ErrInput, i, j, v)
			}
		}
	}
	switch {
	case len(features) != 0 && len(features) != 2:
		return nil, "", "", fmt.Errorf("%w: %d features to draw, want 2", ErrInput, len(features))
	case len(features) == 2 || d == 2:
		f := features
		if f == nil {
			f = []int{0, 1}
		}
		Z = mat.NewDense(n, 2, nil)
		for k, j := range f {
			if j < 0 || j >= d {
				return nil, "", "", fmt.Errorf("%w: feature %d out of range [1, %d]", ErrInput, j+1, d)
			}
			for i := 0; i < n; i++ {
				Z.Set(i, k, X.At(i, j))
			}
		}
		return Z, name(f[0]), name(f[1]), nil
	}
	if n < 2 {
		return nil, "", "", fmt.Errorf("%w: principal components of a single row", ErrInput)
	}
	xc := mat.NewDense(n, d, nil)
	total := 0.0 // ‖X − mean‖²_F
	for j := 0; j < d; j++ {
		mean := 0.0
		for i := 0; i < n; i++ {
			mean += X.At(i, j)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			v := X.At(i, j) - mean
			xc.Set(i, j, v)
			total += v * v
		}
	}
	var svd mat.SVD
	if !svd.Factorize(xc, mat.SVDThin) {
		return nil, "", "", fmt.Errorf("%w: SVD of the centred data did not converge", ErrInput)
	}
	var u mat.Dense
	svd.UTo(&u)
	sv := svd.Values(nil)
	Z = mat.NewDense(n, 2, nil)
	for j := 0; j < 2 && j < len(sv); j++ {
		// svd_flip: the entry of largest magnitude of U's column is positive.
		big, sign := 0.0, 1.0
		for i := 0; i < n; i++ {
			if v := u.At(i, j); math.Abs(v) > big {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for i := 0; i < n; i++ {
			Z.Set(i, j, sign*u.At(i, j)*sv[j])
		}
	}
	share := func(k int) string {
		if total == 0 {
			return ""
		}
		s := 0.0
		for i := 0; i < n; i++ {
			s += Z.At(i, k) * Z.At(i, k)
		}
		return fmt.Sprintf(" (%.1f %% of the variance)", 100*s/total)
	}
	return Z, "principal component 1" + share(0), "principal component 2" + share(1), nil
}

// ClusterOptions styles Clusters.
type ClusterOptions struct {
	Title string
	// XLabel and YLabel name the axes (default "feature 1", "feature 2").
	XLabel, YLabel string
	// Names names the clusters 0, 1, ... in the legend (nil: "cluster 0",
	// "cluster 1", ... as the labels files number them); rows with a
	// negative label are Noise (default "noise").
	Names []string
	Noise string
	// Truth, if not nil, gives each row's true class (negative: unknown),
	// drawn as the marker's shape (ClassGlyphs) while the colour is the
	// cluster; Classes names them (nil: "class 0", ...).
	Truth   []int
	Classes []string
	// Width and Height of the page (0: DefaultWidth, and DefaultHeight or
	// the legend's height if taller).
	Width, Height vg.Length
}

// ClassGlyphs are the marker shapes of the true classes in Clusters, in
// turn: filled circle, square, triangle, diamond, inverted triangle, then
// plus, cross, ring, hollow square and hollow triangle.
var ClassGlyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, polygonGlyph{sides: 4, turn: 0}, polygonGlyph{sides: 3, turn: math.Pi},
	draw.PlusGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
}

// Clusters draws the 2-D points Z (e.g. from Project) coloured by cluster
// (labels[i], grey when negative) and, when opt.Truth is given, shaped by
// true class, so that a cluster holding several classes shows several
// shapes in one colour. The legend, beside the panel, lists the clusters
// (colour) and then the classes (shape, in grey). Errors: ErrInput (Z not
// 2-D, empty or non-finite; len(labels) or len(Truth) ≠ rows).
func Clusters(Z mat.Matrix, labels []int, opt ClusterOptions) (*Figure, error) {
	xs, ys, err := points2(Z, "Z")
	if err != nil {
		return nil, err
	}
	n := len(xs)
	if _, d := Z.Dims(); d != 2 {
		return nil, fmt.Errorf("%w: Clusters draws 2-D points, Z has %d columns (see Project)", ErrInput, d)
	}
	if len(labels) != n {
		return nil, fmt.Errorf("%w: %d labels for %d points", ErrInput, len(labels), n)
	}
	if opt.Truth != nil && len(opt.Truth) != n {
		return nil, fmt.Errorf("%w: %d true classes for %d points", ErrInput, len(opt.Truth), n)
	}
	p := plot.New()
	p.Title.Text = opt.Title
	p.X.Label.Text, p.Y.Label.Text = opt.XLabel, opt.YLabel
	if p.X.Label.Text == "" {
		p.X.Label.Text = "feature 1"
	}
	if p.Y.Label.Text == "" {
		p.Y.Label.Text = "feature 2"
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = NiceTicks{}, NiceTicks{}
	maxC, maxT := -1, -1
	for i := 0; i < n; i++ {
		maxC = max(maxC, labels[i])
		if opt.Truth != nil {
			maxT = max(maxT, opt.Truth[i])
		}
	}
	class := func(i int) int {
		if opt.Truth == nil || opt.Truth[i] < 0 {
			return -1
		}
		return opt.Truth[i]
	}
	// Shapes need a larger marker; many points a smaller one.
	radius := vg.Points(2.2)
	if opt.Truth != nil {
		radius = vg.Points(3)
	}
	if n > 500 {
		radius *= 0.8
	}
	glyph := func(t int) draw.GlyphDrawer {
		if t < 0 {
			return draw.CircleGlyph{}
		}
		return ClassGlyphs[t%len(ClassGlyphs)]
	}
	// One scatter per (cluster, class), noise first, in a fixed order.
	for c := -1; c <= maxC; c++ {
		for t := -1; t <= maxT; t++ {
			var pts plotter.XYs
			for i := 0; i < n; i++ {
				if max(labels[i], -1) == c && class(i) == t {
					pts = append(pts, plotter.XY{X: xs[i], Y: ys[i]})
				}
			}
			if len(pts) == 0 {
				continue
			}
			s, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrInput, err)
			}
			s.GlyphStyle = draw.GlyphStyle{Color: ClassColor(c), Radius: radius, Shape: glyph(t)}
			p.Add(s)
		}
	}
	entries := 0
	legend := func(text string, col color.Color, g draw.GlyphDrawer) {
		s, _ := plotter.NewScatter(plotter.XYs{{}})
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: radius, Shape: g}
		p.Legend.Add(text, s)
		entries++
	}
	used := make([]bool, maxC+2)
	for _, c := range labels {
		used[max(c, -1)+1] = true
	}
	for c := 0; c <= maxC; c++ {
		if used[c+1] {
			name := fmt.Sprintf("cluster %d", c)
			if c < len(opt.Names) {
				name = opt.Names[c]
			}
			legend(name, ClassColor(c), draw.CircleGlyph{})
		}
	}
	if used[0] {
		name := opt.Noise
		if name == "" {
			name = "noise"
		}
		legend(name, UnlabeledColor, draw.CircleGlyph{})
	}
	if opt.Truth != nil {
		seen := make([]bool, maxT+1)
		for i := 0; i < n; i++ {
			if t := class(i); t >= 0 {
				seen[t] = true
			}
		}
		for t := 0; t <= maxT; t++ {
			if seen[t] {
				legend("class "+className(t, opt.Classes, ""), color.Black, glyph(t))
			}
		}
	}
	p.Legend.Top = true
	h := opt.Height
	if h == 0 {
		h = max(DefaultHeight, vg.Length(entries)*(p.Legend.TextStyle.Height("0")+p.Legend.Padding)+vg.Inch)
	}
	return single(p, opt.Width, h), nil
}

// polygonGlyph is a filled regular polygon: sides 4 with turn 0 is a
// diamond, sides 3 with turn π a triangle pointing down.
type polygonGlyph struct {
	sides int
	turn  float64
}

// DrawGlyph implements draw.GlyphDrawer.
func (g polygonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	var path vg.Path
	r := sty.Radius * 1.3 // about the area of a circle of radius sty.Radius
	for k := 0; k <= g.sides; k++ {
		a := g.turn + math.Pi/2 + 2*math.Pi*float64(k)/float64(g.sides)
		v := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
		if k == 0 {
			path.Move(v)
		} else {
			path.Line(v)
		}
	}
	path.Close()
	c.Fill(path)
}
