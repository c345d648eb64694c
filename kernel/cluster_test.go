package kernel_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

type clusterFixture struct {
	X                                     [][]float64
	Joins                                 int
	HckSingle, HckComplete, HckAverage    [][]float64
	HckgSingle, HckgComplete, HckgAverage [][]float64
	Isomap                                [][]float64
	IsomapNeg                             int `json:"isomap_neg"`
}

func (f *clusterFixture) want(graphVariant bool, m hclust.Method) [][]float64 {
	switch {
	case !graphVariant && m == hclust.Single:
		return f.HckSingle
	case !graphVariant && m == hclust.Complete:
		return f.HckComplete
	case !graphVariant && m == hclust.Average:
		return f.HckAverage
	case m == hclust.Single:
		return f.HckgSingle
	case m == hclust.Complete:
		return f.HckgComplete
	}
	return f.HckgAverage
}

// The JSON keys are hck_single etc.; map them by hand.
func loadCluster(t *testing.T, name string) *clusterFixture {
	var raw map[string]any
	loadFixture(t, name, &raw)
	conv := func(k string) [][]float64 {
		rows := raw[k].([]any)
		out := make([][]float64, len(rows))
		for i, r := range rows {
			for _, v := range r.([]any) {
				out[i] = append(out[i], v.(float64))
			}
		}
		return out
	}
	return &clusterFixture{
		X: conv("X"), Joins: int(raw["joins"].(float64)),
		HckSingle: conv("hck_single"), HckComplete: conv("hck_complete"), HckAverage: conv("hck_average"),
		HckgSingle: conv("hckg_single"), HckgComplete: conv("hckg_complete"), HckgAverage: conv("hckg_average"),
		Isomap: conv("isomap"), IsomapNeg: int(raw["isomap_neg_sig"].(float64)),
	}
}

// minEigRatio returns λ_min / λ_max of K.
func minEigRatio(t *testing.T, K mat.Symmetric) float64 {
	t.Helper()
	var es mat.EigenSym
	if !es.Factorize(K, false) {
		t.Fatal("eigendecomposition failed")
	}
	v := es.Values(nil)
	return v[0] / v[len(v)-1]
}

// TestClusterKernelsPeers compares HCK (three linkages, Euclidean and
// 7-NN graph distances) and ISOMAP with peers.py on 120 two-moons points
// and on 60 points in three separated blobs (a disconnected 7-NN graph,
// joined by Eq. 4). Tolerances: 1e-12 relative for HCK (same heights, only
// the centring sums differ in order), 1e-10 for ISOMAP (LAPACK vs gonum
// eigenvectors). Also checks Theorem 4 (K PSD: λ_min ≥ -1e-9·λ_max).
func TestClusterKernelsPeers(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"cluster_moons.json.gz", "cluster_blobs.json.gz"} {
		fx := loadCluster(t, name)
		X := dense(fx.X)
		for _, g := range []*graph.Spec{nil, {Kind: "knn", K: 7}} {
			for _, m := range []hclust.Method{hclust.Single, hclust.Complete, hclust.Average} {
				K, info, err := kernel.HCK{Method: m, Graph: g}.Gram(ctx, X)
				if err != nil {
					t.Fatalf("%s %v graph=%v: %v", name, m, g != nil, err)
				}
				if d := maxRelDiff(t, K, fx.want(g != nil, m)); d > 1e-12 {
					t.Errorf("%s hck %v graph=%v: max rel diff %.3g vs peers", name, m, g != nil, d)
				}
				if r := minEigRatio(t, K); r < -1e-9 {
					t.Errorf("%s hck %v graph=%v: not PSD, λmin/λmax = %v", name, m, g != nil, r)
				}
				rawFull(t, K)
				if info.Tree == nil || info.Tree.N != len(fx.X) {
					t.Errorf("%s: Info.Tree missing", name)
				}
				if g != nil && info.Joins != fx.Joins {
					t.Errorf("%s: Joins = %d, peers %d", name, info.Joins, fx.Joins)
				}
			}
		}
		K, info, err := kernel.ISOMAP{}.Gram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(t, K, fx.Isomap); d > 1e-10 {
			t.Errorf("%s isomap: max rel diff %.3g vs peers", name, d)
		}
		if info.Joins != fx.Joins || info.NegEigs != fx.IsomapNeg {
			t.Errorf("%s isomap: Joins %d NegEigs %d, peers %d %d", name, info.Joins, info.NegEigs, fx.Joins, fx.IsomapNeg)
		}
		if r := minEigRatio(t, K); r < -1e-9 {
			t.Errorf("%s isomap: not PSD after clipping, λmin/λmax = %v", name, r)
		}
		C, _, err := kernel.Connectivity{}.Gram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		if d := maxRelDiff(t, C, fx.HckSingle); d > 1e-12 {
			t.Errorf("%s connectivity: max rel diff %.3g vs single-linkage HCK", name, d)
		}
	}
}

// TestBuildAllShares: BuildAll gives the same matrices as the kernels one
// by one, for GOMAXPROCS 1 and 2, bit for bit.
func TestBuildAllShares(t *testing.T) {
	fx := loadCluster(t, "cluster_blobs.json.gz")
	X := dense(fx.X)
	ctx := context.Background()
	specs, err := kernel.ParseSpecs("linear,rbf:scale,hck:average,hckg:average,hck:complete,hckg:single:knn:5,isomap,connectivity,poly:1,1,2")
	if err != nil {
		t.Fatal(err)
	}
	var runs [2][]kernel.Built
	var stages []string
	for p := 1; p <= 2; p++ {
		old := runtime.GOMAXPROCS(p)
		runs[p-1], err = kernel.BuildAll(ctx, X, specs, kernel.BuildOptions{Progress: func(s string, d, n int) {
			if d == 0 && p == 1 {
				stages = append(stages, s)
			}
		}})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
	}
	// One pdist, two geodesic computations (knn:7 and knn:5).
	want := []string{"kernel", "pdist", "geodesic:knn:7", "geodesic:knn:5"}
	if len(stages) != len(want) {
		t.Errorf("progress stages %v, want %v", stages, want)
	}
	for i, b := range runs[0] {
		if !mat.Equal(b.K, runs[1][i].K) {
			t.Errorf("%v: differs between GOMAXPROCS 1 and 2", b.Spec)
		}
		var K *mat.SymDense
		switch b.Spec.Kind {
		case kernel.KindPoint:
			k := b.Spec.Point
			if b.Spec.Scale {
				k = kernel.RBF{Gamma: b.Gamma}
			}
			K, err = kernel.Gram(ctx, nil, k, X)
		case kernel.KindHCK:
			K, _, err = kernel.HCK{Method: b.Spec.Method, Graph: b.Spec.Graph}.Gram(ctx, X)
		case kernel.KindISOMAP:
			K, _, err = kernel.ISOMAP{Graph: *b.Spec.Graph}.Gram(ctx, X)
		case kernel.KindConnectivity:
			K, _, err = kernel.Connectivity{}.Gram(ctx, X)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(K, b.K) {
			t.Errorf("%v: BuildAll differs from the single kernel", b.Spec)
		}
	}
	// rbf:scale: 1/(d·Var X) over all entries of X (to rounding: the mean
	// is summed in another order).
	n, d := X.Dims()
	mean, ss := 0.0, 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			mean += X.At(i, j) / float64(n*d)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			ss += (X.At(i, j) - mean) * (X.At(i, j) - mean)
		}
	}
	if g, want := runs[0][1].Gamma, float64(n*d)/(float64(d)*ss); math.Abs(g-want) > 1e-12*want || g <= 0 {
		t.Errorf("rbf:scale gamma %v", g)
	}
}

func TestClusterKernelErrors(t *testing.T) {
	ctx := context.Background()
	X := randDense(10, 2, 1)
	nan := mat.DenseCopyOf(X)
	nan.Set(3, 1, math.NaN())
	if _, _, err := (kernel.HCK{Method: hclust.Average}).Gram(ctx, nan); !errors.Is(err, kernel.ErrNonFinite) {
		t.Errorf("NaN: %v", err)
	}
	if _, _, err := (kernel.HCK{Method: hclust.Centroid}).Gram(ctx, X); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("centroid: %v", err)
	}
	if _, _, err := (kernel.HCK{Method: hclust.Method(42)}).Gram(ctx, X); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("bad method: %v", err)
	}
	if _, _, err := (kernel.ISOMAP{}).Gram(ctx, randDense(1, 3, 1)); !errors.Is(err, kernel.ErrEmpty) {
		t.Errorf("one point: %v", err)
	}
	if _, _, err := (kernel.ISOMAP{Graph: graph.Spec{Kind: "knn", K: 10}}).Gram(ctx, X); err == nil {
		t.Error("k ≥ N accepted")
	}
	if _, _, err := (kernel.HCK{Method: hclust.Average, Graph: &graph.Spec{Kind: "eps", Eps: -1}}).Gram(ctx, X); !errors.Is(err, graph.ErrEps) {
		t.Errorf("eps < 0: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := (kernel.HCK{Method: hclust.Average}).Gram(cctx, X); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := kernel.BuildAll(ctx, X, []kernel.Spec{{Kind: "nope"}}, kernel.BuildOptions{}); !errors.Is(err, kernel.ErrUnknownKernel) {
		t.Errorf("BuildAll bad spec: %v", err)
	}
}

func TestParseSpec(t *testing.T) {
	good := map[string]string{
		"linear":              "linear",
		"LINEAR":              "linear",
		"poly:0.0041:1:3":     "poly:0.0041:1:3",
		"poly:1,1,2":          "poly:1:1:2",
		"rbf:0.5":             "rbf:0.5",
		"rbf:gamma=0.5":       "rbf:0.5",
		"rbf:sigma=2":         "rbf:0.125",
		"rbf":                 "rbf:scale",
		"rbf:scale":           "rbf:scale",
		"laplacian:0.3":       "laplacian:0.3",
		"exponential:2":       "exponential:2",
		"hck:average":         "hck:average",
		"hck:upgma":           "hck:average",
		"hckg:complete":       "hckg:complete:knn:7",
		"hckg:single:knn:10":  "hckg:single:knn:10",
		"hckg:average:eps:.5": "hckg:average:eps:0.5",
		"isomap":              "isomap:knn:7",
		"isomap:knn:5":        "isomap:knn:5",
		"connectivity":        "connectivity",
	}
	for in, want := range good {
		sp, err := kernel.ParseSpec(in)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", in, err)
			continue
		}
		if got := sp.String(); got != want {
			t.Errorf("ParseSpec(%q).String() = %q, want %q", in, got, want)
		}
		if sp2, err := kernel.ParseSpec(sp.String()); err != nil || sp2.String() != want {
			t.Errorf("round trip of %q: %v %v", want, sp2, err)
		}
	}
	bad := map[string]error{
		"":                  kernel.ErrUnknownKernel,
		"sigmoid":           kernel.ErrUnknownKernel,
		"linear:1":          kernel.ErrUnknownKernel,
		"poly:1:1":          kernel.ErrUnknownKernel,
		"poly:1:1:x":        kernel.ErrUnknownKernel,
		"poly:1:1:0":        kernel.ErrBadParam,
		"rbf:-1":            kernel.ErrBadParam,
		"rbf:abc":           kernel.ErrUnknownKernel,
		"rbf:sigma=0":       kernel.ErrBadParam,
		"laplacian":         kernel.ErrUnknownKernel,
		"hck":               kernel.ErrUnknownKernel,
		"hck:foo":           hclust.ErrMethod,
		"hck:median":        kernel.ErrBadParam,
		"hck:average:knn:7": kernel.ErrUnknownKernel,
		"hckg:average:knn":  kernel.ErrUnknownKernel,
		"hckg:average:x:1":  graph.ErrSpec,
		"isomap:knn:0":      graph.ErrSpec,
		"connectivity:1":    kernel.ErrUnknownKernel,
	}
	for in, want := range bad {
		if _, err := kernel.ParseSpec(in); !errors.Is(err, want) {
			t.Errorf("ParseSpec(%q): err = %v, want %v", in, err, want)
		}
	}
	specs, err := kernel.ParseSpecs("linear, hck:average,hckg:average,isomap,poly:0.5,1,3")
	if err != nil || len(specs) != 5 || specs[4].String() != "poly:0.5:1:3" {
		t.Errorf("ParseSpecs: %v %v", specs, err)
	}
	if _, err := kernel.ParseSpecs(" "); !errors.Is(err, kernel.ErrUnknownKernel) {
		t.Errorf("ParseSpecs empty: %v", err)
	}
}

// TestDataKernelsDeterministic: n = 300 exercises gonum's parallel Dgemm
// (≥ 4 blocks of 64) inside ClipPSD and the parallel Center/Ultrametric
// passes; GOMAXPROCS 1 and 2 must agree bit for bit.
func TestDataKernelsDeterministic(t *testing.T) {
	X := randDense(300, 3, 77)
	ctx := context.Background()
	var iso, hck [2]*mat.SymDense
	for p := 1; p <= 2; p++ {
		old := runtime.GOMAXPROCS(p)
		var err error
		iso[p-1], _, err = kernel.ISOMAP{}.Gram(ctx, X)
		if err == nil {
			hck[p-1], _, err = kernel.HCK{Method: hclust.Average, Graph: &graph.Spec{Kind: "knn", K: 5}}.Gram(ctx, X)
		}
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
	}
	if !mat.Equal(iso[0], iso[1]) {
		t.Error("ISOMAP differs between GOMAXPROCS 1 and 2")
	}
	if !mat.Equal(hck[0], hck[1]) {
		t.Error("HCK differs between GOMAXPROCS 1 and 2")
	}
	if r := minEigRatio(t, hck[0]); r < -1e-9 {
		t.Errorf("HCK (graph, n=300) not PSD: λmin/λmax = %v", r)
	}
}
