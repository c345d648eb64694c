package svcluster

import (
	"context"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// TestExtend: sampled rows keep their labels; every other row is Noise
// when outside the sphere with outliers unassigned, else the cluster of
// its nearest sampled row that has one (by brute force); Sizes count the
// labels of all rows; the sample of every row changes nothing.
func TestExtend(t *testing.T) {
	ctx := context.Background()
	X := dataset.Blobs(300, 3, 2, 0.6, 4).X
	sample := make([]int, 0, 60)
	for i := 0; i < 300; i += 5 {
		sample = append(sample, i)
	}
	S := mat.NewDense(len(sample), 2, nil)
	for a, i := range sample {
		S.SetRow(a, X.RawRowView(i))
	}
	for _, unassigned := range []bool{false, true} {
		res, err := Clusterer{Q: 0.5, C: 1 / (60 * 0.1), Unassigned: unassigned}.Fit(ctx, S)
		if err != nil {
			t.Fatal(err)
		}
		all, outside, err := Extend(ctx, res, X, sample, unassigned)
		if err != nil {
			t.Fatal(err)
		}
		sizes := make([]int, res.NClusters)
		nOut := 0
		for i := 0; i < 300; i++ {
			want := -2
			if a, ok := slices.BinarySearch(sample, i); ok {
				want = res.Labels[a]
			} else {
				out := res.Dist2(X.RawRowView(i)) > res.R2*(1+1e-9)
				if out {
					nOut++
				}
				if out && unassigned {
					want = Noise
				} else {
					best := -1
					for a, j := range sample {
						if res.Labels[a] == Noise {
							continue
						}
						if best < 0 || distance.Dist(X.RawRowView(i), X.RawRowView(j)) < distance.Dist(X.RawRowView(i), X.RawRowView(sample[best])) {
							best = a
						}
					}
					want = res.Labels[best]
				}
			}
			if all.Labels[i] != want {
				t.Fatalf("unassigned %v: row %d: label %d, want %d", unassigned, i, all.Labels[i], want)
			}
			if want >= 0 {
				sizes[want]++
			}
		}
		if outside != nOut || !slices.Equal(all.Sizes, sizes) || all.R2 != res.R2 {
			t.Fatalf("outside %d (want %d), sizes %v (want %v)", outside, nOut, all.Sizes, sizes)
		}
		every := make([]int, len(sample))
		for i := range every {
			every[i] = i
		}
		same, _, _ := Extend(ctx, res, S, every, unassigned)
		if !slices.Equal(same.Labels, res.Labels) {
			t.Fatal("extending to the sample itself changed its labels")
		}
	}
}

// TestClosest: the level nearest k, the first on ties, and on which sides
// of k the levels lie.
func TestClosest(t *testing.T) {
	h := &Hierarchy{}
	for _, c := range []int{1, 2, 4, 5} {
		h.Levels = append(h.Levels, Level{NClusters: c})
	}
	for _, c := range []struct {
		k, level     int
		below, above bool
	}{{3, 1, true, true}, {4, 2, true, true}, {9, 3, true, false}, {0, 0, false, true}} {
		l, b, a := h.Closest(c.k)
		if l != c.level || b != c.below || a != c.above {
			t.Errorf("k = %d: %d %v %v, want %d %v %v", c.k, l, b, a, c.level, c.below, c.above)
		}
	}
}

// TestBytes: the points and vectors, the column cache (4m², at most 200
// MiB) and the labelling's tables (8m², at most 384 MiB).
func TestBytes(t *testing.T) {
	if got := Bytes(100, 2); got != 8*100*18+4*100*100+8*100*100 {
		t.Errorf("Bytes(100, 2) = %v", got)
	}
	if got := Bytes(100000, 2); got != 8*100000*18+(200<<20)+(384<<20) {
		t.Errorf("Bytes(100000, 2) = %v", got)
	}
}
