package svcluster

import (
	"fmt"
	"io"
	"time"

	"github.com/arbor-ml/arbor/internal/progress"
	"github.com/arbor-ml/arbor/metrics"
)

// NoticeRows is the number of fitted rows from which WorkNotice speaks.
const NoticeRows = 10000

// WorkNotice says, before support vector clustering of n rows, what the
// memory estimate (Bytes) cannot: the work is O(N²) kernel values (the
// SVDD's kernel columns, the labelling's pair tests, each about N²/2 per
// pass over the pairs) and how long one such pass takes on this machine
// (pairTime: the nanoseconds of one kernel value, PairTime, asked only
// when there is a notice), followed by hint(m), the alternative on
// m = min(2000, n/4) rows, with its own time. It is "" below NoticeRows
// rows.
func WorkNotice(n int, pairTime func() float64, hint func(m int) string) string {
	if n < NoticeRows {
		return ""
	}
	per := pairTime()
	pass := func(m int) string {
		return progress.Duration(time.Duration(per * float64(m) * float64(m-1) / 2))
	}
	m := min(2000, n/4)
	return fmt.Sprintf("svc: support vector clustering of %d rows is O(N²): the SVDD's kernel columns and the labelling's pair tests come to about N²/2 = %.2g kernel values per pass over the pairs, about %s a pass on this machine; %s (about %s a pass)",
		n, float64(n)*float64(n-1)/2, pass(n), hint(m), pass(m))
}

// MemoryAdvice returns the number of rows a fit on n rows works on (a
// sample of landmarks of them when landmarks is positive), its name for a
// memory error over Bytes(rows, d), and what fits instead in arbor svc's
// flags: a sample of a quarter of the rows (at most 2000), or fewer.
func MemoryAdvice(n, landmarks int) (rows int, what, hint string) {
	rows, hint = n, "cluster a sample of the rows"
	if m := min(2000, n/4); m >= 2 {
		hint = fmt.Sprintf("use --landmarks %d (the sphere and clusters of %d sampled rows, every row labelled by them)", m, m)
	}
	if landmarks > 0 {
		rows, hint = landmarks, "use fewer --landmarks"
	}
	return rows, fmt.Sprintf("support vector clustering of %d rows", rows), hint
}

// WriteHeader writes the two lines arbor svc prints before the fit: the
// data set called name (n rows, d features, scaled by scale before s
// projects them) and the kernel, labelling and samples per segment.
func (s Settings) WriteHeader(w io.Writer, name string, n, d int, scale string) error {
	fmt.Fprintf(w, "data       %s (%d rows, %d features, scale %s", name, n, d, scale)
	if s.PCA > 0 {
		fmt.Fprintf(w, ", first %d principal components", s.PCA)
	}
	kind, lab, samples := s.Clusterer.Kernel, s.Clusterer.Labelling, s.Clusterer.Samples
	if s.Sweep != nil {
		kind, lab, samples = s.Sweep.Kernel, s.Sweep.Labelling, s.Sweep.Samples
	}
	_, err := fmt.Fprintf(w, ")\nkernel     %s, labelling %s, %d samples per segment\n", kind, lab, samples)
	return err
}

// WriteReport writes on w what arbor svc prints after the fit r of in: the
// sweep's levels (Hierarchy.WriteTable), why it stopped and the level
// whose labels r has, the sample, the clustering (Clustering.WriteSummary
// with sizes) and, when truth labels two or more rows (−1: no label), its
// agreement with them. On warn it writes, each on a line of its own
// starting "warning: ", why the level is the closest to Sweep.Clusters
// (MissNote) and r.Warnings.
func (in *Input) WriteReport(w, warn io.Writer, r *Result, truth []int, sizes func([]int) string) error {
	if h := r.Hierarchy; h != nil {
		if err := h.WriteTable(w); err != nil {
			return err
		}
		fmt.Fprintf(w, "stopped    %s after %d SVDD fits\n", h.Stop, h.Fits)
		if l := h.Levels[r.Level]; in.s.Sweep.Clusters > 0 {
			if r.Closest {
				fmt.Fprintln(warn, "warning:", h.MissNote(r.Level, *in.s.Sweep))
			}
			fmt.Fprintf(w, "chosen     level %d: q = %.6g, C = %.6g (1/(N·C) = %.4g), %d clusters\n", r.Level, l.Q, l.C, l.P, l.NClusters)
		} else {
			fmt.Fprintf(w, "labels of  the last level (%d)\n", r.Level)
		}
	}
	if in.Sample != nil {
		fmt.Fprintf(w, "landmarks  %d sampled rows fitted; %d other rows outside the sphere\n", len(in.Sample), r.Outside)
	}
	if err := r.WriteSummary(w, sizes); err != nil {
		return err
	}
	if t, p := metrics.Labelled(truth, r.Labels); len(t) > 1 {
		ari, err1 := metrics.ARI(t, p)
		nmi, err2 := metrics.NMI(t, p)
		mis, _, err3 := metrics.Misclassified(t, p)
		if err1 == nil && err2 == nil && err3 == nil {
			fmt.Fprintf(w, "vs labels  ARI %.4f, NMI %.4f, misclassified %d of %d (best one-to-one matching)\n", ari, nmi, mis, len(t))
		}
	}
	for _, e := range r.Warnings {
		fmt.Fprintf(warn, "warning: %v\n", e)
	}
	return nil
}

// MissNote says that level best of h, the closest to s.Clusters = k
// clusters (Closest), has not k, how far it is and, in the words of
// arbor svc's flags, which setting of s would widen the search: a finer
// QFactor when the count jumps over k, a longer sweep (MaxError, PMax)
// when it stops short, a smaller MinCluster or larger PMax when every
// level has more.
func (h *Hierarchy) MissNote(best int, s Sweep) string {
	k := s.Clusters
	_, below, above := h.Closest(k)
	got := h.Levels[best].NClusters
	how := fmt.Sprintf("%d fewer", k-got)
	if got > k {
		how = fmt.Sprintf("%d more", got-k)
	}
	var hint string
	switch {
	case below && above:
		hint = fmt.Sprintf("the number of clusters jumps over %d between successive q: a finer step, --qfactor closer to 1 (now %g), may reach it", k, s.QFactor)
	case below:
		hint = fmt.Sprintf("the sweep stopped (%s) before reaching %d clusters: a longer one, a larger --max-error (now %g) or --pmax (now %g), may reach it", h.Stop, k, s.MaxError, s.PMax)
	default:
		hint = fmt.Sprintf("every level has more than %d clusters: a smaller --min-cluster or a larger --pmax (now %g) merges small ones into outliers", k, s.PMax)
	}
	return fmt.Sprintf("svc: no level of the sweep has exactly %d clusters; wrote level %d with %d (%s), the closest; %s", k, best, got, how, hint)
}
