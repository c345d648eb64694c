package svcluster

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Panel is one picture of a 2-D clustering: the points coloured by cluster,
// support vectors circled, bounded support vectors (outliers) crossed, and
// the contour R(x) = R of eq. (12), as the paper's Figures 3 and 4.
type Panel struct {
	Title string
	X     mat.Matrix  // n×2
	Res   *Clustering // fitted on X
}

// grid evaluates R²(x) − R² on a regular grid.
type grid struct {
	xs, ys []float64
	z      []float64
}

func (g grid) Dims() (c, r int)   { return len(g.xs), len(g.ys) }
func (g grid) Z(c, r int) float64 { return g.z[r*len(g.xs)+c] }
func (g grid) X(c int) float64    { return g.xs[c] }
func (g grid) Y(r int) float64    { return g.ys[r] }

var clusterColours = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {188, 189, 34, 255},
	{23, 190, 207, 255}, {127, 127, 127, 255},
}

func (p Panel) plot() (*plot.Plot, error) {
	n, d := p.X.Dims()
	if d != 2 {
		return nil, fmt.Errorf("%w: contour pictures need 2-D data, got %d columns", ErrBadSetting, d)
	}
	r := p.Res
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.X.Label.Text, pl.Y.Label.Text = "x1", "x2"
	lo := []float64{math.Inf(1), math.Inf(1)}
	hi := []float64{math.Inf(-1), math.Inf(-1)}
	for i := 0; i < n; i++ {
		for j := 0; j < 2; j++ {
			lo[j], hi[j] = math.Min(lo[j], p.X.At(i, j)), math.Max(hi[j], p.X.At(i, j))
		}
	}
	for j := 0; j < 2; j++ {
		pad := 0.1*(hi[j]-lo[j]) + 1e-9
		lo[j], hi[j] = lo[j]-pad, hi[j]+pad
	}
	const res = 120
	g := grid{xs: make([]float64, res), ys: make([]float64, res), z: make([]float64, res*res)}
	for i := 0; i < res; i++ {
		g.xs[i] = lo[0] + (hi[0]-lo[0])*float64(i)/(res-1)
		g.ys[i] = lo[1] + (hi[1]-lo[1])*float64(i)/(res-1)
	}
	r2 := r.ball.Radius2()
	parallelRows(res, func(row int) {
		x := []float64{0, g.ys[row]}
		for c := 0; c < res; c++ {
			x[0] = g.xs[c]
			g.z[row*res+c] = r.ball.Dist2(x) - r2
		}
	})
	ct := plotter.NewContour(g, []float64{0}, palette.Heat(1, 1))
	ct.LineStyles = []draw.LineStyle{{Color: color.Black, Width: vg.Points(1.2)}}
	pl.Add(ct)
	groups := map[int]plotter.XYs{}
	for i := 0; i < n; i++ {
		groups[r.Labels[i]] = append(groups[r.Labels[i]], plotter.XY{X: p.X.At(i, 0), Y: p.X.At(i, 1)})
	}
	for c := -1; c < r.NClusters; c++ {
		pts, ok := groups[c]
		if !ok {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Radius = vg.Points(1.6)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		if c < 0 {
			s.GlyphStyle.Color = color.Gray{Y: 120}
		} else {
			s.GlyphStyle.Color = clusterColours[c%len(clusterColours)]
		}
		pl.Add(s)
	}
	mark := func(rows []int, shape draw.GlyphDrawer, name string) error {
		if len(rows) == 0 {
			return nil
		}
		pts := make(plotter.XYs, len(rows))
		for k, i := range rows {
			pts[k] = plotter.XY{X: p.X.At(i, 0), Y: p.X.At(i, 1)}
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3.2), Shape: shape}
		pl.Add(s)
		pl.Legend.Add(fmt.Sprintf("%s (%d)", name, len(rows)), s)
		return nil
	}
	if err := mark(r.SV, draw.RingGlyph{}, "SV"); err != nil {
		return nil, err
	}
	if err := mark(r.BSV, draw.CrossGlyph{}, "BSV"); err != nil {
		return nil, err
	}
	pl.Legend.Top = true
	return pl, nil
}

// SweepPlot returns the line plot of the number of clusters (and the
// fractions of SVs and BSVs, right-hand scale ×10) against q.
func sweepPlot(h *Hierarchy) (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = "clusters against q"
	pl.X.Label.Text = "q (log scale)"
	pl.Y.Label.Text = "clusters"
	pl.X.Scale = plot.LogScale{}
	pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	var cl, sv, bsv plotter.XYs
	for _, l := range h.Levels {
		cl = append(cl, plotter.XY{X: l.Q, Y: float64(l.NClusters)})
		sv = append(sv, plotter.XY{X: l.Q, Y: 10 * float64(l.NSV) / float64(h.N)})
		bsv = append(bsv, plotter.XY{X: l.Q, Y: 10 * float64(l.NBSV) / float64(h.N)})
	}
	for _, s := range []struct {
		xy   plotter.XYs
		name string
		c    color.Color
	}{{cl, "clusters", color.Black}, {sv, "10·n_sv/N", clusterColours[0]}, {bsv, "10·n_bsv/N", clusterColours[3]}} {
		if len(s.xy) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return nil, err
		}
		l.Color, pts.Color = s.c, s.c
		pts.Radius = vg.Points(2)
		pl.Add(l, pts)
		pl.Legend.Add(s.name, l, pts)
	}
	pl.Legend.Top = true
	pl.Legend.Left = true
	return pl, nil
}

// WritePlot draws the panels (and, if h is not nil, the clusters-against-q
// plot as a last panel) side by side, at most three per row, to a .png or
// .svg file.
func WritePlot(path string, panels []Panel, h *Hierarchy) error {
	var plots []*plot.Plot
	for _, p := range panels {
		pl, err := p.plot()
		if err != nil {
			return err
		}
		plots = append(plots, pl)
	}
	if h != nil && len(h.Levels) > 0 {
		pl, err := sweepPlot(h)
		if err != nil {
			return err
		}
		plots = append(plots, pl)
	}
	if len(plots) == 0 {
		return fmt.Errorf("%w: nothing to plot", ErrBadSetting)
	}
	cols := min(3, len(plots))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
		for j := range grid[i] {
			if k := i*cols + j; k < len(plots) {
				grid[i][j] = plots[k]
			}
		}
	}
	w, ht := vg.Length(cols)*4*vg.Inch, vg.Length(rows)*4*vg.Inch
	var canvas vg.CanvasWriterTo
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg":
		canvas = vgsvg.New(w, ht)
	case ".png":
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, ht), vgimg.UseDPI(96))}
	default:
		return fmt.Errorf("%w: plot file %q must end in .png or .svg", ErrBadSetting, path)
	}
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 2,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	cs := plot.Align(grid, tiles, dc)
	for i := range grid {
		for j, pl := range grid[i] {
			if pl != nil {
				pl.Draw(cs[i][j])
			}
		}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
