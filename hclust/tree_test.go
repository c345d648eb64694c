package hclust

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// lcaHeight is the height of the lowest common ancestor of leaves i and j,
// found the slow way (parent pointers), as an independent reference.
func lcaHeight(t *Tree, i, j int) float64 {
	n := t.N
	parent := make([]int, 2*n-1)
	parent[2*n-2] = -1
	for k, m := range t.Merges {
		parent[m.A], parent[m.B] = n+k, n+k
	}
	anc := map[int]bool{}
	for v := i; v >= 0; v = parent[v] {
		anc[v] = true
	}
	v := j
	for !anc[v] {
		v = parent[v]
	}
	if v < n {
		return 0
	}
	return t.Merges[v-n].Height
}

func TestUltrametricInvariants(t *testing.T) {
	ctx := context.Background()
	x := benchPoints(90, 3, 7)
	for _, m := range Methods() {
		tr, err := FromPoints(ctx, x, m)
		if err != nil {
			t.Fatal(err)
		}
		n := tr.N
		M := tr.Ultrametric(nil)
		c := tr.Cophenetic()
		raw := M.RawSymmetric()
		for i := 0; i < n; i++ {
			if M.At(i, i) != 0 {
				t.Fatalf("%v: M[%d,%d] = %v", m, i, i, M.At(i, i))
			}
			for j := 0; j < n; j++ {
				// both triangles of the storage are filled
				if raw.Data[i*raw.Stride+j] != raw.Data[j*raw.Stride+i] {
					t.Fatalf("%v: storage not symmetric at (%d,%d)", m, i, j)
				}
				if i == j {
					continue
				}
				if got, want := M.At(i, j), lcaHeight(tr, i, j); got != want {
					t.Fatalf("%v: M[%d,%d] = %v, LCA height %v", m, i, j, got, want)
				}
				if M.At(i, j) != c.At(i, j) {
					t.Fatalf("%v: Ultrametric and Cophenetic differ at (%d,%d)", m, i, j)
				}
			}
		}
		if m == Centroid || m == Median {
			continue // inversions: M need not be ultrametric
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				for k := 0; k < n; k++ {
					if M.At(i, j) > math.Max(M.At(i, k), M.At(j, k)) {
						t.Fatalf("%v: M[%d,%d] = %v > max(M[%d,%d], M[%d,%d])", m, i, j, M.At(i, j), i, k, j, k)
					}
				}
			}
		}
		for k := 1; k < len(tr.Merges); k++ {
			if tr.Merges[k].Height < tr.Merges[k-1].Height {
				t.Fatalf("%v: heights not sorted at row %d", m, k)
			}
		}
	}
}

// Results must be bit-identical whatever the number of threads.
func TestGOMAXPROCSInvariance(t *testing.T) {
	ctx := context.Background()
	x := benchPoints(1100, 5, 3)
	d := pdist(x)
	run := func() (trees []*Tree, ms []*mat.SymDense, cs []distance.Condensed) {
		for _, m := range Methods() {
			tr, err := Linkage(ctx, d, m)
			if err != nil {
				t.Fatal(err)
			}
			tp, err := FromPoints(ctx, x, m)
			if err != nil {
				t.Fatal(err)
			}
			trees = append(trees, tr, tp)
			ms = append(ms, tr.Ultrametric(nil))
			cs = append(cs, tr.Cophenetic())
		}
		return
	}
	old := runtime.GOMAXPROCS(1)
	t1, m1, c1 := run()
	runtime.GOMAXPROCS(2)
	t2, m2, c2 := run()
	runtime.GOMAXPROCS(old)
	for i := range t1 {
		for k := range t1[i].Merges {
			if t1[i].Merges[k] != t2[i].Merges[k] {
				t.Fatalf("tree %d row %d: %v (1 thread) vs %v (2 threads)", i, k, t1[i].Merges[k], t2[i].Merges[k])
			}
		}
	}
	for i := range m1 {
		if !mat.Equal(m1[i], m2[i]) {
			t.Fatalf("ultrametric %d differs between 1 and 2 threads", i)
		}
		for k := range c1[i].Data {
			if c1[i].Data[k] != c2[i].Data[k] {
				t.Fatalf("cophenetic %d differs at %d", i, k)
			}
		}
	}
	// Linkage and FromPoints agree (same distances, same algorithm)
	for i := 0; i < len(t1); i += 2 {
		for k := range t1[i].Merges {
			if t1[i].Merges[k] != t1[i+1].Merges[k] {
				t.Fatalf("%v: Linkage and FromPoints differ at row %d", Methods()[i/2], k)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good := distance.Condensed{N: 3, Data: []float64{1, 2, 3}}
	nan := distance.Condensed{N: 3, Data: []float64{1, math.NaN(), 3}}
	inf := distance.Condensed{N: 3, Data: []float64{1, 2, math.Inf(1)}}
	neg := distance.Condensed{N: 3, Data: []float64{1, -2, 3}}
	short := distance.Condensed{N: 4, Data: []float64{1, 2, 3}}
	one := distance.Condensed{N: 1, Data: nil}
	zero := distance.Condensed{}
	cases := []struct {
		name string
		d    distance.Condensed
		m    Method
		want error
	}{
		{"nan", nan, Average, ErrNonFinite},
		{"inf", inf, Single, ErrNonFinite},
		{"negative", neg, Complete, ErrNegative},
		{"negative-single", neg, Single, ErrNegative},
		{"short", short, Average, ErrShape},
		{"one", one, Average, ErrTooFewRows},
		{"zero", zero, Ward, ErrTooFewRows},
		{"method", good, Method(42), ErrMethod},
		{"method-neg", good, Method(-1), ErrMethod},
	}
	for _, c := range cases {
		for _, m := range []Method{c.m, Centroid, Ward} {
			if c.want == ErrMethod && m != c.m {
				continue
			}
			_, err := Linkage(ctx, c.d, m)
			if !errors.Is(err, c.want) {
				t.Errorf("%s/%v: err = %v, want %v", c.name, m, err, c.want)
			}
		}
	}
	if _, err := Linkage(ctx, nan, Average); err == nil || !strings.Contains(err.Error(), "(0, 2)") {
		t.Errorf("error does not name the pair: %v", err)
	}
	x := mat.NewDense(3, 2, []float64{0, 0, 1, math.NaN(), 2, 2})
	for _, m := range Methods() {
		if _, err := FromPoints(ctx, x, m); !errors.Is(err, ErrNonFinite) {
			t.Errorf("FromPoints NaN %v: %v", m, err)
		}
	}
	if _, err := FromPoints(ctx, mat.NewDense(1, 2, nil), Average); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("FromPoints one point: %v", err)
	}
	if _, err := FromPoints(ctx, nil, Average); !errors.Is(err, ErrShape) {
		t.Errorf("FromPoints nil: %v", err)
	}
	// huge but finite coordinates: distances overflow
	big := mat.NewDense(3, 1, []float64{-1e308, 1e308, 0})
	for _, m := range Methods() {
		if _, err := FromPoints(ctx, big, m); !errors.Is(err, ErrNonFinite) {
			t.Errorf("FromPoints overflow %v: %v", m, err)
		}
	}
	tr, err := Linkage(ctx, good, Average)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, -1, 4} {
		if _, err := tr.CutK(k); !errors.Is(err, ErrK) {
			t.Errorf("CutK(%d): %v", k, err)
		}
	}
	if _, err := ParseMethod("upgmx"); !errors.Is(err, ErrMethod) {
		t.Errorf("ParseMethod: %v", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := pdist(benchPoints(600, 2, 1))
	for _, m := range Methods() {
		if _, err := Linkage(ctx, d, m); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: %v", m, err)
		}
	}
}

func TestParseMethod(t *testing.T) {
	for _, m := range Methods() {
		got, err := ParseMethod(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v", m.String(), got, err)
		}
	}
	for s, want := range map[string]Method{"upgma": Average, "wpgma": Weighted, "upgmc": Centroid, "wpgmc": Median} {
		if got, err := ParseMethod(s); err != nil || got != want {
			t.Errorf("ParseMethod(%q) = %v, %v", s, got, err)
		}
	}
	if Method(9).String() != "Method(9)" {
		t.Error(Method(9).String())
	}
}

// Five points on a line: 0, 1, 3, 7, 15 (single linkage merges them in
// order at heights 1, 2, 4, 8).
func lineTree(t *testing.T, m Method) *Tree {
	t.Helper()
	x := mat.NewDense(5, 1, []float64{0, 1, 3, 7, 15})
	tr, err := FromPoints(context.Background(), x, m)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestSmallTree(t *testing.T) {
	tr := lineTree(t, Single)
	want := []Merge{{0, 1, 1, 2}, {2, 5, 2, 3}, {3, 6, 4, 4}, {4, 7, 8, 5}}
	for k, m := range tr.Merges {
		if m != want[k] {
			t.Fatalf("merge %d = %v, want %v", k, m, want[k])
		}
	}
	if got := tr.Newick(nil); got != "(4:8,(3:4,(2:2,(0:1,1:1):1):2):4);" {
		t.Errorf("Newick = %s", got)
	}
	names := []string{"a", "b c", "it's", "", "e"}
	if got := tr.Newick(names); got != "(e:8,(3:4,('it''s':2,(a:1,'b c':1):1):2):4);" {
		t.Errorf("Newick(names) = %s", got)
	}
	if got := tr.Leaves(); !equalInts(got, []int{4, 3, 2, 0, 1}) {
		t.Errorf("Leaves = %v", got)
	}
	cut := func(k int) []int {
		l, err := tr.CutK(k)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for k, want := range map[int][]int{1: {0, 0, 0, 0, 0}, 2: {0, 0, 0, 0, 1}, 3: {0, 0, 0, 1, 2}, 5: {0, 1, 2, 3, 4}} {
		if got := cut(k); !equalInts(got, want) {
			t.Errorf("CutK(%d) = %v, want %v", k, got, want)
		}
	}
	for h, want := range map[float64][]int{0.5: {0, 1, 2, 3, 4}, 1: {0, 0, 1, 2, 3}, 3.9: {0, 0, 0, 1, 2}, 8: {0, 0, 0, 0, 0}} {
		if got := tr.CutHeight(h); !equalInts(got, want) {
			t.Errorf("CutHeight(%v) = %v, want %v", h, got, want)
		}
	}
	if got := tr.CutHeight(math.NaN()); !equalInts(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("CutHeight(NaN) = %v", got)
	}
	back, err := FromMatrix(tr.Matrix())
	if err != nil {
		t.Fatal(err)
	}
	for k := range tr.Merges {
		if back.Merges[k] != tr.Merges[k] {
			t.Fatalf("FromMatrix(Matrix()) row %d = %v", k, back.Merges[k])
		}
	}
}

func TestFromMatrixErrors(t *testing.T) {
	bad := [][]float64{
		{0, 0, 1, 2, 2, 3, 2, 3},   // A == B
		{0, 1, 1, 2, 0, 2, 2, 3},   // leaf 0 merged twice
		{0, 1, 1, 2, 2, 3, 2, 4},   // size mismatch
		{0, 1, -1, 2, 2, 3, 2, 3},  // negative height
		{0, 1, 1, 2, 2, 5, 2, 3},   // id from the future
		{0, 1.5, 1, 2, 2, 3, 2, 3}, // not an integer
	}
	for i, z := range bad {
		if _, err := FromMatrix(mat.NewDense(2, 4, z)); !errors.Is(err, ErrTree) {
			t.Errorf("case %d: %v", i, err)
		}
	}
	if _, err := FromMatrix(mat.NewDense(2, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("shape: %v", err)
	}
	if err := (&Tree{N: 1}).Validate(); !errors.Is(err, ErrTree) {
		t.Errorf("N=1: %v", err)
	}
}

// SLINK (the fast path of single linkage) and Prim (SciPy's algorithm) must
// give the same tree when no heights tie.
func TestSlinkMatchesPrim(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{2, 3, 17, 400, 1500} {
		d := pdist(benchPoints(n, 4, uint64(n)))
		raw, ok, err := slinkCondensed(ctx, d.Data, n)
		if err != nil || !ok {
			t.Fatal(err, ok)
		}
		sortRaw(raw)
		if hasTies(raw) {
			t.Fatalf("n=%d: random data has tied heights", n)
		}
		fast := label(n, raw)
		low, _ := transposeCondensed(d.Data, n)
		praw, err := primCondensed(ctx, d.Data, low, n)
		if err != nil {
			t.Fatal(err)
		}
		slow := relabel(n, praw)
		for k := range fast.Merges {
			if fast.Merges[k] != slow.Merges[k] {
				t.Fatalf("n=%d row %d: SLINK %v, Prim %v", n, k, fast.Merges[k], slow.Merges[k])
			}
		}
	}
}
