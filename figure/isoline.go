package figure

import (
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Isolines returns the curves z = level of a field sampled on a grid
// (z[r*len(gx)+c] at (gx[c], gy[r]), gx and gy increasing) by marching
// squares: each cell whose corners lie on both sides of the level
// contributes one segment (two at a saddle, separated as the cell
// centre's mean value says), with the crossing on each edge placed by
// linear interpolation; segments sharing an edge are joined into
// polylines. A cell with a non-finite corner contributes nothing. Open
// curves (ending on the grid's border or at a non-finite cell) come first,
// then closed ones (first point repeated at the end), each in the order of
// its first cell in row-major order, so the result, and any picture drawn
// from it, depends only on the input. O(len(z)).
func Isolines(z, gx, gy []float64, level float64) [][]plotter.XY {
	nc, nr := len(gx), len(gy)
	if nc < 2 || nr < 2 || len(z) != nc*nr {
		return nil
	}
	// Edge ids: 2·(r·nc+c) is the edge from (r, c) to (r, c+1), 2·(r·nc+c)+1
	// the edge from (r, c) to (r+1, c).
	hEdge := func(r, c int) int { return 2 * (r*nc + c) }
	vEdge := func(r, c int) int { return 2*(r*nc+c) + 1 }
	above := func(v float64) bool { return v > level }
	cross := func(x0, x1, v0, v1 float64) float64 {
		t := (level - v0) / (v1 - v0)
		return x0 + t*(x1-x0)
	}
	point := func(e int) plotter.XY {
		k := e / 2
		r, c := k/nc, k%nc
		v0 := z[k]
		if e%2 == 0 {
			return plotter.XY{X: cross(gx[c], gx[c+1], v0, z[k+1]), Y: gy[r]}
		}
		return plotter.XY{X: gx[c], Y: cross(gy[r], gy[r+1], v0, z[k+nc])}
	}
	var segs [][2]int
	for r := 0; r+1 < nr; r++ {
		for c := 0; c+1 < nc; c++ {
			v00, v01 := z[r*nc+c], z[r*nc+c+1]
			v10, v11 := z[(r+1)*nc+c], z[(r+1)*nc+c+1]
			if !finite(v00) || !finite(v01) || !finite(v10) || !finite(v11) {
				continue
			}
			// Corners counter-clockwise from (r, c): bottom, right, top, left edges.
			b, rt, t, l := hEdge(r, c), vEdge(r, c+1), hEdge(r+1, c), vEdge(r, c)
			idx := 0
			for i, v := range []float64{v00, v01, v11, v10} {
				if above(v) {
					idx |= 1 << i
				}
			}
			switch idx {
			case 0, 15:
			case 1, 14:
				segs = append(segs, [2]int{l, b})
			case 2, 13:
				segs = append(segs, [2]int{b, rt})
			case 3, 12:
				segs = append(segs, [2]int{l, rt})
			case 4, 11:
				segs = append(segs, [2]int{rt, t})
			case 6, 9:
				segs = append(segs, [2]int{b, t})
			case 7, 8:
				segs = append(segs, [2]int{l, t})
			case 5, 10:
				// Saddle: corners 00 and 11 on one side, 01 and 10 on the
				// other; the centre decides which pairs are joined.
				centre := above((v00 + v01 + v10 + v11) / 4)
				if centre == above(v00) {
					segs = append(segs, [2]int{b, rt}, [2]int{t, l})
				} else {
					segs = append(segs, [2]int{l, b}, [2]int{rt, t})
				}
			}
		}
	}
	// Each edge borders at most two cells, hence at most two segments.
	at := make(map[int][2]int, 2*len(segs))
	add := func(e, s int) {
		v, ok := at[e]
		if !ok {
			v = [2]int{-1, -1}
		}
		if v[0] < 0 {
			v[0] = s
		} else {
			v[1] = s
		}
		at[e] = v
	}
	for s, sg := range segs {
		add(sg[0], s)
		add(sg[1], s)
	}
	other := func(e, s int) int {
		v := at[e]
		if v[0] == s {
			return v[1]
		}
		return v[0]
	}
	used := make([]bool, len(segs))
	walk := func(s, from int) []plotter.XY {
		line := []plotter.XY{point(from)}
		e := from
		for s >= 0 && !used[s] {
			used[s] = true
			if segs[s][0] == e {
				e = segs[s][1]
			} else {
				e = segs[s][0]
			}
			line = append(line, point(e))
			s = other(e, s)
		}
		return line
	}
	var open, closed [][]plotter.XY
	for s, sg := range segs {
		if used[s] {
			continue
		}
		for _, e := range sg {
			if other(e, s) < 0 {
				open = append(open, walk(s, e))
				break
			}
		}
	}
	for s, sg := range segs {
		if !used[s] {
			closed = append(closed, walk(s, sg[0]))
		}
	}
	return append(open, closed...)
}

// isolinePlotter draws polylines in data coordinates.
type isolinePlotter struct {
	lines [][]plotter.XY
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (l isolinePlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	c.SetLineStyle(l.style)
	for _, line := range l.lines {
		var path vg.Path
		for i, pt := range line {
			v := vg.Point{X: trX(pt.X), Y: trY(pt.Y)}
			if i == 0 {
				path.Move(v)
			} else {
				path.Line(v)
			}
		}
		if len(line) > 2 && line[0] == line[len(line)-1] {
			path.Close()
		}
		c.Stroke(path)
	}
}

// shadePlotter fills the cells of a grid whose centre value (the mean of
// the corners) is at most level, as an image exactly covering the grid.
func shadePlotter(z, gx, gy []float64, level float64, col color.RGBA) plot.Plotter {
	nc, nr := len(gx), len(gy)
	img := image.NewRGBA(image.Rect(0, 0, nc-1, nr-1))
	for r := 0; r+1 < nr; r++ {
		for c := 0; c+1 < nc; c++ {
			m := (z[r*nc+c] + z[r*nc+c+1] + z[(r+1)*nc+c] + z[(r+1)*nc+c+1]) / 4
			px := color.RGBA{0xff, 0xff, 0xff, 0xff}
			if !math.IsNaN(m) && m <= level {
				px = col
			}
			img.SetRGBA(c, nr-2-r, px) // image row 0 is the top
		}
	}
	return plotter.NewImage(img, gx[0], gy[0], gx[nc-1], gy[nr-1])
}
