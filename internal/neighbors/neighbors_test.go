package neighbors

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"testing"

	"github.com/arbor-ml/arbor/distance"
)

type fixture struct {
	Cases []struct {
		Name      string
		N, D, K   int
		X, Q      []float64
		QueryIdx  []int32   `json:"query_idx"`
		QueryDist []float64 `json:"query_dist"`
		SelfIdx   []int32   `json:"self_idx"`
		SelfDist  []float64 `json:"self_dist"`
	}
}

// both returns the index over data with its natural path and, when that is
// the tree, a brute-force twin.
func both(data []float64, n, d int) map[string]*Index {
	ix := New(data, n, d)
	out := map[string]*Index{"brute": {data: data, n: n, d: d}}
	if ix.t != nil {
		out["tree"] = ix
	}
	return out
}

// TestSklearnBrute compares with scikit-learn's brute-force kneighbors
// (testdata/gen_fixtures.py): same indices, distances to 1e-12 relative
// (sklearn computes ||x||²−2x·y+||y||², a different rounding).
func TestSklearnBrute(t *testing.T) {
	raw, err := os.ReadFile("testdata/knn.json")
	if err != nil {
		t.Fatal(err)
	}
	var f fixture
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range f.Cases {
		for path, ix := range both(c.X, c.N, c.D) {
			m := len(c.Q) / c.D
			idx := make([]int32, m*c.K)
			d2 := make([]float64, m*c.K)
			if err := ix.Search(ctx, c.Q, c.K, idx, d2); err != nil {
				t.Fatal(err)
			}
			check(t, c.Name+"/"+path+"/query", idx, d2, c.QueryIdx, c.QueryDist)
			idx = make([]int32, c.N*c.K)
			d2 = make([]float64, c.N*c.K)
			if err := ix.All(ctx, c.K, ExcludeSelf, idx, d2); err != nil {
				t.Fatal(err)
			}
			check(t, c.Name+"/"+path+"/self", idx, d2, c.SelfIdx, c.SelfDist)
		}
	}
}

func check(t *testing.T, name string, idx []int32, d2 []float64, wantIdx []int32, wantDist []float64) {
	t.Helper()
	for p := range wantIdx {
		if idx[p] != wantIdx[p] {
			t.Fatalf("%s: entry %d: index %d, sklearn %d", name, p, idx[p], wantIdx[p])
		}
		if got := math.Sqrt(d2[p]); math.Abs(got-wantDist[p]) > 1e-12*max(1, wantDist[p]) {
			t.Fatalf("%s: entry %d: distance %v, sklearn %v", name, p, got, wantDist[p])
		}
	}
}

// naive is the definition: all (d², index) pairs sorted, the first k kept.
func naive(data []float64, n, d int, x []float64, k, ex int) []Neighbor {
	var all []Neighbor
	for j := 0; j < n; j++ {
		if j != ex {
			all = append(all, Neighbor{distance.SqDist(x, data[j*d:j*d+d]), int32(j)})
		}
	}
	sort.Slice(all, func(a, b int) bool { return worse(all[b], all[a]) })
	return all[:min(k, len(all))]
}

// TestTiesEqualBruteForce: on integer grids with many duplicates and equal
// distances both paths return exactly the definition's pairs.
func TestTiesEqualBruteForce(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{1, 2, 5, 21} {
		for _, n := range []int{30, 400} {
			data := make([]float64, n*d)
			for i := range data {
				data[i] = float64(rng.IntN(4))
			}
			for _, k := range []int{1, 4, 17} {
				for path, ix := range both(data, n, d) {
					for _, self := range []Self{IncludeSelf, ExcludeSelf} {
						idx := make([]int32, n*k)
						d2 := make([]float64, n*k)
						if err := ix.All(ctx, k, self, idx, d2); err != nil {
							t.Fatal(err)
						}
						for i := 0; i < n; i++ {
							ex := -1
							if self == ExcludeSelf {
								ex = i
							}
							want := naive(data, n, d, data[i*d:i*d+d], k, ex)
							for r, w := range want {
								if idx[i*k+r] != w.Index || d2[i*k+r] != w.D2 {
									t.Fatalf("d=%d n=%d k=%d %s self=%d row %d rank %d: (%v,%d), want (%v,%d)",
										d, n, k, path, self, i, r, d2[i*k+r], idx[i*k+r], w.D2, w.Index)
								}
							}
						}
					}
					// Query with an excluded row.
					x := data[:d]
					got := ix.Query(x, k, 3, nil)
					want := naive(data, n, d, x, k, 3)
					for r := range want {
						if got[r] != want[r] {
							t.Fatalf("Query d=%d n=%d k=%d %s rank %d: %v want %v", d, n, k, path, r, got[r], want[r])
						}
					}
				}
			}
		}
	}
}

func TestBadK(t *testing.T) {
	data := []float64{0, 1, 2}
	ix := New(data, 3, 1)
	if err := ix.All(context.Background(), 3, ExcludeSelf, make([]int32, 9), nil); err == nil {
		t.Fatal("k = N with ExcludeSelf: no error")
	}
	if err := ix.Search(context.Background(), data, 0, nil, nil); err == nil {
		t.Fatal("k = 0: no error")
	}
}

func BenchmarkAll(b *testing.B) {
	for _, c := range []struct{ n, d int }{{100000, 3}, {20000, 10}, {5000, 30}} {
		rng := rand.New(rand.NewPCG(1, 2))
		data := make([]float64, c.n*c.d)
		for i := range data {
			data[i] = rng.NormFloat64()
		}
		b.Run("", func(b *testing.B) {
			b.ReportAllocs()
			idx := make([]int32, c.n*10)
			for b.Loop() {
				ix := New(data, c.n, c.d)
				if err := ix.All(context.Background(), 10, ExcludeSelf, idx, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
