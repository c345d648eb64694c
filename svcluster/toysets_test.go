package svcluster

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/metrics"
)

var toySets = []string{"noisy_circles", "noisy_moons", "blobs", "aniso", "varied", "no_structure"}

// peerARI reads testdata/peers_cluster.jsonl (see peers_cluster.sh).
func peerARI(t testing.TB) map[string]map[string]float64 {
	f, err := os.Open("testdata/peers_cluster.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			Dataset, Method string
			ARI             float64
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if out[r.Dataset] == nil {
			out[r.Dataset] = map[string]float64{}
		}
		out[r.Dataset][r.Method] = r.ARI
	}
	return out
}

func loadToy(t testing.TB, name string) *dataset.Dataset {
	ds, err := dataset.Load(filepath.Join("..", "..", "shared", "data", name+".csv"), dataset.CSVOptions{})
	if err != nil {
		t.Skipf("toy set %s not available: %v", name, err)
	}
	X, err := dataset.Scale(ds.X, "std")
	if err != nil {
		t.Fatal(err)
	}
	ds.X = X
	return ds
}

// toyLevel is the best level of one sweep.
type toyLevel struct {
	Set, Labelling string
	ARI            float64
	Q, P           float64
	Clusters       int
	Levels, Fits   int
	Seconds        float64
}

func bestLevel(y []int, h *Hierarchy) (int, float64) {
	best, ba := -1, -2.0
	for i, l := range h.Levels {
		if a, err := metrics.ARI(y, l.Labels); err == nil && a > ba {
			best, ba = i, a
		}
	}
	return best, ba
}

// BenchmarkToySetsReport runs the §3.2 sweep on the six toy sets (z-scored, as
// peers.py) and writes testdata/toysets.md with the ARI of the best level
// next to scikit-learn's spectral clustering and DBSCAN. It takes minutes:
// run with SVCLUSTER_REPORT=1.
func BenchmarkToySetsReport(tb *testing.B) {
	if os.Getenv("SVCLUSTER_REPORT") == "" {
		tb.Skip("set SVCLUSTER_REPORT=1 to regenerate testdata/toysets.md")
	}
	peers := peerARI(tb)
	var rows []toyLevel
	for _, name := range toySets {
		ds := loadToy(tb, name)
		for _, lab := range []Labelling{Complete, KNNGraph} {
			start := time.Now()
			h, err := Sweep{Labelling: lab, MaxError: 0.9}.Fit(context.Background(), ds.X)
			if err != nil {
				tb.Fatal(err)
			}
			i, a := bestLevel(ds.Y, h)
			l := h.Levels[i]
			rows = append(rows, toyLevel{name, lab.String(), a, l.Q, l.P, l.NClusters, len(h.Levels), h.Fits, time.Since(start).Seconds()})
			tb.Logf("%s %v: best level %d/%d q=%.4g 1/(NC)=%.3g clusters=%d ARI=%.4f (%s, %d fits, %.1fs)",
				name, lab, i, len(h.Levels), l.Q, l.P, l.NClusters, a, h.Stop, h.Fits, time.Since(start).Seconds())
		}
		// Without looking at the labels beyond their number: the first level
		// of the sweep with as many clusters as classes (3 for no_structure,
		// as the peers).
		k := 0
		for _, c := range ds.Y {
			k = max(k, c+1)
		}
		if k == 1 {
			k = 3
		}
		start := time.Now()
		h, err := Sweep{MaxError: 0.9, Clusters: k}.Fit(context.Background(), ds.X)
		if err != nil {
			tb.Fatal(err)
		}
		r := toyLevel{Set: name, Labelling: "complete, first level with K clusters", ARI: -1, Seconds: time.Since(start).Seconds(), Fits: h.Fits}
		if h.Chosen >= 0 {
			l := h.Levels[h.Chosen]
			r.ARI, _ = metrics.ARI(ds.Y, l.Labels)
			r.Q, r.P, r.Clusters, r.Levels = l.Q, l.P, l.NClusters, len(h.Levels)
		}
		tb.Logf("%s: first level with %d clusters: %+v (%s)", name, k, r, h.Stop)
		rows = append(rows, r)
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| data set | SVC best level (complete) | q, 1/(NC), clusters | SVC best level (knn) | q, 1/(NC), clusters | SVC first level with K clusters | q, 1/(NC) | spectral (sklearn) | DBSCAN (sklearn) |")
	fmt.Fprintln(&b, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for k := 0; k < len(rows); k += 3 {
		c, n, f := rows[k], rows[k+1], rows[k+2]
		first := fmt.Sprintf("%.3f | %.3g, %.2g", f.ARI, f.Q, f.P)
		if f.Clusters == 0 {
			first = "never K clusters | —"
		}
		fmt.Fprintf(&b, "| %s | %.3f | %.3g, %.2g, %d | %.3f | %.3g, %.2g, %d | %s | %.3f | %.3f |\n", c.Set,
			c.ARI, c.Q, c.P, c.Clusters, n.ARI, n.Q, n.P, n.Clusters, first, peers[c.Set]["spectral_knn10"], peers[c.Set]["dbscan"])
	}
	if err := os.WriteFile("testdata/toysets.md", []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	j, _ := json.MarshalIndent(rows, "", "  ")
	if err := os.WriteFile("testdata/toysets.json", j, 0o644); err != nil {
		tb.Fatal(err)
	}
}
