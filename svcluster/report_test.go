package svcluster

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"gonum.org/v1/gonum/mat"
)

// svc on many rows says before the fit that its work is O(N²), with the
// time of one pass over the pairs and the alternative that fits (its own
// time); nothing on fewer than NoticeRows rows.
func TestWorkNotice(t *testing.T) {
	X := mat.NewDense(600, 3, nil)
	for i := range 600 {
		X.SetRow(i, []float64{math.Sin(float64(i)), math.Cos(float64(i)), float64(i%7) / 7})
	}
	hint := func(m int) string { return fmt.Sprintf("--landmarks %d fits", m) }
	for _, c := range []struct {
		n    int
		want string
	}{
		{200000, "svc: support vector clustering of 200000 rows is O(N²): the SVDD's kernel columns and the labelling's pair tests come to about N²/2 = 2e+10 kernel values per pass over the pairs, about "},
		{NoticeRows - 1, ""},
	} {
		got := WorkNotice(c.n, func() float64 { return PairTime(X) }, hint)
		if c.want == "" && got != "" || c.want != "" && (!strings.HasPrefix(got, c.want) || !strings.Contains(got, "; --landmarks 2000 fits (about ") || strings.Contains(got, "\n")) {
			t.Errorf("n=%d: %q", c.n, got)
		}
	}
}

// MissNote names the level, its distance from the count asked for and the
// setting that widens the search in each of the three ways a sweep can
// miss it.
func TestMissNote(t *testing.T) {
	levels := func(counts ...int) []Level {
		l := make([]Level, len(counts))
		for i, c := range counts {
			l[i].NClusters = c
		}
		return l
	}
	s := Sweep{QFactor: 1.2, MaxError: 0.95, PMax: 0.9}
	for _, c := range []struct {
		counts []int
		k      int
		want   string
	}{
		{[]int{1, 2, 4}, 3, "wrote level 1 with 2 (1 fewer), the closest; the number of clusters jumps over 3 between successive q: a finer step, --qfactor closer to 1 (now 1.2), may reach it"},
		{[]int{1, 2}, 4, "wrote level 1 with 2 (2 fewer), the closest; the sweep stopped (p_error) before reaching 4 clusters: a longer one, a larger --max-error (now 0.95) or --pmax (now 0.9), may reach it"},
		{[]int{6, 5}, 3, "wrote level 1 with 5 (2 more), the closest; every level has more than 3 clusters: a smaller --min-cluster or a larger --pmax (now 0.9) merges small ones into outliers"},
	} {
		h := &Hierarchy{Levels: levels(c.counts...), Stop: "p_error"}
		best, _, _ := h.Closest(c.k)
		s.Clusters = c.k
		want := fmt.Sprintf("svc: no level of the sweep has exactly %d clusters; %s", c.k, c.want)
		if got := h.MissNote(best, s); got != want {
			t.Errorf("%v, k=%d:\n got %q\nwant %q", c.counts, c.k, got, want)
		}
	}
}

// The report of the sweep of Iris's first two principal components stopped
// at three clusters (ExampleSweep: 15 misclassified) is the sweep's table,
// its stop, the chosen level, the clustering's summary and the agreement
// with the labels; nothing is a warning.
func TestWriteReport(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	s := Settings{PCA: 2, Sweep: &Sweep{Clusters: 3, Samples: DefaultSamples}}
	var head strings.Builder
	if err := s.WriteHeader(&head, "iris", 150, 4, "std"); err != nil {
		t.Fatal(err)
	}
	if want := "data       iris (150 rows, 4 features, scale std, first 2 principal components)\nkernel     gaussian, labelling complete, 10 samples per segment\n"; head.String() != want {
		t.Errorf("header:\n%s\nwant:\n%s", head.String(), want)
	}
	in, err := s.Prepare(ctx, ds.X)
	if err != nil {
		t.Fatal(err)
	}
	r, err := in.Fit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var w, warn, table, summary strings.Builder
	if err := in.WriteReport(&w, &warn, r, ds.Y, func(s []int) string { return fmt.Sprint(s) }); err != nil {
		t.Fatal(err)
	}
	r.Hierarchy.WriteTable(&table)
	r.WriteSummary(&summary, func(s []int) string { return fmt.Sprint(s) })
	l := r.Hierarchy.Levels[r.Level]
	want := table.String() + fmt.Sprintf("stopped    %s after %d SVDD fits\n", r.Hierarchy.Stop, r.Hierarchy.Fits) +
		fmt.Sprintf("chosen     level %d: q = %.6g, C = %.6g (1/(N·C) = %.4g), 3 clusters\n", r.Level, l.Q, l.C, l.P) + summary.String()
	got := w.String()
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ", misclassified 15 of 150 (best one-to-one matching)\n") ||
		strings.Count(got[len(want):], "\n") != 1 || !strings.HasPrefix(got[len(want):], "vs labels  ARI ") {
		t.Errorf("report:\n%s\nwant it to start:\n%s", got, want)
	}
	if warn.String() != "" {
		t.Errorf("warnings: %q", warn.String())
	}
}

// MemoryAdvice: a quarter of the rows, at most 2000, as landmarks; fewer
// landmarks when there are some; a sample when a quarter is under 2.
func TestMemoryAdvice(t *testing.T) {
	for _, c := range []struct {
		n, landmarks, rows int
		hint               string
	}{
		{100000, 0, 100000, "use --landmarks 2000 (the sphere and clusters of 2000 sampled rows, every row labelled by them)"},
		{4000, 0, 4000, "use --landmarks 1000 (the sphere and clusters of 1000 sampled rows, every row labelled by them)"},
		{7, 0, 7, "cluster a sample of the rows"},
		{100000, 5000, 5000, "use fewer --landmarks"},
	} {
		rows, what, hint := MemoryAdvice(c.n, c.landmarks)
		if rows != c.rows || what != fmt.Sprintf("support vector clustering of %d rows", c.rows) || hint != c.hint {
			t.Errorf("n=%d landmarks=%d: %d, %q, %q", c.n, c.landmarks, rows, what, hint)
		}
	}
}
