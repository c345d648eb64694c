package treelets

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestFitGap: without a number of clusters, K is the largest height gap
// of the hierarchy that is cut (every row: the run's own; a sample: the
// sample's hierarchy alone), and the run equals Fit with that K.
func TestFitGap(t *testing.T) {
	ctx := context.Background()
	X, _ := blobs(40, 2)
	g := kernel.Points{K: kernel.RBF{Gamma: 0.5}, X: X}
	for _, m := range []int{0, 120, 50} {
		s := Sample{M: m, Seed: 4, Extend: ExtendKNN}
		r, k, err := s.FitGap(ctx, g, 50)
		if err != nil {
			t.Fatal(err)
		}
		KS, _ := g.Sym(ctx, nil, Draw(120, max(m, 2), 4))
		if m == 0 || m == 120 {
			KS, _ = g.Sym(ctx, nil, r.Rows)
		}
		alone, _ := Settings{}.Fit(ctx, KS)
		if k != alone.GapK(50) {
			t.Fatalf("M = %d: K = %d, the sample's hierarchy gives %d", m, k, alone.GapK(50))
		}
		s.Clusters = k
		want, err := s.Fit(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Labels, want.Labels) || !slices.Equal(r.Rows, want.Rows) {
			t.Fatalf("M = %d: FitGap differs from Fit with Clusters = %d", m, k)
		}
	}
	if _, _, err := (Sample{M: 500, Extend: ExtendKNN}).FitGap(ctx, g, 50); err == nil {
		t.Fatal("a sample larger than the items: no error")
	}
}

// TestBytes: the closed forms, and the largest sample fits its budget.
func TestBytes(t *testing.T) {
	if Bytes(100, 100) != 8*100*100 || Bytes(100, 10) != 2*8*10*10 {
		t.Fatalf("Bytes: %v, %v", Bytes(100, 100), Bytes(100, 10))
	}
	for _, b := range []int64{1 << 20, 1 << 30, 12345} {
		s := LargestSample(b, 100000)
		if Bytes(100000, s) > float64(b) || Bytes(100000, s+1) <= float64(b) && s < 20000 {
			t.Fatalf("budget %d: sample %d is not the largest that fits", b, s)
		}
	}
	if LargestSample(0, 50) != 49 || LargestSample(0, 1e6) != 20000 {
		t.Fatal("LargestSample without a budget")
	}
}

// TestWriteLevels: the CSV reads back as the levels, exactly.
func TestWriteLevels(t *testing.T) {
	X, _ := blobs(5, 1)
	g := kernel.Points{K: kernel.RBF{Gamma: 0.5}, X: X}
	K, _ := g.Sym(context.Background(), nil, Draw(15, 15, 0))
	m, err := Settings{}.Fit(context.Background(), K)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.WriteLevels(&b, func(i int) int64 { return int64(10 * i) }); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != len(m.Levels)+1 || recs[0][0] != "level" {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	for i, l := range m.Levels {
		r := recs[i+1]
		f := func(j int) float64 { v, _ := strconv.ParseFloat(r[j], 64); return v }
		if r[0] != strconv.Itoa(i+1) || r[1] != strconv.Itoa(10*l.Sum) || r[2] != strconv.Itoa(10*l.Diff) ||
			f(3) != l.Similarity || f(4) != l.Cos || f(5) != l.Sin {
			t.Fatalf("level %d: %v, want %+v", i+1, r, l)
		}
	}
}
