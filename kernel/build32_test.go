package kernel_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestBuild32Peers: the float32 cluster kernels against peers.py (the same
// fixtures as TestClusterKernelsPeers: two moons, three blobs with a
// disconnected 7-NN graph), hck/hckg × single/complete/average and
// connectivity. Tolerance 1e-6 of max|K|: each entry is rounded to float32
// (2⁻²⁴ ≈ 6e-8 relative) after heights that carry a few 2⁻²⁴ from the
// float32 linkage (hclust.FromPoints32), and centring adds four such
// terms; a wrong merge moves entries by a large fraction of max|K|. The
// matrix must be exactly symmetric and equal to float32 rounding of the
// float64 Build to the same tolerance, and Info.Tree and Joins must be set.
func TestBuild32Peers(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"cluster_moons.json.gz", "cluster_blobs.json.gz"} {
		fx := loadCluster(t, name)
		X := dense(fx.X)
		type tc struct {
			spec string
			want [][]float64
		}
		cases := []tc{{"connectivity", fx.HckSingle}}
		for _, m := range []hclust.Method{hclust.Single, hclust.Complete, hclust.Average} {
			cases = append(cases, tc{"hck:" + m.String(), fx.want(false, m)}, tc{"hckg:" + m.String(), fx.want(true, m)})
		}
		for _, c := range cases {
			sp, err := kernel.ParseSpec(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			b, K, err := kernel.Build32(ctx, X, sp, kernel.BuildOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", name, c.spec, err)
			}
			d := maxRelDiff(t, K, c.want)
			t.Logf("%s %s: max diff %.3g of max|K|", name, c.spec, d)
			if d > 1e-6 {
				t.Errorf("%s %s float32: max diff %.3g of max|K| vs peers", name, c.spec, d)
			}
			n := K.SymmetricDim()
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					if K.At(i, j) != K.At(j, i) {
						t.Fatalf("%s %s: K32 not symmetric at (%d,%d)", name, c.spec, i, j)
					}
				}
			}
			if b.K != nil || b.Info.Tree == nil || b.Info.Tree.N != n {
				t.Errorf("%s %s: Built has K %v, Tree %v", name, c.spec, b.K != nil, b.Info.Tree != nil)
			}
			if sp.Graph != nil && b.Info.Joins != fx.Joins {
				t.Errorf("%s %s: Joins %d, peers %d", name, c.spec, b.Info.Joins, fx.Joins)
			}
		}
	}
}

// TestBuild32Point: for point kernels Build32 is Gram32 with rbf:scale's
// gamma resolved as BuildAll does: every entry is float32 of BuildAll's.
func TestBuild32Point(t *testing.T) {
	ctx := context.Background()
	X := dense(loadCluster(t, "cluster_moons.json.gz").X)
	for _, s := range []string{"rbf", "linear", "poly:1:1:3", "laplacian:0.5"} {
		sp, err := kernel.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		b64, err := kernel.BuildAll(ctx, X, []kernel.Spec{sp}, kernel.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, K, err := kernel.Build32(ctx, X, sp, kernel.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if b.Gamma != b64[0].Gamma {
			t.Fatalf("%s: gamma %v, BuildAll %v", s, b.Gamma, b64[0].Gamma)
		}
		n := K.SymmetricDim()
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				w := b64[0].K.At(i, j)
				if g := K.At(i, j); math.Abs(g-w) > 0x1p-24*math.Abs(w) {
					t.Fatalf("%s (%d,%d): %v, float64 %v", s, i, j, g, w)
				}
			}
		}
	}
}

// TestBuild32Refuses: ISOMAP and multitype have no float32 storage
// (ErrFloat32), and the linear out-of-sample rule needs the float64 K.
func TestBuild32Refuses(t *testing.T) {
	ctx := context.Background()
	X := dense(loadCluster(t, "cluster_moons.json.gz").X)
	for _, s := range []string{"isomap", "multitype:step:0.1:1"} {
		sp, err := kernel.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := kernel.Build32(ctx, X, sp, kernel.BuildOptions{}); !errors.Is(err, kernel.ErrFloat32) {
			t.Errorf("%s: err %v, want ErrFloat32", s, err)
		}
		if kernel.Bytes32(sp, 100) != 0 {
			t.Errorf("%s: Bytes32 non-zero", s)
		}
	}
	sp, _ := kernel.ParseSpec("hck:average")
	b, _, err := kernel.Build32(ctx, X, sp, kernel.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	Xt := mat.NewDense(2, X.RawMatrix().Cols, nil)
	if _, _, err := b.Extend(ctx, X, Xt, kernel.RuleLinear); !errors.Is(err, kernel.ErrFloat32) {
		t.Errorf("linear rule on a float32 build: err %v, want ErrFloat32", err)
	}
	if _, _, err := b.Extend(ctx, X, Xt, kernel.RuleTree); err != nil {
		t.Errorf("tree rule on a float32 build: %v", err)
	}
}

// BenchmarkBuild32 times the float32 cluster kernels beside the float64
// build (BenchmarkHCK): hck:average at n = 2000, 10-D.
func BenchmarkBuild32(b *testing.B) {
	X := mat.NewDense(2000, 10, nil)
	for i := range X.RawMatrix().Data {
		X.RawMatrix().Data[i] = math.Sin(float64(i) * 0.7311) // fixed, no ties
	}
	for _, s := range []string{"hck:average", "hck:single", "rbf"} {
		sp, err := kernel.ParseSpec(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("spec="+s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := kernel.Build32(context.Background(), X, sp, kernel.BuildOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
