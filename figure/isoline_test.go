package figure

import (
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// sampleGrid evaluates f on an n×n grid over [lo, hi]².
func sampleGrid(n int, lo, hi float64, f func(x, y float64) float64) (z, g []float64) {
	g = make([]float64, n)
	for i := range g {
		g[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	z = make([]float64, n*n)
	for r := range n {
		for c := range n {
			z[r*n+c] = f(g[c], g[r])
		}
	}
	return z, g
}

// shoelace is the signed area of a closed polyline.
func shoelace(l []plotter.XY) float64 {
	a := 0.0
	for i := 0; i+1 < len(l); i++ {
		a += l[i].X*l[i+1].Y - l[i+1].X*l[i].Y
	}
	return a / 2
}

// TestIsolinesCircles: the level set x² + y² = r² of two disjoint bumps is
// two closed curves whose points lie on the circles and whose areas are
// πr². Tolerances: linear interpolation of a quadratic along an edge of
// length h is off by at most h²/4 in the value, so by h²/(8r) in the
// radius; 1e-2 covers h = 0.04 (r ≥ 0.5) and the area within 1 %.
func TestIsolinesCircles(t *testing.T) {
	const h = 0.04
	n := int(math.Round(8/h)) + 1
	bump := func(x, y float64) float64 {
		return math.Min((x+2)*(x+2)+y*y, (x-2)*(x-2)+y*y)
	}
	z, g := sampleGrid(n, -4, 4, bump)
	for _, r := range []float64{0.5, 1, 1.5} {
		lines := Isolines(z, g, g, r*r)
		if len(lines) != 2 {
			t.Fatalf("r = %v: %d curves, want 2", r, len(lines))
		}
		for k, l := range lines {
			if l[0] != l[len(l)-1] {
				t.Errorf("r = %v: curve %d not closed", r, k)
			}
			for _, p := range l {
				cx := 2.0
				if p.X < 0 {
					cx = -2
				}
				if d := math.Hypot(p.X-cx, p.Y) - r; math.Abs(d) > 1e-2 {
					t.Fatalf("r = %v: point %v off the circle by %v", r, p, d)
				}
			}
			if a := math.Abs(shoelace(l)); math.Abs(a-math.Pi*r*r) > 1e-2*math.Pi*r*r {
				t.Errorf("r = %v: area %v, want %v", r, a, math.Pi*r*r)
			}
		}
		// Curves in the order of their first cell, row-major: both start
		// in the row of y = −r, the left one first.
		if lines[0][0].X > 0 || lines[1][0].X < 0 {
			t.Errorf("r = %v: curves out of row-major order: %v then %v", r, lines[0][0], lines[1][0])
		}
	}
}

// TestIsolinesOpenAndSaddle: the hyperbola branches x·y = 0.5 on [-2, 2]²
// are two open curves from border to border (first and last points on the
// border), every point on x·y = 0.5; level 0 of x·y has saddles at the
// centre cell and every vertex there is exactly on the axes.
func TestIsolinesOpenAndSaddle(t *testing.T) {
	z, g := sampleGrid(41, -2, 2, func(x, y float64) float64 { return x * y })
	lines := Isolines(z, g, g, 0.5)
	if len(lines) != 2 {
		t.Fatalf("%d curves, want 2", len(lines))
	}
	onBorder := func(p plotter.XY) bool {
		return math.Abs(math.Abs(p.X)-2) < 1e-12 || math.Abs(math.Abs(p.Y)-2) < 1e-12
	}
	for k, l := range lines {
		if !onBorder(l[0]) || !onBorder(l[len(l)-1]) {
			t.Errorf("curve %d runs from %v to %v, want border to border", k, l[0], l[len(l)-1])
		}
		for _, p := range l {
			// x·y is bilinear in a cell, exact on its edges.
			if math.Abs(p.X*p.Y-0.5) > 1e-12 {
				t.Fatalf("curve %d: point %v has x·y = %v", k, p, p.X*p.Y)
			}
		}
	}
	// An odd grid puts the saddle's centre on a vertex; shift it into a cell.
	z, g = sampleGrid(40, -2, 2, func(x, y float64) float64 { return x * y })
	for _, l := range Isolines(z, g, g, 0) {
		for _, p := range l {
			if math.Abs(p.X*p.Y) > 1e-12 {
				t.Fatalf("level 0: point %v has x·y = %v", p, p.X*p.Y)
			}
		}
	}
	if Isolines(z, g, g[:3], 0) != nil {
		t.Error("mismatched grid: want nil")
	}
}
