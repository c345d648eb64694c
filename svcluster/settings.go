package svcluster

import (
	"context"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/landmark"
	"gonum.org/v1/gonum/mat"
)

// Settings are support vector clustering of a whole data set, the flow of
// arbor svc: the rows projected on their first PCA principal components
// (optional), a sample of Landmarks rows fitted in their place (optional),
// one clustering at (Q, C) or the sweep of q, and the sample's clusters
// extended to every row.
type Settings struct {
	// PCA, if positive, projects the rows on their first PCA principal
	// components (PCA) before anything else.
	PCA int
	// Landmarks, if positive, fits the sphere and clusters on this many
	// rows chosen by landmark.Choose with LandmarkMethod and Seed; every
	// row is then labelled by Extend.
	Landmarks      int
	LandmarkMethod string
	Seed           uint64
	// Clusterer is the clustering at one (q, C) when Sweep is nil.
	Clusterer Clusterer
	// Sweep, if not nil, sweeps q (Sweep.Fit) in place of Clusterer; the
	// labels are those of the level with Sweep.Clusters clusters (the
	// closest one when no level has as many) or, with Sweep.Clusters 0, of
	// the last level. Sweep.Unassigned also applies to the extension.
	Sweep *Sweep
	// Log, if not nil, receives the notes of the run, one per line.
	Log io.Writer
}

// PCAError is the error of the projection Settings.PCA asks for.
type PCAError struct {
	K   int
	Err error
}

func (e *PCAError) Error() string { return fmt.Sprintf("PCA %d: %v", e.K, e.Err) }
func (e *PCAError) Unwrap() error { return e.Err }

// Input is a data set prepared for fitting: its rows projected and
// sampled as Settings say.
type Input struct {
	// All are every row, projected when Settings.PCA is positive.
	All *mat.Dense
	// X are the rows fitted: All, or its Sample rows.
	X *mat.Dense
	// Sample are the rows of All fitted (nil: every row), ascending.
	Sample []int

	s Settings
}

// Result is a fitted Settings.
type Result struct {
	// Clustering labels every row (extended from the sample with
	// Landmarks); its sphere is the fitted one.
	*Clustering
	// Hierarchy is the sweep (nil without Sweep) and Level the index of
	// the level whose labels Clustering has (−1 without Sweep).
	Hierarchy *Hierarchy
	Level     int
	// Closest is true when no level of the sweep has Sweep.Clusters
	// clusters and Level is the closest one (Hierarchy.Closest).
	Closest bool
	// Outside counts the rows not sampled that the sphere leaves outside
	// (Extend; 0 without Landmarks).
	Outside int
}

// Prepare projects and samples the rows of X as s says. Errors: a
// *PCAError, landmark.Choose's, ErrBadParam for Landmarks beyond the rows.
func (s Settings) Prepare(ctx context.Context, X *mat.Dense) (*Input, error) {
	in := &Input{All: X, s: s}
	if s.PCA > 0 {
		p, err := PCA(nil, X, s.PCA)
		if err != nil {
			return nil, &PCAError{K: s.PCA, Err: err}
		}
		in.All = p
	}
	in.X = in.All
	if s.Landmarks > 0 {
		if n, _ := X.Dims(); s.Landmarks > n {
			return nil, fmt.Errorf("%w: %d landmarks: more than the %d rows", ErrBadParam, s.Landmarks, n)
		}
		method := s.LandmarkMethod
		if method == "" {
			method = landmark.KMeans
		}
		sample, err := landmark.Choose(ctx, in.All, s.Landmarks, method, s.Seed)
		if err != nil {
			return nil, err
		}
		in.Sample = sample
		in.X = mat.NewDense(len(sample), in.All.RawMatrix().Cols, nil)
		for a, i := range sample {
			in.X.SetRow(a, in.All.RawRowView(i))
		}
		if s.Log != nil {
			fmt.Fprintf(s.Log, "landmarks %d (%s, seed %d): the sphere and clusters are fitted on them; every row is labelled by the sphere and its nearest sampled row's cluster\n", len(sample), method, s.Seed)
		}
	}
	return in, nil
}

// Fit clusters the prepared rows: the sweep or the clustering at (Q, C)
// on in.X, extended to every row of in.All with a sample. Errors: as
// Clusterer.Fit and Sweep.Fit, and ctx.Err().
func (in *Input) Fit(ctx context.Context) (*Result, error) {
	s := in.s
	res := &Result{Level: -1}
	var c *Clustering
	if s.Sweep != nil {
		h, err := s.Sweep.Fit(ctx, in.X)
		if err != nil {
			return nil, err
		}
		res.Hierarchy, res.Level = h, len(h.Levels)-1
		if s.Sweep.Clusters > 0 {
			res.Level = h.Chosen
			if res.Level < 0 {
				res.Level, _, _ = h.Closest(s.Sweep.Clusters)
				res.Closest = true
			}
		}
		c = h.Levels[res.Level].Result
	} else {
		var err error
		if c, err = s.Clusterer.Fit(ctx, in.X); err != nil {
			return nil, err
		}
	}
	if in.Sample != nil {
		unassigned := s.Clusterer.Unassigned
		if s.Sweep != nil {
			unassigned = s.Sweep.Unassigned
		}
		var err error
		if c, res.Outside, err = Extend(ctx, c, in.All, in.Sample, unassigned); err != nil {
			return nil, err
		}
	}
	res.Clustering = c
	return res, nil
}

// Fit is Prepare followed by Input.Fit.
func (s Settings) Fit(ctx context.Context, X *mat.Dense) (*Result, error) {
	in, err := s.Prepare(ctx, X)
	if err != nil {
		return nil, err
	}
	return in.Fit(ctx)
}

// WriteSummary writes the clustering's summary lines: q, C and 1/(N·C)
// for the N fitted rows (one β each), the sphere, and the clusters with
// their sizes as sizes formats them.
func (c *Clustering) WriteSummary(w io.Writer, sizes func([]int) string) error {
	fmt.Fprintf(w, "q = %.6g   C = %.6g   1/(N·C) = %.4g\n", c.Q, c.C, 1/(float64(len(c.Beta))*c.C))
	fmt.Fprintf(w, "sphere     R = %.6g, n_sv = %d, n_bsv = %d, (n_sv+n_bsv)/N = %.4f (eq. 14), SVDD %d iterations\n",
		c.R, c.NSV, c.NBSV, c.PError, c.Iter)
	fmt.Fprintf(w, "clusters   %d, sizes %s", c.NClusters, sizes(c.Sizes))
	if c.Singletons > 0 {
		fmt.Fprintf(w, " (%d single-point)", c.Singletons)
	}
	_, err := fmt.Fprintln(w)
	return err
}
