package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/internal/atomicfile"
)

// displayName is a data set's name as a picture's title shows it
// (dataset.DisplayName).
func displayName(name string) string { return dataset.DisplayName(name) }

// plotFlags are --plot and --plot-features of the commands that draw
// their rows coloured by label (cluster, classify).
type plotFlags struct{ path, features string }

func (p *plotFlags) register(fs *flag.FlagSet, what string) {
	fs.StringVar(&p.path, "plot", "", "draw "+what+" to this .png or .svg file: the rows' two features, or their first two principal components when there are more (--plot-features picks two features)")
	fs.StringVar(&p.features, "plot-features", "", "--plot: the two features to draw, `A,B` (names or 1-based positions)")
}

// check refuses a picture extension other than .png and .svg and
// --plot-features without --plot.
func (p *plotFlags) check() error {
	if p.features != "" && p.path == "" {
		return usageError("--plot-features goes with --plot FILE")
	}
	return checkPictureExt("plot", p.path)
}

// project returns the points --plot draws for the rows of ds and their
// axis labels (figure.Project).
func (p *plotFlags) project(ds *dataset.Dataset) (*figure.Projection, error) {
	feats, err := figure.ParseFeatures(p.features, ds.Features, ds.Dim(), displayName(ds.Name))
	if err != nil {
		return nil, usageError("%v", err)
	}
	pr, err := figure.Project(ds.X, feats, ds.Features)
	if err != nil {
		return nil, fmt.Errorf("--plot: %w", err)
	}
	return pr, nil
}

// writeLabels draws the training rows of ds coloured by their label after
// classify (pred[:ds.Len()]; the given label for a labelled row), the
// labelled rows larger and ringed, to --plot, and says so on info.
func (p *plotFlags) writeLabels(info io.Writer, ds *dataset.Dataset, pred []int, title string) error {
	if p.path == "" {
		return nil
	}
	pr, err := p.project(ds)
	if err != nil {
		return err
	}
	fig, err := figure.Scatter(pr.Z, pred[:ds.Len()], figure.ScatterOptions{Title: title, XLabel: pr.XLabel, YLabel: pr.YLabel,
		Classes: figure.ClassNames(ds.Classes), Unlabeled: "left unlabelled", Labeled: ds.Labeled()})
	if err != nil {
		return err
	}
	if err := atomicfile.Write(p.path, func(f *os.File) error { return fig.WriteTo(f, filepath.Ext(p.path)) }); err != nil {
		return err
	}
	fmt.Fprintf(info, "wrote    %s\n", p.path)
	return nil
}
