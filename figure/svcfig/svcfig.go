// Package svcfig draws support vector clustering (package svcluster): the
// contours R(x) = R of paper 001 Figs. 3-4 with support vectors and
// outliers marked, and, after a sweep over q, the number of clusters and
// the support-vector fractions against q.
package svcfig

import (
	"errors"
	"fmt"

	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/svcluster"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// ErrNot2D: contour pictures need two-dimensional points.
var ErrNot2D = errors.New("svcfig: contour pictures need 2-D data")

// Clustering draws the contour panels R(x) = R with SVs and BSVs marked (2-D
// data only, paper 001 Figs. 3-4) and, after a sweep, the number of clusters
// against q.
func Clustering(X *mat.Dense, res *svcluster.Clustering, h *svcluster.Hierarchy, name string, axes [2]string) (*figure.Figure, error) {
	_, d := X.Dims()
	panel := func(r *svcluster.Clustering) figure.ContourPanel {
		names := make([]string, r.NClusters)
		for i := range names {
			names[i] = fmt.Sprintf("cluster %d", i+1)
		}
		return figure.ContourPanel{
			Title:  fmt.Sprintf("%s: q = %.3g, %d clusters, 1/(NC) = %.2g", name, r.Q, r.NClusters, r.P()),
			XLabel: axes[0], YLabel: axes[1],
			F:     func(g *mat.Dense) ([]float64, error) { return r.Dist2Rows(nil, g), nil },
			Level: r.R2, X: X, Y: r.Labels, Classes: names, Unlabeled: "outlier",
			Shade: true,
			Marks: []figure.Marks{{Name: fmt.Sprintf("SV (%d)", r.NSV), Idx: r.SV}, {Name: fmt.Sprintf("BSV (%d)", r.NBSV), Idx: r.BSV, Hollow: true}},
		}
	}
	var rows [][]*plot.Plot
	var width vg.Length
	if d == 2 {
		var panels []figure.ContourPanel
		if h != nil {
			// The last levels where the number of clusters changes, then the chosen one.
			var picks []int
			for i := 1; i < len(h.Levels); i++ {
				if h.Levels[i].NClusters != h.Levels[i-1].NClusters && h.Levels[i].Result != res {
					picks = append(picks, i)
				}
			}
			if len(picks) > 3 {
				picks = picks[len(picks)-3:]
			}
			for _, i := range picks {
				panels = append(panels, panel(h.Levels[i].Result))
			}
		}
		panels = append(panels, panel(res))
		f, err := figure.Contours(panels, figure.ContourOptions{})
		if err != nil {
			return nil, err
		}
		rows, width = append(rows, f.Plots[0]), f.Width
	} else if h == nil {
		return nil, fmt.Errorf("%w (%d features; project to two, e.g. svcluster.PCA)", ErrNot2D, d)
	}
	if h != nil {
		// Two quantities, two panels: the number of clusters, and the
		// fractions of support vectors and outliers, against q.
		nc := []figure.Series{{Name: "clusters"}}
		fr := []figure.Series{{Name: "SVs, n_sv/N"}, {Name: "BSVs, n_bsv/N"}}
		for _, l := range h.Levels {
			nc[0].X, nc[0].Y = append(nc[0].X, l.Q), append(nc[0].Y, float64(l.NClusters))
			fr[0].X, fr[0].Y = append(fr[0].X, l.Q), append(fr[0].Y, float64(l.NSV)/float64(h.N))
			fr[1].X, fr[1].Y = append(fr[1].X, l.Q), append(fr[1].Y, float64(l.NBSV)/float64(h.N))
		}
		nc[0].Name = "" // one series: no legend
		f1, err := figure.Line(nc, figure.LineOptions{Title: name + ": number of clusters against q", XLabel: "q (kernel width)", YLabel: "clusters", Points: true, LogX: true, IntegerY: true})
		if err != nil {
			return nil, err
		}
		f2, err := figure.Line(fr, figure.LineOptions{Title: name + ": support vectors against q", XLabel: "q (kernel width)", YLabel: "fraction of the N points", Points: true, LogX: true, YFromZero: true})
		if err != nil {
			return nil, err
		}
		cols := max(2, len(rows0(rows)))
		row := make([]*plot.Plot, cols)
		row[0], row[1] = f1.Plots[0][0], f2.Plots[0][0]
		if len(rows) > 0 && len(rows[0]) < cols {
			rows[0] = append(rows[0], make([]*plot.Plot, cols-len(rows[0]))...)
		}
		rows = append(rows, row)
		width = max(width, vg.Length(cols)*4*vg.Inch)
	}
	return &figure.Figure{Plots: rows, Width: width, Height: vg.Length(len(rows)) * 4 * vg.Inch}, nil
}

// Axes names the two axes of a picture of the points clustered: the
// principal components after a projection (pca), else the first two of
// the data's feature names, else "feature 1" and "feature 2".
func Axes(pca bool, features []string) [2]string {
	switch {
	case pca:
		return [2]string{"principal component 1", "principal component 2"}
	case len(features) >= 2:
		return [2]string{features[0], features[1]}
	}
	return [2]string{"feature 1", "feature 2"}
}

// rows0 returns the first row of a panel grid (nil for none).
func rows0(rows [][]*plot.Plot) []*plot.Plot {
	if len(rows) == 0 {
		return nil
	}
	return rows[0]
}
