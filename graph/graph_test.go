package graph

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

type fixtureCase struct {
	Name       string
	X          [][]float64
	Kind       string
	Param      float64
	Edges      [][3]float64
	Components int
	Joins      int
	G          [][]float64
}

func loadFixtures(t testing.TB) []fixtureCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []fixtureCase }
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

func (c fixtureCase) spec() Spec {
	if c.Kind == KindKNN {
		return Spec{Kind: KindKNN, K: int(c.Param)}
	}
	return Spec{Kind: KindEps, Eps: c.Param}
}

func randDense(n, d int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, r.Float64())
		}
	}
	return X
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
	}{
		{"knn:7", Spec{Kind: KindKNN, K: 7}},
		{" KNN : 1 ", Spec{Kind: KindKNN, K: 1}},
		{"eps:0.5", Spec{Kind: KindEps, Eps: 0.5}},
		{"eps:1e-3", Spec{Kind: KindEps, Eps: 1e-3}},
	} {
		got, err := ParseSpec(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if back, err := ParseSpec(got.String()); err != nil || back != got {
			t.Errorf("round trip of %q: %+v %v", tc.in, back, err)
		}
	}
	for _, tc := range []struct {
		in   string
		want error
	}{
		{"knn:0", ErrK}, {"knn:-3", ErrK}, {"knn:x", ErrSpec}, {"knn:2.5", ErrSpec},
		{"eps:0", ErrEps}, {"eps:-1", ErrEps}, {"eps:NaN", ErrEps}, {"eps:Inf", ErrEps},
		{"eps:abc", ErrSpec}, {"knn", ErrSpec}, {"knn:", ErrSpec}, {"", ErrSpec}, {"mst:3", ErrSpec},
	} {
		_, err := ParseSpec(tc.in)
		if !errors.Is(err, tc.want) || !errors.Is(err, ErrSpec) {
			t.Errorf("ParseSpec(%q) error %v, want %v", tc.in, err, tc.want)
		}
	}
}

// TestGraphsMatchSklearn checks the symmetrised neighbourhood graphs edge
// by edge against sklearn's kneighbors_graph / radius_neighbors_graph.
// Lengths: exact differences on both sides (sklearn's kd-tree for d <= 15);
// the d = 20 case uses sklearn's brute force with the Gram trick, hence the
// 1e-12 relative tolerance.
func TestGraphsMatchSklearn(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadFixtures(t) {
		g, err := Build(ctx, dense(c.X), c.spec())
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got := g.EdgeList()
		if len(got) != len(c.Edges) || g.Edges() != len(c.Edges) {
			t.Fatalf("%s: %d edges, sklearn %d", c.Name, len(got), len(c.Edges))
		}
		for k, e := range c.Edges {
			ge := got[k]
			if ge.I != int(e[0]) || ge.J != int(e[1]) || math.Abs(ge.W-e[2]) > 1e-12*e[2] {
				t.Fatalf("%s: edge %d = %+v, sklearn %v", c.Name, k, ge, e)
			}
			if w, ok := g.Weight(ge.J, ge.I); !ok || w != ge.W {
				t.Fatalf("%s: edge %d not symmetric", c.Name, k)
			}
		}
		if n, _ := g.Components(); n != c.Components {
			t.Errorf("%s: %d components, scipy %d", c.Name, n, c.Components)
		}
	}
}

// TestGeodesicMatchesPeers compares G and the join count with
// peers.knn_geodesic (and its eps-graph twin) to 1e-9 relative (the
// fixtures' tolerance); in practice they agree to the last bit.
func TestGeodesicMatchesPeers(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadFixtures(t) {
		res, err := Geodesic(ctx, dense(c.X), c.spec())
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if res.Joins != c.Joins || res.Components != c.Components || len(res.JoinEdges) != c.Joins {
			t.Errorf("%s: joins %d components %d; peers %d %d", c.Name, res.Joins, res.Components, c.Joins, c.Components)
		}
		n := len(c.X)
		exact, worst := 0, 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				got, want := res.G.At(i, j), c.G[i][j]
				rel := math.Abs(got-want) / math.Max(math.Abs(want), 1e-300)
				if got == want {
					exact++
				} else {
					worst = max(worst, rel)
				}
				if rel > 1e-9 {
					t.Fatalf("%s: G[%d,%d] = %v, peers %v", c.Name, i, j, got, want)
				}
			}
		}
		t.Logf("%s: %d joins, %d/%d entries bit-identical, worst rel diff %.3g", c.Name, res.Joins, exact, n*n, worst)
		// Exact: every entry bit-identical, except where sklearn's brute
		// force (d > 15) uses Gram-trick edge lengths.
		if len(c.X[0]) > 15 {
			continue
		}
		ex, err := Geodesics{Spec: c.spec(), Exact: true}.Compute(ctx, dense(c.X))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if ex.G.At(i, j) != c.G[i][j] {
					t.Fatalf("%s exact: G[%d,%d] = %v, peers %v", c.Name, i, j, ex.G.At(i, j), c.G[i][j])
				}
			}
		}
	}
}

func checkGeodesicInvariants(t *testing.T, name string, X *mat.Dense, res GeodesicResult) {
	t.Helper()
	n, _ := X.Dims()
	G := res.G
	_, comp := res.Graph.Components()
	E, err := distance.Euclidean(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if G.At(i, i) != 0 {
			t.Fatalf("%s: G[%d,%d] = %v", name, i, i, G.At(i, i))
		}
		for j := 0; j < n; j++ {
			gij := G.At(i, j)
			raw := G.RawSymmetric()
			if raw.Data[i*raw.Stride+j] != raw.Data[j*raw.Stride+i] {
				t.Fatalf("%s: G not symmetric at %d,%d", name, i, j)
			}
			if math.IsInf(gij, 0) || math.IsNaN(gij) {
				t.Fatalf("%s: G[%d,%d] = %v after joining", name, i, j, gij)
			}
			// A path of graph edges is never shorter than the straight line
			// (join edges are not Euclidean, so only within a component).
			if i != j && comp[i] == comp[j] && gij < E.At(i, j)*(1-1e-12) {
				t.Fatalf("%s: G[%d,%d] = %v < Euclidean %v", name, i, j, gij, E.At(i, j))
			}
			for k := 0; k < n; k += 3 {
				if gij > (G.At(i, k)+G.At(k, j))*(1+1e-12) {
					t.Fatalf("%s: triangle inequality fails at %d,%d,%d", name, i, j, k)
				}
			}
		}
		// G is bounded by the direct edge.
		nodes, lengths := res.Graph.Neighbors(i)
		for p, j := range nodes {
			if G.At(i, int(j)) > lengths[p]*(1+1e-12) {
				t.Fatalf("%s: G[%d,%d] = %v > edge %v", name, i, j, G.At(i, int(j)), lengths[p])
			}
		}
	}
	for _, e := range res.JoinEdges {
		if G.At(e.I, e.J) > e.W*(1+1e-12) {
			t.Fatalf("%s: join edge %+v longer than G %v", name, e, G.At(e.I, e.J))
		}
	}
}

func TestGeodesicInvariants(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadFixtures(t) {
		X := dense(c.X)
		for _, scale := range []string{JoinEuclidean, JoinGraph} {
			res, err := Geodesics{Spec: c.spec(), JoinScale: scale}.Compute(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			checkGeodesicInvariants(t, c.Name+"/"+scale, X, res)
		}
	}
	// Duplicated points: zero lengths become MinLength edges, not "no edge".
	X := mat.NewDense(6, 2, []float64{0, 0, 0, 0, 1, 0, 1, 0, 5, 5, 5, 5})
	res, err := Geodesic(ctx, X, Spec{Kind: KindKNN, K: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := res.Graph.Weight(0, 1); !ok || w != MinLength {
		t.Errorf("duplicate edge 0-1: %v %v, want %v", w, ok, MinLength)
	}
	if res.Components != 3 || res.Joins != 2 {
		t.Errorf("duplicates: %d components %d joins, want 3, 2", res.Components, res.Joins)
	}
	checkGeodesicInvariants(t, "duplicates", X, res)
}

func TestShortestPathsDisconnected(t *testing.T) {
	g, err := New(5, []Edge{{0, 1, 1}, {1, 2, 2}, {0, 2, 4}, {3, 4, 0.5}, {4, 3, 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	if g.Edges() != 4 {
		t.Fatalf("edges %d, want 4 (duplicate 3-4 merged)", g.Edges())
	}
	if w, _ := g.Weight(4, 3); w != 0.5 {
		t.Fatalf("duplicate edge kept %v, want max 0.5", w)
	}
	G, err := ShortestPaths(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	want := [][]float64{
		{0, 1, 3, inf, inf},
		{1, 0, 2, inf, inf},
		{3, 2, 0, inf, inf},
		{inf, inf, inf, 0, 0.5},
		{inf, inf, inf, 0.5, 0},
	}
	for i := range want {
		for j := range want[i] {
			if G.At(i, j) != want[i][j] {
				t.Errorf("G[%d,%d] = %v, want %v", i, j, G.At(i, j), want[i][j])
			}
		}
	}
	n, comp := g.Components()
	if n != 2 || comp[0] != 0 || comp[2] != 0 || comp[3] != 1 || comp[4] != 1 {
		t.Errorf("components %d %v", n, comp)
	}
}

func TestGOMAXPROCS(t *testing.T) {
	ctx := context.Background()
	// Four separated clouds: joins happen.
	X := randDense(400, 3, 5)
	for i := 0; i < 400; i++ {
		X.Set(i, 0, X.At(i, 0)+float64(i%4)*3)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref GeodesicResult
	for _, p := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(p)
		res, err := Geodesic(ctx, X, Spec{Kind: KindKNN, K: 3})
		if err != nil {
			t.Fatal(err)
		}
		if p == 1 {
			ref = res
			if res.Joins == 0 {
				t.Fatal("test data should be disconnected")
			}
			continue
		}
		if res.Joins != ref.Joins {
			t.Fatalf("GOMAXPROCS=%d: joins %d vs %d", p, res.Joins, ref.Joins)
		}
		a, b := res.G.RawSymmetric().Data, ref.G.RawSymmetric().Data
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("GOMAXPROCS=%d: G differs at %d", p, k)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	X := randDense(10, 2, 1)
	nan := mat.DenseCopyOf(X)
	nan.Set(4, 1, math.NaN())
	one := mat.NewDense(1, 3, nil)
	for _, tc := range []struct {
		name string
		X    mat.Matrix
		s    Spec
		want error
	}{
		{"k=0", X, Spec{Kind: KindKNN, K: 0}, ErrK},
		{"k<0", X, Spec{Kind: KindKNN, K: -1}, ErrK},
		{"k=N", X, Spec{Kind: KindKNN, K: 10}, ErrK},
		{"k>N", X, Spec{Kind: KindKNN, K: 11}, ErrK},
		{"eps=0", X, Spec{Kind: KindEps, Eps: 0}, ErrEps},
		{"eps<0", X, Spec{Kind: KindEps, Eps: -2}, ErrEps},
		{"eps NaN", X, Spec{Kind: KindEps, Eps: math.NaN()}, ErrEps},
		{"kind", X, Spec{Kind: "mst", K: 2}, ErrSpec},
		{"nan knn", nan, Spec{Kind: KindKNN, K: 2}, distance.ErrNonFinite},
		{"nan eps", nan, Spec{Kind: KindEps, Eps: 1}, distance.ErrNonFinite},
		{"one point knn", one, Spec{Kind: KindKNN, K: 1}, ErrTooFewRows},
		{"one point eps", one, Spec{Kind: KindEps, Eps: 1}, ErrTooFewRows},
		{"nil", nil, Spec{Kind: KindKNN, K: 1}, distance.ErrEmpty},
		{"overflow", mat.NewDense(3, 1, []float64{-1e300, 1e300, 3e300}), Spec{Kind: KindKNN, K: 1}, distance.ErrNonFinite},
	} {
		if _, err := Build(ctx, tc.X, tc.s); !errors.Is(err, tc.want) {
			t.Errorf("%s: Build error %v, want %v", tc.name, err, tc.want)
		}
		if _, err := Geodesic(ctx, tc.X, tc.s); !errors.Is(err, tc.want) {
			t.Errorf("%s: Geodesic error %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := KNN(ctx, X, 10); err == nil || !strings.Contains(err.Error(), "k = 10, want k < N = 10") {
		t.Errorf("k>=N message: %v", err)
	}
	if _, err := (Geodesics{Spec: Spec{Kind: KindKNN, K: 2}, JoinScale: "manhattan"}).Compute(ctx, X); !errors.Is(err, ErrSpec) {
		t.Errorf("join scale: %v", err)
	}
	for _, e := range [][]Edge{{{0, 5, 1}}, {{1, 1, 1}}, {{0, 1, 0}}, {{0, 1, math.Inf(1)}}, {{-1, 0, 1}}} {
		if _, err := New(3, e); !errors.Is(err, ErrEdge) {
			t.Errorf("New(%v): %v", e, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Geodesic(cctx, randDense(200, 2, 3), Spec{Kind: KindKNN, K: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	g, _ := KNN(ctx, X, 2)
	if _, err := ShortestPaths(cctx, g); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled ShortestPaths: %v", err)
	}
}

func TestProgress(t *testing.T) {
	X := randDense(120, 2, 9)
	for i := 0; i < 60; i++ {
		X.Set(i, 0, X.At(i, 0)+10)
	}
	stages := map[string][2]int{}
	res, err := Geodesics{Spec: Spec{Kind: KindKNN, K: 2}, Progress: func(s string, done, total int) {
		stages[s] = [2]int{max(stages[s][0], done), total}
	}}.Compute(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	if stages["graph"] != [2]int{1, 1} || stages["paths"] != [2]int{120, 120} ||
		stages["join"] != [2]int{res.Joins, res.Joins} || res.Joins == 0 {
		t.Errorf("progress %v, joins %d", stages, res.Joins)
	}
}

func benchSizes() []int {
	if testing.Short() {
		return []int{2000}
	}
	return []int{2000, 8000}
}

func BenchmarkKNN(b *testing.B) {
	for _, n := range benchSizes() {
		X := randDense(n, 10, 0)
		b.Run("n="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := KNN(context.Background(), X, 7); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkShortestPaths(b *testing.B) {
	for _, n := range benchSizes() {
		g, err := KNN(context.Background(), randDense(n, 10, 0), 7)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("n="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ShortestPaths(context.Background(), g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkShortestPathsExact(b *testing.B) {
	g, err := KNN(context.Background(), randDense(2000, 10, 0), 7)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("n=2000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ShortestPathsExact(context.Background(), g); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkGeodesic times the 7-NN graph + all-pairs shortest
// paths on uniform random data, d = 10 (compare graph/testdata/peer_time.py).
func BenchmarkGeodesic(b *testing.B) {
	for _, n := range benchSizes() {
		X := randDense(n, 10, 0)
		b.Run("n="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Geodesic(context.Background(), X, Spec{Kind: KindKNN, K: 7}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// naiveKNN is the specification of KNN's neighbour choice: sort all points
// by (squared distance, index), keep the first k+1, drop the query itself
// or, if it is not among them, the first (sklearn's kneighbors(X=None)).
func naiveKNN(X *mat.Dense, k int) map[[2]int]float64 {
	n, _ := X.Dims()
	edges := map[[2]int]float64{}
	for i := 0; i < n; i++ {
		idx := make([]int, n)
		d2 := make([]float64, n)
		for j := range idx {
			idx[j] = j
			d2[j] = distance.SqDist(X.RawRowView(i), X.RawRowView(j))
		}
		sort.SliceStable(idx, func(a, b int) bool { return d2[idx[a]] < d2[idx[b]] })
		top := idx[:k+1]
		drop := 0
		for p, j := range top {
			if j == i {
				drop = p
				break
			}
		}
		for p, j := range top {
			if p == drop {
				continue
			}
			a, b := min(i, j), max(i, j)
			edges[[2]int{a, b}] = max(math.Sqrt(d2[j]), MinLength)
		}
	}
	return edges
}

// TestKNNTies checks neighbour selection with many exact ties and
// duplicates (points on a small integer grid, some repeated) against the
// sort-based specification.
func TestKNNTies(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	for _, d := range []int{1, 2, 3, 12} {
		X := mat.NewDense(97, d, nil)
		for i := 0; i < 97; i++ {
			for j := 0; j < d; j++ {
				X.Set(i, j, float64(r.IntN(4)))
			}
		}
		for _, k := range []int{1, 3, 7, 20} {
			g, err := KNN(context.Background(), X, k)
			if err != nil {
				t.Fatal(err)
			}
			want := naiveKNN(X, k)
			got := g.EdgeList()
			if len(got) != len(want) {
				t.Fatalf("d=%d k=%d: %d edges, want %d", d, k, len(got), len(want))
			}
			for _, e := range got {
				if w, ok := want[[2]int{e.I, e.J}]; !ok || w != e.W {
					t.Fatalf("d=%d k=%d: edge %+v, want %v %v", d, k, e, w, ok)
				}
			}
		}
	}
}

// TestSearchesAgree checks that the bucket search, the radix-heap Dijkstra
// and the fallback between them give bit-identical rows, on graphs with
// narrow and very wide edge-length spreads, duplicates, and long paths
// (many trips round the cyclic bucket array).
func TestSearchesAgree(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(4, 4))
	var graphs []*Graph
	for _, c := range loadFixtures(t) {
		g, err := Build(ctx, dense(c.X), c.spec())
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, g)
	}
	X := randDense(300, 2, 8)
	for i := 0; i < 300; i += 3 {
		X.Set(i, 0, X.At(i, 0)*1e-3)
		X.Set(i+1, 1, X.At(i, 1)) // near-duplicates
	}
	g, _ := KNN(ctx, X, 4)
	graphs = append(graphs, g)
	var chain []Edge
	for i := 0; i < 999; i++ {
		chain = append(chain, Edge{i, i + 1, math.Exp(r.NormFloat64() * 3)})
	}
	for i := 0; i < 50; i++ {
		a, b := r.IntN(1000), r.IntN(1000)
		if a != b {
			chain = append(chain, Edge{a, b, 1e-12 + r.Float64()*100})
		}
	}
	g, err := New(1000, chain)
	if err != nil {
		t.Fatal(err)
	}
	graphs = append(graphs, g)
	for gi, g := range graphs {
		n := g.N()
		x := newSSSP(g, bucketWidth(g))
		var rh radixHeap
		d1, d2 := make([]float64, n), make([]float64, n)
		for s := 0; s < n; s += max(1, n/40) {
			rh.dijkstra(g, s, d1)
			if !x.bucket.dijkstra(g, s, d2, 10*n) {
				t.Fatalf("graph %d source %d: bucket search gave up", gi, s)
			}
			for i := range d1 {
				if d1[i] != d2[i] {
					t.Fatalf("graph %d source %d node %d: radix %v bucket %v", gi, s, i, d1[i], d2[i])
				}
			}
			// Forced fallback (limit 1): the radix result, same buffers.
			x.limit = 1
			x.run(s, d2)
			x.limit = 4*n + 64
			for i := range d1 {
				if d1[i] != d2[i] {
					t.Fatalf("graph %d source %d: fallback differs", gi, s)
				}
			}
		}
	}
}

// naiveJoin is peers.knn_geodesic's joining loop transcribed literally:
// full Euclidean matrix, row-major argmin over cross pairs, O(N²) per join.
func naiveJoin(X *mat.Dense, g *Graph, G0 *mat.SymDense) ([]float64, []Edge) {
	n := g.N()
	G := slices.Clone(G0.RawSymmetric().Data)
	_, comp := g.Components()
	E := make([]float64, n*n)
	dmax := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			E[i*n+j] = distance.Dist(X.RawRowView(i), X.RawRowView(j))
			dmax = max(dmax, E[i*n+j])
		}
	}
	var joins []Edge
	for {
		bi, bj := -1, -1
		for p := 0; p < n*n; p++ {
			i, j := p/n, p%n
			if comp[i] != comp[j] && (bi < 0 || E[p] < E[bi*n+bj]) {
				bi, bj = i, j
			}
		}
		if bi < 0 {
			return G, joins
		}
		gmax := 0.0
		for _, v := range G {
			if !math.IsInf(v, 1) {
				gmax = max(gmax, v)
			}
		}
		w := gmax + E[bi*n+bj]/dmax
		ci, cj := comp[bi], comp[bj]
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if comp[a] == ci && comp[b] == cj {
					v := G[a*n+bi] + w + G[bj*n+b]
					G[a*n+b], G[b*n+a] = v, v
				}
			}
		}
		for a := range comp {
			if comp[a] == cj {
				comp[a] = ci
			}
		}
		joins = append(joins, Edge{bi, bj, w})
	}
}

// TestJoinOrderTies checks the Prim/Kruskal join order against the literal
// peers loop on grid data with many exactly tied cross-component pairs.
func TestJoinOrderTies(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(21, 1))
	total := 0
	defer func() {
		if total < 20 {
			t.Errorf("only %d joins: the test data should need many", total)
		}
	}()
	for trial := 0; trial < 6; trial++ {
		n := 40 + 10*trial
		X := mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			X.Set(i, 0, float64(r.IntN(12))*1.5)
			X.Set(i, 1, float64(r.IntN(12)))
		}
		for _, s := range []Spec{{Kind: KindKNN, K: 1}, {Kind: KindKNN, K: 2}, {Kind: KindEps, Eps: 1.2}, {Kind: KindEps, Eps: 0.1}} {
			res, err := Geodesic(ctx, X, s)
			if err != nil {
				t.Fatal(err)
			}
			G0, _ := ShortestPaths(ctx, res.Graph)
			wantG, wantJ := naiveJoin(X, res.Graph, G0)
			total += len(wantJ)
			if len(wantJ) != res.Joins {
				t.Fatalf("trial %d %v: %d joins, literal loop %d", trial, s, res.Joins, len(wantJ))
			}
			for k, e := range wantJ {
				if res.JoinEdges[k] != e {
					t.Fatalf("trial %d %v: join %d = %+v, literal loop %+v", trial, s, k, res.JoinEdges[k], e)
				}
			}
			got := res.G.RawSymmetric().Data
			for p := range got {
				if got[p] != wantG[p] {
					t.Fatalf("trial %d %v: G differs at (%d,%d): %v vs %v", trial, s, p/n, p%n, got[p], wantG[p])
				}
			}
		}
	}
}

// TestIsolatedPoints: an eps graph without edges still yields finite
// geodesics with N−1 joins, for both join scales.
func TestIsolatedPoints(t *testing.T) {
	X := mat.NewDense(5, 1, []float64{0, 10, 30, 31.5, 60})
	for _, scale := range []string{JoinEuclidean, JoinGraph} {
		res, err := Geodesics{Spec: Spec{Kind: KindEps, Eps: 1}, JoinScale: scale}.Compute(context.Background(), X)
		if err != nil {
			t.Fatal(err)
		}
		if res.Components != 5 || res.Joins != 4 || res.Graph.Edges() != 0 {
			t.Fatalf("%s: components %d joins %d edges %d", scale, res.Components, res.Joins, res.Graph.Edges())
		}
		checkGeodesicInvariants(t, "isolated/"+scale, X, res)
		// First join: the closest pair 30–31.5 (rows 2, 3), L = 0 + 1.5/60
		// (Euclidean) or 0 + 1 (graph scale: no edges, ratio taken as 1).
		want := 1.5 / 60
		if scale == JoinGraph {
			want = 1
		}
		if e := res.JoinEdges[0]; e.I != 2 || e.J != 3 || e.W != want {
			t.Errorf("%s: first join %+v, want 2-3 length %v", scale, e, want)
		}
	}
}
