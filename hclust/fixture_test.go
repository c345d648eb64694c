package hclust

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// Fixtures: testdata/fixtures.json.gz, written by testdata/gen_fixtures.py
// (SciPy 1.10.1, NumPy 1.24.2).

type fixMethod struct {
	Z        [][4]float64
	Coph     []float64
	Leaves   []int
	Maxclust map[string][]int
	Distance [][2]json.RawMessage
}

type fixCase struct {
	Name    string
	N       int
	X       [][]float64
	D       []float64
	Methods map[string]fixMethod
}

var (
	fixOnce  sync.Once
	fixCases []fixCase
	fixErr   error
)

func loadFixtures(t testing.TB) []fixCase {
	t.Helper()
	fixOnce.Do(func() {
		f, err := os.Open("testdata/fixtures.json.gz")
		if err != nil {
			fixErr = err
			return
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			fixErr = err
			return
		}
		var all struct{ Cases []fixCase }
		fixErr = json.NewDecoder(zr).Decode(&all)
		fixCases = all.Cases
	})
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fixCases
}

// condensed returns the case's distances: D as given, or pdist(X) computed
// in pdist's summation order.
func (c *fixCase) condensed() distance.Condensed {
	if c.D != nil {
		return distance.Condensed{N: c.N, Data: append([]float64(nil), c.D...)}
	}
	d := distance.NewCondensed(c.N)
	k := 0
	for i := 0; i < c.N; i++ {
		for j := i + 1; j < c.N; j++ {
			d.Data[k] = distance.Dist(c.X[i], c.X[j])
			k++
		}
	}
	return d
}

func (c *fixCase) points() *mat.Dense {
	x := mat.NewDense(len(c.X), len(c.X[0]), nil)
	for i, r := range c.X {
		x.SetRow(i, r)
	}
	return x
}

// relClose: heights must agree to 1e-9 relative; in practice they
// agree to the bit because the same operations run in the same order.
func relClose(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// canon renumbers a partition by first occurrence.
func canon(lab []int) []int {
	m := map[int]int{}
	out := make([]int, len(lab))
	for i, l := range lab {
		c, ok := m[l]
		if !ok {
			c = len(m)
			m[l] = c
		}
		out[i] = c
	}
	return out
}

func nclusters(lab []int) int {
	m := map[int]bool{}
	for _, l := range lab {
		m[l] = true
	}
	return len(m)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// refines reports whether every cluster of fine lies inside one of coarse.
func refines(fine, coarse []int) bool {
	m := map[int]int{}
	for i, f := range fine {
		if c, ok := m[f]; ok && c != coarse[i] {
			return false
		}
		m[f] = coarse[i]
	}
	return true
}

func checkTree(t *testing.T, tr *Tree, want fixMethod, exact *int) {
	t.Helper()
	if len(tr.Merges) != len(want.Z) {
		t.Fatalf("%d merges, want %d", len(tr.Merges), len(want.Z))
	}
	for k, m := range tr.Merges {
		w := want.Z[k]
		if float64(m.A) != w[0] || float64(m.B) != w[1] || float64(m.Size) != w[3] || !relClose(m.Height, w[2]) {
			t.Fatalf("row %d = %v, scipy %v", k, m, w)
		}
		if m.Height == w[2] {
			*exact++
		}
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	if want.Coph == nil { // light case: only Z and leaves
		if got := tr.Leaves(); !equalInts(got, want.Leaves) {
			t.Fatalf("leaves %v, scipy %v", got, want.Leaves)
		}
		return
	}
	coph := tr.Cophenetic()
	for i, v := range coph.Data {
		if !relClose(v, want.Coph[i]) {
			t.Fatalf("cophenet[%d] = %v, scipy %v", i, v, want.Coph[i])
		}
	}
	if got := tr.Leaves(); !equalInts(got, want.Leaves) {
		t.Fatalf("leaves %v, scipy %v", got, want.Leaves)
	}
}

func TestLinkageMatchesSciPy(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadFixtures(t) {
		d := c.condensed()
		for _, m := range Methods() {
			want, ok := c.Methods[m.String()]
			if !ok {
				continue
			}
			t.Run(c.Name+"/"+m.String(), func(t *testing.T) {
				exact := 0
				tr, err := Linkage(ctx, d, m)
				if err != nil {
					t.Fatal(err)
				}
				checkTree(t, tr, want, &exact)
				if exact != len(want.Z) {
					t.Logf("%d of %d heights differ from SciPy in the last bits", len(want.Z)-exact, len(want.Z))
				}
				if c.X != nil {
					tp, err := FromPoints(ctx, c.points(), m)
					if err != nil {
						t.Fatal(err)
					}
					checkTree(t, tp, want, &exact)
				}
				monotone := m != Centroid && m != Median
				for ks, wl := range want.Maxclust {
					var k int
					if err := json.Unmarshal([]byte(ks), &k); err != nil {
						t.Fatal(err)
					}
					got, err := tr.CutK(k)
					if err != nil {
						t.Fatal(err)
					}
					if nclusters(got) != k || !equalInts(got, canon(got)) {
						t.Fatalf("CutK(%d): %d clusters, labels not numbered by first leaf: %v", k, nclusters(got), got)
					}
					if !monotone {
						continue
					}
					if nclusters(wl) == k {
						if !equalInts(got, canon(wl)) {
							t.Fatalf("CutK(%d) = %v, scipy maxclust %v", k, got, canon(wl))
						}
					} else if !refines(got, wl) {
						// ties: scipy returns fewer clusters; ours must split them
						t.Fatalf("CutK(%d) = %v does not refine scipy's tied maxclust %v", k, got, wl)
					}
				}
				for _, hc := range want.Distance {
					var h float64
					var wl []int
					if err := json.Unmarshal(hc[0], &h); err != nil {
						t.Fatal(err)
					}
					if err := json.Unmarshal(hc[1], &wl); err != nil {
						t.Fatal(err)
					}
					if got := tr.CutHeight(h); !equalInts(got, canon(wl)) {
						t.Fatalf("CutHeight(%v) = %v, scipy %v", h, got, canon(wl))
					}
				}
			})
		}
	}
}
