package hclust

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Fixtures: testdata/fcluster.json.gz, written by testdata/gen_fcluster.py
// (SciPy's fcluster, maxdists, inconsistent, maxinconsts and maxRstat; the
// versions are stored in the file).

type fcMethod struct {
	Z                [][4]float64
	Maxdists         []float64
	R                map[string][][4]float64
	Maxinconsts2     []float64
	Maxclust         [][]int
	Distance         [][2]json.RawMessage
	Inconsistent     map[string][][2]json.RawMessage
	MaxclustMonocrit map[string][][]int `json:"maxclust_monocrit"`
	Monocrit         [][2]json.RawMessage
}

type fcCase struct {
	Name    string
	N       int
	Methods map[string]fcMethod
}

func loadFcluster(t *testing.T) []fcCase {
	t.Helper()
	f, err := os.Open("testdata/fcluster.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []fcCase }
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) == 0 {
		t.Fatal("no cases")
	}
	return doc.Cases
}

// thresholdCuts decodes [[t, labels], ...].
func thresholdCuts(t *testing.T, raw [][2]json.RawMessage) (ts []float64, want [][]int) {
	t.Helper()
	for _, r := range raw {
		var v float64
		var l []int
		if err := json.Unmarshal(r[0], &v); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(r[1], &l); err != nil {
			t.Fatal(err)
		}
		ts = append(ts, v)
		want = append(want, l)
	}
	return ts, want
}

func treeFromZ(t *testing.T, z [][4]float64) *Tree {
	t.Helper()
	m := mat.NewDense(len(z), 4, nil)
	for i, r := range z {
		m.SetRow(i, r[:])
	}
	tr, err := FromMatrix(m)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// closeRel: the statistics are the same sums in SciPy's order, so they
// agree bit for bit (the variance is a difference of nearly equal sums:
// any other order already differs in the 11th digit).
func closeRel(a, b float64) bool { return a == b }

func TestCutsEqualFcluster(t *testing.T) {
	ties := 0
	for _, c := range loadFcluster(t) {
		for name, fm := range c.Methods {
			tr := treeFromZ(t, fm.Z)
			where := c.Name + "/" + name
			md := tr.MaxDists()
			for i := range md {
				if md[i] != fm.Maxdists[i] {
					t.Fatalf("%s: MaxDists[%d] = %v, scipy %v", where, i, md[i], fm.Maxdists[i])
				}
			}
			for ds, want := range fm.R {
				d, _ := strconv.Atoi(ds)
				got := tr.Inconsistency(d)
				for i, w := range want {
					g := got[i]
					if !closeRel(g.Mean, w[0]) || !closeRel(g.Std, w[1]) || float64(g.Count) != w[2] || !closeRel(g.Coeff, w[3]) {
						t.Fatalf("%s: Inconsistency(%d)[%d] = %+v, scipy %v", where, d, i, g, w)
					}
				}
			}
			mi := tr.MaxInconsistency(tr.Inconsistency(2))
			for i := range mi {
				if !closeRel(mi[i], fm.Maxinconsts2[i]) {
					t.Fatalf("%s: MaxInconsistency[%d] = %v, scipy %v", where, i, mi[i], fm.Maxinconsts2[i])
				}
			}
			for k := 1; k <= c.N; k++ {
				want := fm.Maxclust[k-1]
				got, err := tr.Cut(Cut{Criterion: MaxClust, K: k})
				if err != nil {
					t.Fatal(err)
				}
				if !equalInts(got, canon(want)) {
					t.Fatalf("%s: maxclust %d: got %v, scipy %v", where, k, got, canon(want))
				}
				if nclusters(want) < k {
					ties++
				}
				for ds, all := range fm.MaxclustMonocrit {
					d, _ := strconv.Atoi(ds)
					got, err := tr.Cut(Cut{Criterion: MaxClustMonocrit, K: k, Depth: d})
					if err != nil {
						t.Fatal(err)
					}
					if !equalInts(got, canon(all[k-1])) {
						t.Fatalf("%s: maxclust_monocrit %d depth %d: got %v, scipy %v", where, k, d, got, canon(all[k-1]))
					}
				}
			}
			hs, wants := thresholdCuts(t, fm.Distance)
			for i, h := range hs {
				got, err := tr.Cut(Cut{Criterion: Distance, T: h})
				if err != nil {
					t.Fatal(err)
				}
				if !equalInts(got, canon(wants[i])) {
					t.Fatalf("%s: distance %v: got %v, scipy %v", where, h, got, canon(wants[i]))
				}
			}
			for ds, raw := range fm.Inconsistent {
				d, _ := strconv.Atoi(ds)
				ts, wants := thresholdCuts(t, raw)
				for i, th := range ts {
					got, err := tr.Cut(Cut{Criterion: Inconsistent, T: th, Depth: d})
					if err != nil {
						t.Fatal(err)
					}
					if !equalInts(got, canon(wants[i])) {
						t.Fatalf("%s: inconsistent %v depth %d: got %v, scipy %v", where, th, d, got, canon(wants[i]))
					}
				}
			}
			ts, wants := thresholdCuts(t, fm.Monocrit)
			for i, th := range ts {
				got, err := tr.Cut(Cut{Criterion: Monocrit, T: th})
				if err != nil {
					t.Fatal(err)
				}
				if !equalInts(got, canon(wants[i])) {
					t.Fatalf("%s: monocrit %v: got %v, scipy %v", where, th, got, canon(wants[i]))
				}
			}
		}
	}
	// the fixtures must exercise the case CutK and maxclust differ on
	if ties == 0 {
		t.Fatal("no fixture cut has tied heights: maxclust never gave fewer than k clusters")
	}
}

func TestCutErrors(t *testing.T) {
	tr := treeFromZ(t, [][4]float64{{0, 1, 1, 2}, {2, 3, 2, 3}})
	for _, c := range []Cut{
		{Criterion: MaxClust, K: 0},
		{Criterion: MaxClust, K: 4},
		{Criterion: NClusters, K: -1},
		{Criterion: MaxClustMonocrit, K: 9},
	} {
		if _, err := tr.Cut(c); !errors.Is(err, ErrK) {
			t.Errorf("%+v: err %v, want ErrK", c, err)
		}
	}
	if _, err := tr.Cut(Cut{Criterion: Distance, T: math.NaN()}); err == nil {
		t.Error("NaN threshold accepted")
	}
	if _, err := tr.Cut(Cut{Criterion: Inconsistent, T: 1, Depth: -1}); err == nil {
		t.Error("negative depth accepted")
	}
	if _, err := ParseCriterion("maxclusts"); !errors.Is(err, ErrCriterion) {
		t.Errorf("unknown name: err %v", err)
	}
	for i := range criterionNames {
		c, err := ParseCriterion(Criterion(i).String())
		if err != nil || c != Criterion(i) {
			t.Errorf("round trip of %v: %v, %v", Criterion(i), c, err)
		}
	}
}
