package svcluster

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/arbor-ml/arbor/figure"
	"gonum.org/v1/gonum/mat"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// Panel is one contour picture of a 2-D clustering.
type Panel struct {
	Title string
	X     mat.Matrix
	Res   *Clustering
}

// WritePlot draws the panels side by side with figure.Contours: contour
// R(x) = R, points coloured by cluster, SVs ringed and BSVs crossed.
func WritePlot(path string, panels []Panel, h *Hierarchy) error {
	var cp []figure.ContourPanel
	for _, p := range panels {
		r := p.Res
		cp = append(cp, figure.ContourPanel{
			Title: p.Title,
			F:     func(g *mat.Dense) ([]float64, error) { return r.Dist2Rows(nil, g), nil },
			Level: r.R2, X: p.X, Y: r.Labels,
			Marks: []figure.Marks{{Name: fmt.Sprintf("SV (%d)", r.NSV), Idx: r.SV}, {Name: fmt.Sprintf("BSV (%d)", r.NBSV), Idx: r.BSV}},
		})
	}
	f, err := figure.Contours(cp, figure.ContourOptions{})
	if err != nil {
		return err
	}
	if err := f.Save(path); err != nil {
		return err
	}
	if h == nil {
		return nil
	}
	var s figure.Series
	s.Name = "clusters"
	for _, l := range h.Levels {
		s.X, s.Y = append(s.X, l.Q), append(s.Y, float64(l.NClusters))
	}
	lf, err := figure.Line([]figure.Series{s}, figure.LineOptions{Title: "clusters against q", XLabel: "q", YLabel: "clusters", Points: true, LogX: true})
	if err != nil {
		return err
	}
	return lf.Save(path[:len(path)-4] + "_sweep.png")
}

// BenchmarkPaperFigures draws the paper's Figures 3-4 analogues into testdata/
// (run with SVCLUSTER_REPORT=1): fig4ab.png (two Gaussians, Laplacian
// kernel, q = 0.7, 1/C = 1 and 1/(NC) = 0.2), fig4cd.png (core and rings,
// Gaussian kernel, q = 3.5 with 1/C = 1 and q = 1 with 1/(NC) = 0.3),
// fig3_moons.png (a sweep over q on two moons at 1/C = 1) and iris.png (the
// Iris sweep to three clusters on 2 PCs).
func BenchmarkPaperFigures(tb *testing.B) {
	if os.Getenv("SVCLUSTER_REPORT") == "" {
		tb.Skip("set SVCLUSTER_REPORT=1 to redraw the figures in testdata/")
	}
	ctx := context.Background()
	X, _ := twoGaussians(1)
	a, err := Clusterer{Q: 0.7, C: 1, Kernel: Exponential}.Fit(ctx, X)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := Clusterer{Q: 0.7, C: 1 / (200 * 0.2), Kernel: Exponential}.Fit(ctx, X)
	if err != nil {
		tb.Fatal(err)
	}
	if err := WritePlot("testdata/fig4ab.png", []Panel{
		{Title: "Fig 4a: Laplacian, q = 0.7, 1/C = 1", X: X, Res: a},
		{Title: "Fig 4b: Laplacian, q = 0.7, 1/(NC) = 0.2", X: X, Res: b},
	}, nil); err != nil {
		tb.Fatal(err)
	}
	R, _ := coreRings(1)
	c, err := Clusterer{Q: 3.5, C: 1}.Fit(ctx, R)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := Clusterer{Q: 1, C: 1 / (500 * 0.3)}.Fit(ctx, R)
	if err != nil {
		tb.Fatal(err)
	}
	if err := WritePlot("testdata/fig4cd.png", []Panel{
		{Title: "Fig 4c: Gaussian, q = 3.5, 1/C = 1", X: R, Res: c},
		{Title: "Fig 4d: Gaussian, q = 1, 1/(NC) = 0.3", X: R, Res: d},
	}, nil); err != nil {
		tb.Fatal(err)
	}
	M := dataset.Moons(300, 0.06, 3).X
	var panels []Panel
	for _, q := range []float64{1, 5, 20, 60} {
		r, err := Clusterer{Q: q, C: 1}.Fit(ctx, M)
		if err != nil {
			tb.Fatal(err)
		}
		panels = append(panels, Panel{Title: "Fig 3 style: moons, 1/C = 1, q = " + ftoa(q), X: M, Res: r})
	}
	if err := WritePlot("testdata/fig3_moons.png", panels, nil); err != nil {
		tb.Fatal(err)
	}
	Z, _ := irisPCA2(tb)
	h, err := Sweep{Clusters: 3}.Fit(ctx, Z)
	if err != nil {
		tb.Fatal(err)
	}
	first := h.Levels[0].Result
	for _, l := range h.Levels {
		if l.NClusters == 2 {
			first = l.Result
			break
		}
	}
	if err := WritePlot("testdata/iris.png", []Panel{
		{Title: "Iris 2 PCs: first split", X: Z, Res: first},
		{Title: "Iris 2 PCs: chosen level (3 clusters)", X: Z, Res: h.Levels[h.Chosen].Result},
	}, h); err != nil {
		tb.Fatal(err)
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
