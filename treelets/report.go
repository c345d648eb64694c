package treelets

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
)

// Run is a fitted Sample on the rows of a data set or the nodes of a
// graph, as arbor treelets reports it.
type Run struct {
	*SampleModel
	// Sample is the settings it was fitted with.
	Sample Sample
	// Data are the rows (nil for a graph), Graph the graph (nil for a
	// data set).
	Data  *dataset.Dataset
	Graph *kernel.GraphKernel
	// K is the number of clusters of Labels.
	K int
	// ROC is the pairwise ROC of the hierarchy (PairROC; WriteReport
	// sets it when asked for).
	ROC metrics.ROC
}

// LabelError is a ROC against labels on rows without labels: Row is the
// first sampled row without one, −1 when the data have no label column.
type LabelError struct{ Row int }

func (e *LabelError) Error() string {
	if e.Row < 0 {
		return "treelets: the data have no labels"
	}
	return fmt.Sprintf("treelets: row %d has no label", e.Row)
}

// items is the number of items the run clusters.
func (r *Run) items() int {
	if r.Data != nil {
		return r.Data.Len()
	}
	return r.Graph.Len()
}

// PairROC sets r.ROC to the pairwise ROC of the hierarchy through all its
// levels over the sampled items: positive pairs are those of one class
// (against "labels"; a *LabelError unless every sampled row has a label)
// or those joined by an edge of the graph (against "graph").
func (r *Run) PairROC(against string) error {
	var err error
	t := r.Model.Tree()
	switch {
	case against == "labels":
		ds := r.Data
		if ds == nil || len(ds.Labeled()) == 0 {
			return &LabelError{Row: -1}
		}
		y := make([]int, len(r.Rows))
		for i, row := range r.Rows {
			if ds.Y[row] < 0 {
				return &LabelError{Row: row}
			}
			y[i] = ds.Y[row]
		}
		r.ROC, err = metrics.HierarchyROCLabels(t, y)
	case len(r.Rows) == r.Graph.Len():
		r.ROC, err = metrics.HierarchyROCGraph(t, r.Graph.Len(), r.Graph.Neighbors)
	default:
		r.ROC, err = metrics.HierarchyROCSubgraph(t, r.Rows, r.Graph.Neighbors)
	}
	return err
}

// WriteReport writes the lines arbor treelets prints after the fit: the
// run (SampleModel.Summary), the clusters with their sizes as sizes
// formats them (chosen: K was asked for, not the largest height gap),
// their ARI against the data's labels when two or more rows have one,
// and, against "labels" or "graph", the AUC of the pairwise ROC, which it
// sets r.ROC to (PairROC; its errors after the lines before it).
func (r *Run) WriteReport(w io.Writer, chosen bool, against string, sizes func([]int) string) error {
	n, m := r.items(), len(r.Rows)
	fmt.Fprintln(w, r.Summary(r.Sample, n))
	fmt.Fprintf(w, "clusters   %d", r.K)
	if !chosen {
		fmt.Fprint(w, " (largest height gap; --clusters K to choose)")
	}
	fmt.Fprintf(w, ", sizes %s\n", sizes(clustering.Sizes(r.Labels)))
	if r.Data != nil {
		if t, p := metrics.Labelled(r.Data.Y, r.Labels); len(t) > 1 {
			ari, err := metrics.ARI(t, p)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "vs labels  ARI %.4f (%d labelled rows)\n", ari, len(t))
		}
	}
	if against == "" {
		return nil
	}
	if err := r.PairROC(against); err != nil {
		return err
	}
	scope := ""
	if m < n {
		scope = fmt.Sprintf(" (over the %d sampled rows)", m)
	}
	_, err := fmt.Fprintf(w, "AUC %.3f%s: pairwise ROC through all %d levels against %s (%d positive, %d negative pairs)\n",
		r.ROC.AUC(), scope, len(r.Model.Levels), against, r.ROC.Positive, r.ROC.Negative)
	return err
}

// Outputs are the files of a Run as arbor treelets writes them; an empty
// path is not written.
type Outputs struct {
	// Labels is the cluster labels (CSV: row[,id],cluster, or
	// node,cluster for a graph); "-" writes them to Stdout after the
	// files.
	Labels string
	Stdout io.Writer
	// Linkage is the SciPy linkage matrix (CSV), Levels the levels
	// (Model.WriteLevels), Newick the hierarchy in Newick format.
	Linkage, Levels, Newick string
	// Dendrogram and ROC are pictures (.png or .svg) of the hierarchy and
	// of r.ROC; Title names the data in their titles.
	Dendrogram, ROC, Title string
}

// Write writes the outputs o asks for, each file whole or not at all. The
// leaves of the Newick tree are named by the data's ID column, else by
// row or node id where those are not 0..M−1.
func (r *Run) Write(ctx context.Context, o Outputs) error {
	n, m := r.items(), len(r.Rows)
	id := func(item int) int64 { return int64(item) }
	if r.Graph != nil {
		id = r.Graph.ID
	}
	writeLabels := func(dst io.Writer) error {
		if r.Data != nil {
			return r.Data.WriteLabels(dst, "cluster", r.Labels)
		}
		return r.Graph.WriteLabels(dst, r.Labels)
	}
	tree := r.Model.Tree()
	if o.Labels != "" && o.Labels != "-" {
		if err := atomicfile.Write(o.Labels, func(f *os.File) error { return writeLabels(f) }); err != nil {
			return err
		}
	}
	if o.Linkage != "" {
		if err := atomicfile.Write(o.Linkage, func(f *os.File) error { return dataset.WriteMatrix(ctx, f, tree.Matrix(), dataset.MatrixCSV) }); err != nil {
			return err
		}
	}
	if o.Levels != "" {
		if err := atomicfile.Write(o.Levels, func(f *os.File) error {
			return r.Model.WriteLevels(f, func(i int) int64 { return id(r.Rows[i]) })
		}); err != nil {
			return err
		}
	}
	if o.Newick != "" {
		if err := atomicfile.Write(o.Newick, func(f *os.File) error {
			var nm []string
			if r.Data != nil && r.Data.IDName != "" {
				nm = r.LeafNames(func(row int) string { return r.Data.IDs[row] })
			} else if m < n || (r.Graph != nil && !r.Graph.Dense()) {
				nm = r.LeafNames(func(row int) string { return strconv.FormatInt(id(row), 10) })
			}
			_, err := fmt.Fprintln(f, tree.Newick(nm))
			return err
		}); err != nil {
			return err
		}
	}
	if err := r.savePictures(tree, o); err != nil {
		return err
	}
	if o.Labels == "-" {
		return writeLabels(o.Stdout)
	}
	return nil
}

// savePictures draws the dendrogram and the ROC curve o asks for.
func (r *Run) savePictures(tree *hclust.Tree, o Outputs) error {
	if o.Dendrogram != "" {
		title := fmt.Sprintf("%s: kernel treelets (%s)", o.Title, r.Sample.Similarity)
		fig, err := figure.Dendrogram(tree, figure.DendrogramOptions{Title: title, YLabel: HeightLabel, K: min(r.K, len(r.Rows))})
		if err != nil {
			return err
		}
		if err := fig.Save(o.Dendrogram); err != nil {
			return err
		}
	}
	if o.ROC == "" {
		return nil
	}
	fig, err := figure.ROC(r.ROC.FPR, r.ROC.TPR, fmt.Sprintf("kernel treelets, AUC %.3f", r.ROC.AUC()), fmt.Sprintf("%s: pairwise ROC through the hierarchy", o.Title))
	if err != nil {
		return err
	}
	return fig.Save(o.ROC)
}

// HeightLabel is the dendrograms' name of the hierarchy's heights.
const HeightLabel = "height (running max of 1 − similarity)"
