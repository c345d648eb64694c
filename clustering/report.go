package clustering

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/metrics"
)

// WriteClusters writes on w the number of clusters of labels and their
// sizes as sizes formats them (Sizes) and, when truth labels two or more
// rows (−1: no label), the ARI and NMI of labels against them.
func WriteClusters(w io.Writer, truth, labels []int, sizes func([]int) string) error {
	s := Sizes(labels)
	fmt.Fprintf(w, "clusters   %d, sizes %s\n", len(s), sizes(s))
	t, p := metrics.Labelled(truth, labels)
	if len(t) < 2 {
		return nil
	}
	ari, err := metrics.ARI(t, p)
	if err != nil {
		return err
	}
	nmi, err := metrics.NMI(t, p)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "vs labels  ARI %.4f, NMI %.4f (%d labelled rows)\n", ari, nmi, len(t))
	return err
}

// Advice names a Fit of n rows with cost c for a memory error and says,
// in arbor cluster's flags, what would fit instead: landmarks (fewer of
// them with Landmarks), float32 when it fits Budget, float32 left out
// where it keeps Fit from the path without the N×N matrix.
func (s Settings) Advice(n int, c Cost) (what, hint string) {
	hint = "cluster a sample of the rows"
	if m := min(2000, n/4); m >= 2 {
		hint = fmt.Sprintf("use --landmarks %d (the tree on %d landmarks, every row in its nearest landmark's cluster)", m, m)
	}
	what = fmt.Sprintf("clustering %d rows", n)
	switch {
	case s.Landmarks > 0:
		hint = "use fewer --landmarks"
	case s.Float32:
		what += " (--float32)"
	case c.Float32 > 0 && (s.Budget <= 0 || c.Float32 <= float64(s.Budget)):
		hint = memory.JoinHints("--float32 needs about "+memory.Human(c.Float32), hint)
	}
	if c.Float32Dropped {
		hint = memory.JoinHints(fmt.Sprintf("without --float32, %s linkage clusters without the N×N matrix (O(N·k + K²) memory for the K clusters of the exact tree, checked once K is known)", s.Linkage), hint)
	}
	if c.LowMemory {
		what += " without the N×N matrix"
	}
	return what, hint
}

// LowMemoryNotice says that Fit with cost c takes the path without the
// N×N matrix: the matrix's size, the budget and where it comes from
// (source), and how the path works (LowMemoryNote).
func (s Settings) LowMemoryNotice(c Cost, source string) string {
	return fmt.Sprintf("%s linkage: the N×N matrix needs about %s, more than the budget of %s (%s); %s",
		s.Linkage, memory.Human(c.Matrix), memory.Human(float64(s.Budget)), source, LowMemoryNote(s.Linkage))
}

// ErrOutput is wrapped by the errors of outputs that the run cannot give:
// a plot of the clusters without a cut (ErrNoCut), features to plot that
// the data do not have.
var (
	ErrOutput = errors.New("clustering: output not possible")
	ErrNoCut  = fmt.Errorf("%w: no cut", ErrOutput)
)

// PlotError is the failure to project the rows for the plot of the
// clusters (figure.Project).
type PlotError struct{ Err error }

func (e *PlotError) Error() string { return "plot: " + e.Err.Error() }
func (e *PlotError) Unwrap() error { return e.Err }

// outputError is an ErrOutput with the text of its error.
type outputError struct{ error }

func (e outputError) Is(target error) bool { return target == ErrOutput }
func (e outputError) Unwrap() error        { return e.error }

// Outputs are the files arbor cluster writes of a tree and its flat
// clusters; an empty path is not written.
type Outputs struct {
	// Labels is the cluster labels (CSV: row[,id],cluster); "-" is Stdout.
	Labels string
	Stdout io.Writer
	// Linkage is SciPy's linkage matrix (CSV), Newick the tree in Newick
	// format, leaves named by the data's ID column.
	Linkage, Newick string
	// Dendrogram is a picture of the tree (.png or .svg) drawn with
	// DendrogramOptions, the cut at Height unless it is NaN and leaves
	// named by the data's IDs.
	Dendrogram        string
	DendrogramOptions figure.DendrogramOptions
	Height            float64
	// Plot is a picture of the rows coloured by cluster (shaped by class
	// when the data have labels): their two features PlotFeatures ("A,B",
	// figure.ParseFeatures) or first two principal components, titled
	// "PlotTitle, K clusters".
	Plot, PlotFeatures, PlotTitle string
}

// Write writes the outputs o asks for, all or none. Leaf i of tree is row
// leafRows[i] of ds (nil: row i); labels are the flat clusters of ds's
// rows (nil without a cut). Errors: ErrNoCut for a plot without labels,
// an ErrOutput for features the data do not have, a *PlotError when the
// rows cannot be projected, the errors of drawing and writing.
func (o Outputs) Write(ctx context.Context, ds *dataset.Dataset, tree *hclust.Tree, labels, leafRows []int) error {
	var batch atomicfile.Batch // all outputs or none
	defer batch.Abort()
	if o.Labels != "" {
		if err := batch.WriteOut(o.Labels, o.Stdout, func(w io.Writer) error { return ds.WriteLabels(w, "cluster", labels) }); err != nil {
			return err
		}
	}
	if o.Linkage != "" {
		if err := batch.Write(o.Linkage, func(f *os.File) error { return dataset.WriteMatrix(ctx, f, tree.Matrix(), dataset.MatrixCSV) }); err != nil {
			return err
		}
	}
	if o.Newick != "" {
		if err := batch.Write(o.Newick, func(f *os.File) error {
			_, err := fmt.Fprintln(f, tree.Newick(leafIDs(ds, leafRows)))
			return err
		}); err != nil {
			return err
		}
	}
	if o.Dendrogram != "" {
		opt := o.DendrogramOptions
		if !math.IsNaN(o.Height) {
			opt.Cut = o.Height
		}
		if ds.IDs != nil && len(ds.IDs) == tree.N { // leaves named by --id
			opt.Labels = ds.IDs
		}
		fig, err := figure.Dendrogram(tree, opt)
		if err != nil {
			return err
		}
		if err := batch.Write(o.Dendrogram, func(f *os.File) error { return fig.WriteTo(f, filepath.Ext(o.Dendrogram)) }); err != nil {
			return err
		}
	}
	if err := o.plot(&batch, ds, labels); err != nil {
		return err
	}
	return batch.Commit()
}

// plot draws the clusters of ds's rows to o.Plot through batch.
func (o Outputs) plot(batch *atomicfile.Batch, ds *dataset.Dataset, labels []int) error {
	if o.Plot == "" {
		return nil
	}
	if labels == nil {
		return ErrNoCut
	}
	feats, err := figure.ParseFeatures(o.PlotFeatures, ds.Features, ds.Dim(), dataset.DisplayName(ds.Name))
	if err != nil {
		return outputError{err}
	}
	pr, err := figure.Project(ds.X, feats, ds.Features)
	if err != nil {
		return &PlotError{Err: err}
	}
	opt := figure.ClusterOptions{Title: fmt.Sprintf("%s, %d clusters", o.PlotTitle, len(Sizes(labels))), XLabel: pr.XLabel, YLabel: pr.YLabel}
	if len(ds.Labeled()) > 0 {
		opt.Truth, opt.Classes = ds.Y, ds.Classes
	}
	fig, err := figure.Clusters(pr.Z, labels, opt)
	if err != nil {
		return err
	}
	return batch.Write(o.Plot, func(f *os.File) error { return fig.WriteTo(f, filepath.Ext(o.Plot)) })
}

// leafIDs names the tree's leaves by the data's ID column: the rows' IDs,
// or those of the rows lm when the tree is on landmarks; nil without IDs.
func leafIDs(ds *dataset.Dataset, lm []int) []string {
	if ds.IDs == nil {
		return nil
	}
	if lm == nil {
		return ds.IDs
	}
	out := make([]string, len(lm))
	for i, r := range lm {
		out[i] = ds.IDs[r]
	}
	return out
}
